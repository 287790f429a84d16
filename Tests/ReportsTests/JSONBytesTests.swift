import Foundation
@testable import Reports
import Testing
import TraceModel
import TraceSynth

/// A finding written by hand (``JSONBytes``) must be byte for byte what `JSONEncoder` writes:
/// scripts and golden files read that text, and `import-findings` decodes it.
@Suite struct JSONBytesTests {
    /// Seeded findings with every kind of text (quotes, backslashes, every control character,
    /// DEL, line separators, emoji, NUL) and numbers of every shape (whole, tiny, huge, negative
    /// zero, exponents), optionals present and absent, empty and full arrays.
    static func findings(seed: UInt64, count: Int) -> [JSONReport.FindingJSON] {
        var random = SplitMix64(seed)
        let pieces = ["a", "Z", "0", " ", "\"", "\\", "/", "\u{0}", "\u{7}", "\u{8}", "\t", "\n", "\u{b}", "\u{c}", "\r",
                      "\u{1b}", "\u{1f}", "\u{7f}", "\u{80}", "é", "\u{2028}", "\u{2029}", "\u{202e}", "😀", "{", "}", ":", ","]
        func text() -> String { (0 ..< Int.random(in: 0 ... 12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined() }
        func number() -> Double {
            switch Int.random(in: 0 ... 6, using: &random) {
            case 0: Double(Int.random(in: -1_000_000 ... 1_000_000, using: &random))
            case 1: Double.random(in: 0 ... 1, using: &random)
            case 2: Double.random(in: -1e300 ... 1e300, using: &random)
            case 3: Double(sign: .plus, exponent: Int.random(in: -1074 ... 1023, using: &random), significand: 1.5)
            case 4: [0, -0.0, 1e15, 1e16, 1e-5, 1e-4, 0.1, 100].randomElement(using: &random)!
            default: Double.random(in: -5000 ... 5000, using: &random).rounded() / 1000
            }
        }
        func optional<T>(_ make: () -> T) -> T? { Bool.random(using: &random) ? make() : nil }
        func event() -> EventRef {
            EventRef(
                rowID: optional { Int64.random(in: .min ... .max, using: &random) },
                seq: optional { Int64.random(in: -5 ... 1_000_000, using: &random) }, name: text(),
                ts: Timestamp(microseconds: Int64.random(in: -62_135_596_800_000_000 ... 253_402_300_799_000_000, using: &random)))
        }
        return (0 ..< count).map { _ in
            let ts = Timestamp(microseconds: Int64.random(in: 0 ... 4_000_000_000_000_000, using: &random))
            let finding = Finding(
                rule: text(), category: RuleCategory.allCases.randomElement(using: &random)!,
                severity: Severity.allCases.randomElement(using: &random)!, device: text(), launch: text(), ts: ts,
                events: (0 ..< Int.random(in: 0 ... 3, using: &random)).map { _ in event() }, budget: optional(text),
                budgetSeconds: optional(number), measured: optional(number), unit: optional(text), message: text(),
                explainedBy: optional { FindingRef(rule: text(), ts: ts) },
                factors: (0 ..< Int.random(in: 0 ... 2, using: &random)).map { _ in
                    Finding.Factor(
                        kind: Finding.FactorKind.allCases.randomElement(using: &random)!, share: number(),
                        evidence: (0 ..< Int.random(in: 0 ... 2, using: &random)).map { _ in event() })
                })
            var json = JSONReport.FindingJSON(finding)
            // The report rounds these to the millisecond; the writer must take any value.
            json.measured = optional(number)
            json.factors = json.factors.map { $0.map { var factor = $0; factor.share = number(); return factor } }
            return json
        }
    }

    @Test func compactAndPrettyTextIsTheEncoders() throws {
        let compact = JSONEncoder()
        compact.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let pretty = JSONEncoder()
        pretty.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        let findings = Self.findings(seed: 20261123, count: 3000)
        #expect(findings.contains { $0.factors?.contains { $0.evidence.isEmpty } == true })
        #expect(findings.contains { $0.events.isEmpty } && findings.contains { $0.explainedBy != nil })
        for finding in findings {
            #expect(finding.text(pretty: false) == String(decoding: try compact.encode(finding), as: UTF8.self))
            #expect(finding.text(pretty: true) == String(decoding: try pretty.encode(finding), as: UTF8.self))
        }
    }

    /// Nested in a pretty document, a finding's lines are indented to its depth, as the encoder
    /// indents an element of an array inside an object.
    @Test func prettyTextAtADepthIsTheEncodersInsideADocument() throws {
        struct Document: Encodable { var findings: [JSONReport.FindingJSON] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        for finding in Self.findings(seed: 7, count: 200) {
            let document = String(decoding: try encoder.encode(Document(findings: [finding])), as: UTF8.self)
            #expect(document == "{\n  \"findings\" : [\n    " + finding.text(pretty: true, depth: 2) + "\n  ]\n}")
        }
    }

    /// The encoder refuses a value that is not finite; the writer gives `null` and a line that
    /// still parses.
    @Test func aNumberThatIsNotFiniteIsNull() throws {
        var finding = try #require(Self.findings(seed: 1, count: 1).first)
        for value in [Double.nan, .infinity, -.infinity] {
            finding.measured = value
            let line = finding.text(pretty: false)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["measured"] is NSNull)
        }
    }
}
