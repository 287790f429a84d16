import Testing
@testable import LifelineKit

/// What a message shows of a value the user typed or an input named.
@Suite struct ShownValueTests {
    @Test(arguments: [
        ("com.example.news", "com.example.news"),
        ("5.12.0", "5.12.0"),
        ("Ünïcödé ✓ 📱", "Ünïcödé ✓ 📱"),
        ("", #""""#),
        ("a\u{1B}[2Jb", #""a\u{1B}[2Jb""#),
        ("tab\there", #""tab\u{9}here""#),
        ("right\u{202E}left", #""right\u{202E}left""#),
        ("q\"b\\\u{0}", #""q\"b\\\u{0}""#),
    ])
    func showsPrintableValuesAsTheyAreAndEscapesTheRest(_ value: String, _ shown: String) {
        #expect(ShownValue.shown(value) == shown)
    }

    @Test func aLongValueIsCutAtACharacter() {
        let value = String(repeating: "📱", count: 100)
        #expect(ShownValue.shown(value) == "\"" + String(repeating: "📱", count: 80) + "\"… (400 bytes)")
    }
}
