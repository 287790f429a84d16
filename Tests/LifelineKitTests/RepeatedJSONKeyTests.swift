import Testing
@testable import LifelineKit

/// A key given twice in one object is found, wherever the object is; keys repeated in different
/// objects, or only alike once their escapes are read, are not repeats; cut or odd input stops
/// the search without a trap.
@Suite struct RepeatedJSONKeyTests {
    static func first(_ text: String) -> String? {
        RepeatedJSONKey.first(in: Array(text.utf8)).map { $0.object.isEmpty ? $0.key : "\($0.object): \($0.key)" }
    }

    @Test func repeatsAreFoundWithTheirObject() {
        #expect(Self.first(#"{"a":1,"b":2,"a":3}"#) == "a")
        #expect(Self.first(#"{"budgets":{"x":1,"y":[1,{"z":2}],"x":2}}"#) == "budgets: x")
        #expect(Self.first(#"{"a":[{"k":1,"k":2}]}"#) == "a: k")
        #expect(Self.first(#" { "s" : "a\"b" , "t" : "{\"s\":1}" , "s" : null } "#) == "s")
    }

    @Test func keysInDifferentObjectsOrSpelledDifferentlyAreNotRepeats() {
        #expect(Self.first(#"{"a":{"k":1},"b":{"k":1}}"#) == nil)
        #expect(Self.first(#"{"a\u0062":1,"ab":2}"#) == nil)
        #expect(Self.first(#"[{"k":1},{"k":2}]"#) == nil)
        #expect(Self.first(#"{"budgets":{"processing-task":900},"severities":{"nse-overrun":"info"}}"#) == nil)
    }

    @Test func cutOrOddInputEndsTheSearch() {
        for text in ["", "{", #"{""#, #"{"a"#, #"{"a":"#, #"{"a\"#, "[[[[", String(repeating: "[", count: 100_000), #"{"a":1,"a""#] {
            _ = Self.first(text)
        }
        #expect(Self.first(#"{"a":1,"a""#) == "a")
    }
}
