@testable import TraceDecode
import Testing

/// The flat reader of `attrs` must give exactly what the general parser gives, whenever it
/// answers at all: compared on hand-picked edge cases and on seeded random objects.
@Suite struct FlatJSONObjectTests {
    static func same(_ text: String, keeping keys: [String]?) -> Bool {
        JSONAttributes(text, keeping: keys, flat: true) == JSONAttributes(text, keeping: keys, flat: false)
    }

    @Test(arguments: [
        #"{}"#, #"{"a":1}"#, #"{"low_power_mode":true,"battery":0.2,"charging":false}"#, #"{"a":null}"#,
        #"{"a":"x","a":"y"}"#, #"{"a":-0}"#, #"{"a":01}"#, #"{"a":1.}"#, #"{"a":.5}"#, #"{"a":1e999}"#,
        #"{"a":1E+2}"#, #"{"a":-}"#, #"{"a":tru}"#, #"{"a":"\u0041"}"#, #"{"a\n":1}"#, #"{"é":1}"#,
        #"{"a":"é"}"#, #"{"a":[1]}"#, #"{"a":{"b":1}}"#, #"{"a":1,}"#, #"{"a":1"#, #"{"a" :1}"#, #"{ "a":1}"#,
        #"{"a":1}x"#, #"{"":2}"#, #"{"a":"x\u{01}"}"#, #"{"a":12345678901234567890}"#, #"{"a":"}"}"#,
        #"{"a":","b":1}"#, #"{"a":1,"b"}"#, #"{"a":1,,"b":2}"#, #"{"a":true,"b":false,"c":null,"d":"s"}"#,
    ])
    func edgeCases(_ text: String) {
        #expect(Self.same(text, keeping: nil), "\(text)")
        #expect(Self.same(text, keeping: ["a", "b"]), "\(text)")
    }

    @Test func randomFlatObjectsReadAlike() {
        var state: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let keys = ["a", "b", "battery", "charging", "x"]
        let values = ["true", "false", "null", "0", "-1", "0.25", "1e3", "2E-2", #""s""#, #""""#, "01", "1.", #""a\"b""#, "[]", "{}", "-"]
        for _ in 0 ..< 3_000 {
            let count = next(5)
            let members = (0 ..< count).map { _ in "\"\(keys[next(keys.count)])\":\(values[next(values.count)])" }
            var text = "{" + members.joined(separator: ",") + "}"
            if next(10) == 0 { text.insert(" ", at: text.index(text.startIndex, offsetBy: next(text.count))) }
            #expect(Self.same(text, keeping: nil), "\(text)")
            #expect(Self.same(text, keeping: ["a", "battery", "charging"]), "\(text)")
        }
    }
}
