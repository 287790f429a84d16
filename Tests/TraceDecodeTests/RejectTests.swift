import Testing
import TraceDecode
import TraceModel

struct RejectTests {
    @Test func invalidJSONSaysWhatAndWhere() {
        #expect(rejection(#"{"ts":0,"device":"D" "launch":"L"}"#)
            == LineIssue(.invalidJSON, "expected ',' or '}' at column 22"))
        #expect(rejection(#"{"ts":0,"device"}"#) == LineIssue(.invalidJSON, "expected ':' at column 17"))
        #expect(rejection(#"{"ts":0,}"#) == LineIssue(.invalidJSON, "expected a string key at column 9"))
        #expect(rejection(#"{ts:0}"#) == LineIssue(.invalidJSON, "expected a string key at column 2"))
        #expect(rejection(#"{"ts":}"#) == LineIssue(.invalidJSON, "expected a value at column 7"))
        #expect(rejection(#"{"ts":0,"device":"D"#)
            == LineIssue(.invalidJSON, "unterminated string starting at column 18"))
        #expect(rejection(#"{"ts":0"#)
            == LineIssue(.invalidJSON, "unexpected end of line at column 8, expected ',' or '}'"))
        #expect(rejection(#"{"a":tru}"#) == LineIssue(.invalidJSON, "invalid literal at column 6"))
        #expect(rejection(#"{"a":[1,]}"#) == LineIssue(.invalidJSON, "expected a value at column 9"))
        #expect(rejection(#"{"a":{"b" 1}}"#) == LineIssue(.invalidJSON, "expected ':' at column 11"))
        #expect(rejection(#"{"a":[1 2]}"#) == LineIssue(.invalidJSON, "expected ',' or ']' at column 9"))
        #expect(rejection("hello") == LineIssue(.invalidJSON, "expected a value at column 1"))
    }

    @Test func trailingCharactersAfterTheObjectAreInvalid() {
        #expect(rejection(line() + " x") == LineIssue(
            .invalidJSON, "unexpected characters after the object at column \(line().utf8.count + 2)"))
        #expect(rejection(line() + line())?.reason == .invalidJSON)
    }

    @Test(arguments: ["01", "1.", ".5", "+1", "-", "1e", "1e+", "-a", "0x1", "1.e3", "NaN", "Infinity"])
    func numbersOutsideTheJSONGrammarAreInvalid(number: String) {
        #expect(rejection(line(#","n":\#(number)"#))?.reason == .invalidJSON)
    }

    @Test(arguments: ["0", "-0", "1.5e+10", "-0.0E-2", "123456789012345678901234567890"])
    func numbersInsideTheGrammarAreKept(number: String) {
        #expect(decodedEvent(line(#","n":\#(number)"#))?.attrs == #"{"n":\#(number)}"#)
    }

    @Test func controlCharactersInStringsAreInvalid() {
        #expect(rejection("{\"ts\":0,\"device\":\"D\u{1}\"}")
            == LineIssue(.invalidJSON, "unescaped control character in a string at column 20"))
        #expect(rejection("{\"a\":\"tab\there\"}")?.reason == .invalidJSON)
    }

    @Test func badEscapesAreInvalid() {
        #expect(rejection(line(#","a":"\x""#))?.reason == .invalidJSON)
        #expect(rejection(line(#","a":"\u12G4""#))?.reason == .invalidJSON)
        #expect(rejection(#"{"a":"\ud800"}"#)
            == LineIssue(.invalidJSON, "unpaired UTF-16 surrogate escape at column 7"))
        #expect(rejection(#"{"a":"\udc00\ud800"}"#)?.reason == .invalidJSON)
        #expect(rejection(#"{"a":"\ud800\u0041"}"#)?.reason == .invalidJSON)
        #expect(rejection(#"{"a":"\ud800x"}"#)?.reason == .invalidJSON)
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        // The line's object is the first level, so the 256th '[' (column 68 + 5 + 256) is too deep.
        #expect(rejection(line(#","a":"# + deep))
            == LineIssue(.invalidJSON, "nesting deeper than 256 levels at column 329"))
        let fine = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(decodedEvent(line(#","a":"# + fine))?.attrs == #"{"a":"# + fine + "}")
    }

    @Test func valuesOtherThanAnObjectAreNotAnObject() {
        #expect(rejection("[1,2]") == LineIssue(.notAnObject, "the line is an array, not an object"))
        #expect(rejection(#" "text" "#) == LineIssue(.notAnObject, "the line is a string, not an object"))
        #expect(rejection("42") == LineIssue(.notAnObject, "the line is an integer, not an object"))
        #expect(rejection("null") == LineIssue(.notAnObject, "the line is null, not an object"))
        #expect(rejection("[1,")?.reason == .invalidJSON)
    }

    @Test func missingFieldsAreNamed() {
        #expect(rejection(#"{"ts":0,"device":"D","launch":"L"}"#)
            == LineIssue(.missingField, "missing required field 'event'"))
        #expect(rejection(#"{"device":"D","launch":"L"}"#)
            == LineIssue(.missingField, "missing required fields 'ts', 'event'"))
        #expect(rejection("{}")
            == LineIssue(.missingField, "missing required fields 'ts', 'device', 'launch', 'event'"))
    }

    @Test func requiredFieldsOfAnotherTypeAreBadFields() {
        #expect(rejection(#"{"ts":0,"device":true,"launch":"L","event":"e"}"#)
            == LineIssue(.badField, "field 'device' must be a string, not a boolean"))
        #expect(rejection(#"{"ts":0,"device":"D","launch":1.5,"event":"e"}"#)
            == LineIssue(.badField, "field 'launch' must be a string, not a number"))
        #expect(rejection(#"{"ts":0,"device":"D","launch":"L","event":null}"#)
            == LineIssue(.badField, "field 'event' must be a string, not null"))
        #expect(rejection(#"{"ts":0,"device":"D","launch":"L","event":{"x":1}}"#)
            == LineIssue(.badField, "field 'event' must be a string, not an object"))
    }

    @Test func timestampsThatDoNotParseAreBadTimestamps() {
        #expect(rejection(#"{"ts":"2026-13-01T00:00:00Z","device":"D","launch":"L","event":"e"}"#)
            == LineIssue(.badTimestamp, #"ts "2026-13-01T00:00:00Z" is not an RFC 3339 date and time"#))
        #expect(rejection(#"{"ts":"2026-02-30T00:00:00Z","device":"D","launch":"L","event":"e"}"#)?.reason
            == .badTimestamp)
        #expect(rejection(#"{"ts":1e300,"device":"D","launch":"L","event":"e"}"#)
            == LineIssue(.badTimestamp, "ts 1e300 is out of range: Unix epoch seconds from the year 0000 to 9999"))
        #expect(rejection(#"{"ts":-1e300,"device":"D","launch":"L","event":"e"}"#)
            == LineIssue(.badTimestamp, "ts -1e300 is out of range: Unix epoch seconds from the year 0000 to 9999"))
        #expect(rejection(#"{"ts":"9999-12-31T23:59:59-01:00","device":"D","launch":"L","event":"e"}"#)
            == LineIssue(.badTimestamp, #"ts "9999-12-31T23:59:59-01:00" falls outside the years 0000 to 9999 once its offset is applied"#))
        #expect(rejection(#"{"ts":true,"device":"D","launch":"L","event":"e"}"#)
            == LineIssue(.badTimestamp,
                         "ts must be an RFC 3339 string or a number of epoch seconds, not true"))
    }

    @Test func longOffendingTextIsShortened() throws {
        let long = String(repeating: "é", count: 100)
        let issue = try #require(rejection(#"{"ts":"\#(long)","device":"D","launch":"L","event":"e"}"#))
        #expect(issue.reason == .badTimestamp)
        #expect(issue.message == "ts \"" + String(repeating: "é", count: 39) + "… is not an RFC 3339 date and time")
    }

    @Test(arguments: [
        [0xC3, 0x28],              // a lead byte without its continuation
        [0xC0, 0xAF],              // overlong '/'
        [0xE0, 0x80, 0xAF],        // overlong '/' in three bytes
        [0xF0, 0x80, 0x80, 0xAF],  // overlong '/' in four bytes
        [0xED, 0xA0, 0x80],        // an encoded surrogate
        [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
        [0xF5, 0x80, 0x80, 0x80],  // a byte never used
        [0x80],                    // a lone continuation byte
        [0xE2, 0x82],              // cut short before the quote
    ] as [[UInt8]])
    func invalidUTF8InAStringIsRejected(sequence: [UInt8]) {
        let bytes = Array(#"{"ts":0,"device":"D"#.utf8) + sequence + Array(#"","launch":"L","event":"e"}"#.utf8)
        #expect(rejection(bytes: bytes) == LineIssue(.invalidUTF8, "invalid UTF-8 sequence at column 20"))
    }

    @Test func invalidUTF8TakesPrecedenceOverInvalidJSON() {
        // The JSON breaks at column 2, before the bad byte at column 9 is reached.
        let bytes = Array(#"{x "a":""#.utf8) + [0xFF] + Array(#""}"#.utf8)
        #expect(rejection(bytes: bytes) == LineIssue(.invalidUTF8, "invalid UTF-8 sequence at column 9"))
        #expect(rejection(bytes: [0xFF]) == LineIssue(.invalidUTF8, "invalid UTF-8 sequence at column 1"))
    }

    @Test func validUTF8OutsideStringsIsInvalidJSON() {
        #expect(rejection(#"{"a":é}"#) == LineIssue(.invalidJSON, "expected a value at column 6"))
    }
}
