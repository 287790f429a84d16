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

    /// The example's last line is the first launch's `terminate`, written by the second launch
    /// after its own `launch` line: a stream ends the first launch with it, as the store does,
    /// rather than with the second launch's start.
    @Test func theTerminateWrittenOnTheOldLaunchsBehalfEndsItOnAStreamAsInTheStore() throws {
        let directory = try CLI.temporaryDirectory()
        let launches = directory.appendingPathComponent("launches.jsonl").path
        let lines = try Self.exampleLines()
        let streamed = try CLI.run(["check", "--stdin", "--quiet", "--launches", launches], stdin: lines)
        #expect(streamed.status == 0, "\(streamed.stderr)")
        let rows = try String(contentsOfFile: launches, encoding: .utf8).split(separator: "\n").map { try CLI.json(String($0)) }
        let first = try #require(rows.first { $0["launch"] as? String == "L1" })
        #expect(first["ended"] as? String == "terminated" && first["end_reason"] as? String == "quiet", "\(first)")

        let example = directory.appendingPathComponent("example.jsonl").path
        try lines.write(toFile: example, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("l.db").path
        #expect(try CLI.run(["check", "--quiet", "--db", database, example]).status == 0)
        #expect(try CLI.sqlite(database, "SELECT ended || ' ' || end_reason FROM launches WHERE launch = 'L1'") == "terminated quiet")
    }
}
