import Foundation
import Testing

/// No events to replay is not success: exit 3 and one line saying why, so that a mistyped
/// `--db` or device cannot keep a nightly job green.
@Suite struct NothingToCheckTests {
    @Test func aDatabaseWithNoEvents() throws {
        let directory = try CLI.temporaryDirectory()
        let database = directory.appendingPathComponent("empty.db").path
        let empty = directory.appendingPathComponent("empty.jsonl").path
        FileManager.default.createFile(atPath: empty, contents: Data())
        #expect(try CLI.run(["ingest", "--db", database, empty]).status == 0)
        Mistake.expectOneLine(
            try CLI.run(["check", "--db", database, "--fail-on", "error"]), status: 3,
            containing: "nothing to check: \(database) holds no events: ingest logs first with `lifeline ingest --db \(database) PATH…`")
        #expect(try CLI.sqlite(database, "SELECT count(*) FROM runs") == "0")
    }

    @Test func aDeviceWithNoEvents() throws {
        let database = try Mistake.checkedDatabase()
        let findings = try CLI.sqlite(database, "SELECT count(*) FROM findings")
        Mistake.expectOneLine(
            try CLI.run(["check", "--db", database, "--device", "no-such-device"]), status: 3,
            containing: "nothing to check: no events for device no-such-device in \(database);")
        #expect(try CLI.sqlite(database, "SELECT count(*) FROM findings") == findings)
        Mistake.expectOneLine(
            try CLI.run(["timeline", "--db", database, "no-such-device"]), status: 3,
            containing: "nothing to check: no events for device no-such-device in \(database);")
    }

    @Test func anEmptyStandardInputIsNothingToCheck() throws {
        let result = try CLI.run(["check", "--stdin", "--fail-on", "info"], stdin: "")
        #expect(result.status == 3)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.split(separator: "\n").last?.hasPrefix("nothing to check: standard input held no events") == true)
    }

    /// Input made only of bad lines is bad input (exit 1, as for any rejected line), not a
    /// filter that matched nothing: the summary says what was rejected.
    @Test func standardInputOfOnlyBadLinesIsBadInput() throws {
        let result = try CLI.run(["check", "--stdin", "--fail-on", "info"], stdin: "{broken\n")
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("stdin:1: invalid-json"))
        #expect(result.stderr.split(separator: "\n").last?.hasPrefix("replayed 0 events of 0 devices: 0 findings, 1 rejected line") == true)
    }
}
