@testable import Replay
import Testing

/// The scene id read without parsing must be what parsing reads, or nothing: on hostile
/// `attrs` (a NUL, an escape, a duplicate, a 200 kB id, a number, text beyond ASCII, a cut
/// object) it either agrees with ``AttributeReader`` or leaves the answer to it.
@Suite struct LeadingStringTests {
    static let long = String(repeating: "S", count: 200_000)

    @Test(arguments: [
        #"{"scene":"S1"}"#, #"{"scene":"S1","phase":"begin"}"#, #"{"scene":"a\u0000b"}"#, "{\"scene\":\"a\u{0}b\"}",
        #"{"scene":"a\"b"}"#, #"{"scene":"A","scene":"B"}"#, #"{"scene":"A","x":{"scene":"B"}}"#,
        #"{"scene":1e999}"#, #"{"scene":null}"#, #"{"scene":"é"}"#, #"{"scene":"S1""#, #"{"scene":"S1"x"#,
        #"{"role":"window","scene":"S2"}"#, #"{"scene":""}"#, #"{"scenes":"S1"}"#, #"{"scene" :"S1"}"#, "",
        "{\"scene\":\"" + long + "\"}",
    ])
    func agreesWithParsingOrStepsAside(_ attrs: String) {
        guard let quick = LeadingString.value(of: "scene", in: attrs) else { return }
        #expect(quick == AttributeReader(attrs, only: ["scene"]).string("scene"), "\(attrs.prefix(80))")
    }

    @Test func theCommonShapeIsRead() {
        #expect(LeadingString.value(of: "scene", in: #"{"scene":"S1","phase":"begin"}"#) == "S1")
        #expect(LeadingString.value(of: "scene", in: "{\"scene\":\"" + Self.long + "\"}") == Self.long)
        #expect(LeadingString.value(of: "scene", in: #"{"scene":"A","scene":"B"}"#) == nil)
        #expect(LeadingString.value(of: "scene", in: #"{"scene":"a\"b"}"#) == nil)
    }
}
