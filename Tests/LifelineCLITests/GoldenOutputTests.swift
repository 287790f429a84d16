import Foundation
import GoldenFiles
import Testing

/// Every command's `--help` and every output format, byte for byte against `Golden/`, on the
/// sample traces. What varies from run to run (timings, rates, temporary paths) is replaced by a
/// fixed token first, so a difference is a change in what a person or a script reads.
@Suite(.serialized) struct GoldenOutputTests {
    static let golden = Golden(beside: #filePath)
    static let traces = CLI.root.appendingPathComponent("traces").path
    /// A device of the sample with a background kill explained by a finding.
    static let device = "17850F8A-2A15-198B-88F7-CA11D053A7FE"

    /// A database made from `traces/` once for the suite, and its directory.
    static let sample: (database: String, directory: URL) = {
        let directory = (try? CLI.temporaryDirectory()) ?? FileManager.default.temporaryDirectory
        let database = directory.appendingPathComponent("lifeline.db").path
        _ = try? CLI.run(["check", "--quiet", "--db", database, traces])
        return (database, directory)
    }()

    @Test(arguments: [[], ["ingest"], ["check"], ["timeline"], ["export"], ["query"], ["report"], ["rules"], ["generate"], ["key-by-device"], ["import-findings"]])
    func help(_ command: [String]) throws {
        let result = try CLI.run(command + ["--help"])
        #expect(result.status == 0)
        try Self.golden.check(result.stdout, "help-\(command.first ?? "lifeline").txt")
    }

    @Test(arguments: ["text", "json"])
    func ingestSummary(_ format: String) throws {
        let directory = try CLI.temporaryDirectory()
        let database = directory.appendingPathComponent("lifeline.db").path
        // Run from the repository's root on `traces`, as the quick start does.
        let result = try CLI.run(["ingest", "--db", database, "traces"] + (format == "json" ? ["--json"] : []), in: CLI.root)
        #expect(result.status == 1, "traces/bad holds bad input on purpose")
        try Self.golden.check(Self.stable(result.stdout, directory), "ingest.\(format == "json" ? "json" : "txt")")
    }

    @Test(arguments: ["text", "json", "jsonl"])
    func checkReport(_ format: String) throws {
        let result = try CLI.run(["check", "--db", Self.sample.database, "--format", format])
        #expect(result.status == 0)
        try Self.golden.check(Self.stable(result.stdout, Self.sample.directory), "check.\(format == "text" ? "txt" : format)")
    }

    @Test func checkStandardInput() throws {
        let lines = try String(contentsOfFile: Self.traces + "/dev-0006-2026-11-21.jsonl", encoding: .utf8)
        let result = try CLI.run(["check", "--stdin"], stdin: lines)
        #expect(result.status == 0)
        try Self.golden.check(result.stdout + "--- standard error\n" + result.stderr, "check-stdin.txt")
    }

    @Test(arguments: ["text", "jsonl"])
    func timeline(_ format: String) throws {
        let result = try CLI.run([
            "timeline", Self.device, "--db", Self.sample.database, "--format", format,
            "--since", "2026-11-21T14:00:00Z", "--until", "2026-11-21T15:00:00Z",
        ])
        #expect(result.status == 0)
        try Self.golden.check(Self.stable(result.stdout, Self.sample.directory), "timeline.\(format == "text" ? "txt" : format)")
    }

    @Test(arguments: ["chrome-trace", "jsonl"])
    func export(_ format: String) throws {
        let launch = "1bb36896-d146-cc9d-9426-ad5decf5ae4a"
        let result = try CLI.run(["export", Self.device, "--launch", launch, "--db", Self.sample.database, "--format", format])
        #expect(result.status == 0, "\(result.stderr)")
        try Self.golden.check(result.stdout, "export.\(format == "jsonl" ? "jsonl" : "json")")
    }

    /// A database of `traces/` with exactly one check run, so that the report's run numbers and
    /// "the run before" do not depend on which other tests ran `check` first.
    static let checkedOnce: (database: String, directory: URL) = {
        let directory = (try? CLI.temporaryDirectory()) ?? FileManager.default.temporaryDirectory
        let database = directory.appendingPathComponent("lifeline.db").path
        _ = try? CLI.run(["check", "--quiet", "--db", database, traces])
        return (database, directory)
    }()

    @Test(arguments: ["html", "markdown", "junit", "json"])
    func report(_ format: String) throws {
        let result = try CLI.run(["report", "--db", Self.checkedOnce.database, "--format", format])
        #expect(result.status == 0, "\(result.stderr)")
        try Self.golden.check(Self.stable(result.stdout, Self.checkedOnce.directory), "report.\(["markdown": "md", "junit": "xml"][format] ?? format)")
    }

    @Test(arguments: [
        ["rules"], ["rules", "--format", "json"], ["rules", "bgtask-refresh-overrun"],
        ["rules", "bgtask-refresh-overrun", "--format", "json"], ["rules", "--budgets"], ["rules", "--budgets", "--format", "json"],
    ])
    func rules(_ command: [String]) throws {
        let result = try CLI.run(command)
        #expect(result.status == 0)
        try Self.golden.check(result.stdout, command.map { $0.replacingOccurrences(of: "--", with: "") }.joined(separator: "-") + ".txt")
    }

    /// Replaces what differs between runs: durations, rates, the temporary directory.
    static func stable(_ text: String, _ directory: URL) -> String {
        var text = text.replacingOccurrences(of: directory.path, with: "TMP")
        let patterns = [
            (#"in \d+\.\d+ s"#, "in S s"),
            (#"\(\d+k? lines/s, \d+\.\d+ MB/s\)"#, "(R lines/s, R MB/s)"),
            (#""(wallSeconds|eventsPerSecond|seconds)"( ?: ?)[0-9.e+-]+"#, "\"$1\"$20"),
            // When the check ran and with which version.
            (#"latest check \d{4}-[0-9T:.-]+Z, Lifeline [^)]+\)"#, "latest check T, Lifeline V)"),
            (#""(finishedAt|version)" : "[^"]*""#, "\"$1\" : \"X\""),
        ]
        for (pattern, replacement) in patterns {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return text
    }
}
