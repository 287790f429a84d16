import Foundation
import Testing

/// Values that once made every later `check` of a database, and every `timeline` of its device,
/// die with a runtime trap: a `mono` that jumps by 10¹⁶ s or is written as `1e999` (infinite).
/// Stored, checked, shown and streamed, they now print as numbers a person can read.
@Suite struct HostileValuesTests {
    static let lines = [
        #"{"ts":"2026-11-21T08:00:00Z","device":"H","launch":"L","seq":0,"mono":100,"event":"launch","reason":"system","cause":"bgtask"}"#,
        #"{"ts":"2026-11-21T08:00:01Z","device":"H","launch":"L","seq":1,"mono":101,"event":"didEnterBackground","phase":"begin"}"#,
        #"{"ts":"2026-11-21T08:00:02Z","device":"H","launch":"L","seq":2,"mono":1e16,"event":"didEnterBackground","phase":"end"}"#,
        #"{"ts":"2026-11-21T08:00:03Z","device":"H","launch":"L","seq":3,"mono":1e999,"event":"snapshot"}"#,
        #"{"ts":"2026-11-21T08:00:04Z","device":"H","launch":"L","seq":4,"mono":-1e999,"event":"suspend"}"#,
    ].joined(separator: "\n") + "\n"

    @Test func aDatabaseHoldingThemChecksAndShowsWithoutATrap() throws {
        let directory = try CLI.temporaryDirectory()
        let file = directory.appendingPathComponent("hostile.jsonl")
        try Self.lines.write(to: file, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("h.db").path
        #expect(try CLI.run(["ingest", "--quiet", "--db", database, file.path]).status == 0)
        for _ in 0..<2 {  // the database stays usable run after run
            let check = try CLI.run(["check", "--db", database, "--format", "json"])
            #expect(check.status == 0, "\(check.stderr)")
            #expect(check.stdout.contains("did-enter-background-overrun"))
            #expect(check.stdout.contains("1.0e16 s"), "the overrun reads as a number: \(check.stdout)")
        }
        let timeline = try CLI.run(["timeline", "H", "--db", database])
        #expect(timeline.status == 0, "\(timeline.stderr)")
        #expect(timeline.stdout.contains("didEnterBackground"))
        // The export places events by `mono` from the launch's first: a jump of 10¹⁶ s, and an
        // infinite one, must neither trap nor write a time JSON cannot hold.
        let export = try CLI.run(["export", "H", "--db", database])
        #expect(export.status == 0, "\(export.stderr)")
        let trace = try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any]
        #expect((trace?["traceEvents"] as? [[String: Any]])?.isEmpty == false)
        // A launch id that would drive the terminal is named escaped.
        let launch = try CLI.run(["timeline", "H", "--db", database, "--launch", "L\u{1B}[2J"])
        #expect(launch.status == 3 && !launch.stderr.contains("\u{1B}") && launch.stderr.contains("no events of launch"), "\(launch.stderr)")
    }

    @Test func aStreamHoldingThemChecksWithoutATrap() throws {
        let result = try CLI.run(["check", "--stdin"], stdin: Self.lines)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("did-enter-background-overrun"))
    }

    /// Names from uploads — a file's, a device's, a reason of termination — reach the terminal
    /// escaped in `ingest`'s summary and `report`'s markdown (and Markdown's own `|` and `<`): a file named with an escape sequence
    /// recoloured the terminal, and a device id with a newline split its line.
    @Test func namesFromUploadsAreEscapedInSummariesAndReports() throws {
        let directory = try CLI.temporaryDirectory()
        let logs = directory.appendingPathComponent("logs")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        let hostile = "dev\u{1B}[31m\nred"
        let escapedDevice = #"dev\u{1B}[31m\u{A}red"#
        let log = [
            #"{"ts":"2026-11-21T08:00:00Z","device":"DEVICE","launch":"L","seq":0,"event":"launch","reason":"system","cause":"bgtask"}"#,
            #"{"ts":"2026-11-21T08:00:01Z","device":"DEVICE","launch":"L","seq":1,"event":"didEnterBackground","phase":"begin"}"#,
            #"{"ts":"2026-11-21T08:01:00Z","device":"DEVICE","launch":"L","seq":2,"event":"terminate","reason":"REASON"}"#,
            "not json",
        ].joined(separator: "\n").replacingOccurrences(of: "DEVICE", with: #"dev\u001b[31m\nred"#)
            .replacingOccurrences(of: "REASON", with: #"oom\u001b[0m|<i>x</i>"#) + "\n"
        try log.write(to: logs.appendingPathComponent("esc\u{1B}[31mred.jsonl"), atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("h.db").path
        let ingested = try CLI.run(["ingest", "--db", database, logs.path])
        #expect(ingested.status == 1)
        #expect(!ingested.stdout.contains("\u{1B}") && ingested.stdout.contains(#"esc\u{1B}[31mred.jsonl: 1 rejected line"#), "\(ingested.stdout)")
        #expect(try CLI.run(["check", "--quiet", "--db", database]).status != 2)
        let report = try CLI.run(["report", "--db", database, "--format", "markdown"])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(!report.stdout.contains("\u{1B}") && !report.stdout.contains(hostile), "\(report.stdout)")
        #expect(report.stdout.contains("- `\(escapedDevice)`: "), "\(report.stdout)")
        // A `|` split the reason's cell (its counts fell under the wrong columns), and `<i>` was
        // rendered.
        #expect(report.stdout.contains(#"| oom\u{1B}[0m\|&lt;i>x&lt;/i> | 1 | 1 |"#), "\(report.stdout)")
        // The HTML page carried the escape (and a NUL) raw.
        let page = try CLI.run(["report", "--db", database, "--format", "html"])
        #expect(page.status == 0 && !page.stdout.contains("\u{1B}"), "\(page.stdout)")
        #expect(page.stdout.contains(#"dev\u{1B}[31m"#) && page.stdout.contains(#"oom\u{1B}[0m|&lt;i&gt;x&lt;/i&gt;"#), "\(page.stdout)")
    }
}
