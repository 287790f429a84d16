import Testing
import TraceDecode

@Suite struct JSONAttributesTests {
    @Test func readsFlatMembersOfEveryType() throws {
        let attributes = try #require(JSONAttributes(
            #"{"priority":5,"ratio":0.25,"content_available":true,"push_type":"background","gone":null,"ids":["a","b"],"nested":{"x":1},"mixed":[1,"a"]}"#))
        #expect(attributes["priority"] == .number(5))
        #expect(attributes["ratio"] == .number(0.25))
        #expect(attributes["content_available"] == .bool(true))
        #expect(attributes["push_type"] == .string("background"))
        #expect(attributes["gone"] == .null)
        #expect(attributes["ids"] == .strings(["a", "b"]))
        #expect(attributes["nested"] == .other)
        #expect(attributes["mixed"] == .other)
        #expect(attributes["absent"] == nil)
    }

    @Test func unescapesStringsAndKeys() throws {
        let attributes = try #require(JSONAttributes(#"{"na\u006de":"caf\u00e9 \"x\"","list":["\n"]}"#))
        #expect(attributes["name"] == .string("café \"x\""))
        #expect(attributes["list"] == .strings(["\n"]))
    }

    @Test func theLastDuplicateWinsAndEmptyContainersRead() throws {
        let attributes = try #require(JSONAttributes(#" { "a" : 1 , "a" : 2, "e": [] } "#))
        #expect(attributes["a"] == .number(2))
        #expect(attributes["e"] == .strings([]))
        #expect(JSONAttributes("{}") != nil)
    }

    @Test func anythingButOneObjectIsNil() {
        for text in ["", "[]", "{", #"{"a":1} x"#, #"{"a":tru}"#, "42"] {
            #expect(JSONAttributes(text) == nil, "\(text)")
        }
    }
}
