import Testing
import TraceDecode
import TraceModel

struct AttrsTests {
    @Test func otherFieldsAreKeptVerbatimInInputOrder() {
        #expect(decodedEvent(line(#","priority":5,"push_type":"background","content_available":true"#))?.attrs
            == #"{"priority":5,"push_type":"background","content_available":true}"#)
    }

    @Test func noOtherFieldsMeansNoAttrs() {
        #expect(decodedEvent(line(#","seq":1,"app":"a""#))?.attrs == nil)
    }

    @Test func nestedValuesKeepTheirOwnText() {
        let members = #","future":{"a":[1, 2.50, {"b" : null}],"c":"\u00e9\n"},"empty":{},"list":[ ]"#
        #expect(decodedEvent(line(members))?.attrs
            == #"{"future":{"a":[1, 2.50, {"b" : null}],"c":"\u00e9\n"},"empty":{},"list":[ ]}"#)
    }

    @Test func whitespaceAroundMembersIsDropped() {
        #expect(decodedEvent(line(#" ,  "x" :  1e3  ,"y":"z"  "#))?.attrs == #"{"x":1e3,"y":"z"}"#)
    }

    @Test(arguments: [
        #""task":"abc""#, #""seq":-1"#, #""seq":1.5"#, #""seq":1e2"#, #""seq":18446744073709551616"#,
        #""mono":"12.5""#, #""mono":1e400"#, #""app":null"#, #""os":17.4"#, #""success":"true""#,
        #""call":1.5"#, #""call":{"id":1}"#, #""identifier":["a"]"#, #""task":9223372036854775808"#,
    ])
    func typedFieldsOfAnotherTypeGoToAttrs(member: String) {
        // Equal to the bare envelope plus attrs: the typed property stayed nil.
        #expect(decodedEvent(line("," + member)) == Event(
            ts: exampleTime(milliseconds: 0), device: "D1", launch: "L7", name: "e",
            attrs: "{\(member)}"))
    }

    @Test func unicodeInAttrsIsKept() {
        #expect(decodedEvent(line(#","name":"Café ☕️ 𝄞""#))?.attrs == #"{"name":"Café ☕️ 𝄞"}"#)
    }

    @Test func escapedKeysAreMatchedUnescapedButKeptAsWritten() throws {
        let event = try #require(decodedEvent(line(#","s\u0065q":4,"x\"y":1"#)))
        #expect(event.seq == 4)
        #expect(event.attrs == #"{"x\"y":1}"#)
    }
}
