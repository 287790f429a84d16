import Foundation
import Testing

/// `check` writes its report to a temporary file while it saves the run, and prints it once the
/// run is saved. Neither step may change what is printed or recorded: without a usable temporary
/// directory the report is printed as it comes, and a reader that stops early (`| head`) still
/// finds the run recorded.
@Suite(.serialized) struct ReportSpoolTests {
    /// The report without the line that times the replay.
    static func untimed(_ report: String) -> String {
        report.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("\"seconds\"") && !$0.contains("Replayed ") }.joined(separator: "\n")
    }

    @Test(arguments: ["json", "jsonl", "text"])
    func withoutATemporaryDirectoryTheSameReportIsPrinted(format: String) throws {
        let database = try CLI.temporaryDirectory().appendingPathComponent("c.db").path
        _ = try CLI.run(["ingest", "--quiet", "--db", database, CheckCommandTests.traces])
        let spooled = try CLI.shell("\"$LIFELINE\" check --quiet --db '\(database)' --format \(format)")
        let unspooled = try CLI.shell(
            "\"$LIFELINE\" check --quiet --db '\(database)' --format \(format)",
            environment: ["TMPDIR": "/nonexistent-lifeline-tmp"])
        #expect(spooled.status == 0)
        #expect(unspooled.status == 0)
        #expect(spooled.stdout.contains("nse-overrun"))
        #expect(Self.untimed(unspooled.stdout) == Self.untimed(spooled.stdout))
        #expect(try CLI.sqlite(database, "SELECT count(*) FROM runs") == "2")
    }

    @Test func aReaderThatStopsEarlyStillFindsTheRunRecorded() throws {
        let database = try CLI.temporaryDirectory().appendingPathComponent("c.db").path
        _ = try CLI.run(["ingest", "--quiet", "--db", database, CheckCommandTests.traces])
        let head = try CLI.shell("\"$LIFELINE\" check --quiet --db '\(database)' --format json | head -c 20")
        #expect(head.stdout.utf8.count == 20)
        #expect(head.stdout.hasPrefix("{\n  \"devices\" : "))
        #expect(try CLI.sqlite(database, "SELECT count(*) FROM runs") == "1")
        let findings = try #require(Int(try CLI.sqlite(database, "SELECT count(*) FROM findings")))
        #expect(findings > 0)
        #expect(try CLI.sqlite(database, "SELECT count(*) FROM launches WHERE run_id = 1") != "0")
    }
}
