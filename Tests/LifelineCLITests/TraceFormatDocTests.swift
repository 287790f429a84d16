import Foundation
import Testing

/// The complete example in docs/trace-format.md is a clean day: read exactly as the document
/// shows it, every line is an event and no rule finds anything, so the document cannot drift
/// from what Lifeline reads and checks.
@Suite struct TraceFormatDocTests {
    static func exampleLines() throws -> String {
        let text = try String(contentsOf: CLI.root.appendingPathComponent("docs/trace-format.md"), encoding: .utf8)
        let section = try #require(text.range(of: "## A complete example"))
        let open = try #require(text.range(of: "```\n", range: section.upperBound..<text.endIndex))
        let close = try #require(text.range(of: "```", range: open.upperBound..<text.endIndex))
        return String(text[open.upperBound..<close.lowerBound])
    }

    @Test func theCompleteExampleIsACleanDay() throws {
        let lines = try Self.exampleLines()
        let result = try CLI.run(["check", "--stdin", "--format", "json"], stdin: lines)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try CLI.json(result.stdout)
        #expect(report["events"] as? Int == lines.split(separator: "\n").count)
        #expect((report["findings"] as? [Any])?.isEmpty == true, "\(result.stdout)")
        #expect(result.stderr.contains("0 rejected lines, 0 lost lines"))
    }
}
