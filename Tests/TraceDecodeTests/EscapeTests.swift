import Testing
import TraceDecode
import TraceModel

struct EscapeTests {
    @Test(arguments: [
        (#"a\"b"#, "a\"b"), (#"a\\b"#, "a\\b"), (#"a\/b"#, "a/b"), (#"\b\f\n\r\t"#, "\u{8}\u{C}\n\r\t"),
        (#"caf\u00e9"#, "café"), (#"\u00E9"#, "é"), (#"\u20AC"#, "€"), (#"\ud834\udd1e"#, "𝄞"),
        (#"\uD83D\uDE00!"#, "😀!"), (#"\u0000"#, "\u{0}"), (#"x\u0041y"#, "xAy"),
    ])
    func typedStringsAreUnescaped(escaped: String, text: String) {
        #expect(decodedEvent(line(#","identifier":"\#(escaped)""#))?.identifier == text)
    }

    @Test func envelopeStringsAreUnescaped() throws {
        let event = try #require(decodedEvent(
            #"{"ts":"2026-11-21T08:00:00\u002e1Z","device":"D\"1","launch":"L\/7","event":"bg\u0074ask"}"#))
        #expect(event.ts == exampleTime(milliseconds: 100))
        #expect(event.device == "D\"1")
        #expect(event.launch == "L/7")
        #expect(event.name == "bgtask")
    }

    @Test func rawUTF8IsKept() {
        #expect(decodedEvent(line(#","app":"Café ☕️ 𝄞""#))?.app == "Café ☕️ 𝄞")
    }

    @Test func anEscapedValueAndItsPlainTwinGiveEqualStrings() {
        var decoder = EventDecoder()
        var names: [String] = []
        for name in [#"caf\u00e9"#, "café", #"caf\u00e9"#] {
            let text = #"{"ts":0,"device":"D","launch":"L","event":"\#(name)"}"#
            if case .event(let event) = Array(text.utf8).withUnsafeBytes({ decoder.decode($0) }) {
                names.append(event.name)
            }
        }
        #expect(names == ["café", "café", "café"])
    }

    @Test func longStringsCrossTheEightByteStrides() {
        for length in 0 ..< 40 {
            let text = String(repeating: "x", count: length)
            #expect(decodedEvent(line(#","result":"\#(text)""#))?.result == text)
            #expect(decodedEvent(line(#","result":"\#(text)\n""#))?.result == text + "\n")
            #expect(decodedEvent(line(#","result":"\#(text)é""#))?.result == text + "é")
        }
    }
}
