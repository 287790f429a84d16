import Foundation
import Testing

/// The replay spread by device (`key-by-device`, `check --stdin --keyed`) and the Spark job
/// (`spark/lifeline_spark.py`) find what `lifeline check` finds on one machine, on uploads as
/// the field sends them: a device's day split over two uploads, a re-upload that repeats lines,
/// a file holding two devices, a zstd file cut short and a file of bad lines.
@Suite struct SparkJobTests {
    /// The corpus, and what `ingest` and `check` make of it on one machine: built once.
    static let fleet = Result { try Fleet() }

    @Test func keyedReplayFindsWhatTheStoreFinds() throws {
        let fleet = try Self.fleet.get()
        let keyed = try CLI.run(["key-by-device", fleet.corpus])
        #expect(keyed.status == 1, "the corpus has bad lines and a cut file: \(keyed.stderr)")
        // A shuffle by device: records of each device together, devices and records in any order.
        let records = keyed.stdout.split(separator: "\n").map(String.init)
        let grouped = Dictionary(grouping: records.reversed()) { $0.split(separator: "\t", maxSplits: 2).dropFirst().first ?? "" }
            .sorted { $0.key > $1.key }.flatMap(\.value)
        let summary = fleet.directory.appendingPathComponent("keyed-summary.json").path
        let input = fleet.directory.appendingPathComponent("grouped-records")
        try (grouped.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let launches = fleet.directory.appendingPathComponent("keyed-launches.jsonl")
        let replay = try Spark.process(
            CLI.executable.path, ["check", "--stdin", "--keyed", "--quiet", "--summary-json", summary, "--launches", launches.path],
            stdin: input)
        #expect(replay.status == 1, "bad input is exit 1, as for check --stdin: \(replay.stderr)")
        #expect(Fleet.findingKeys(replay.stdout) == fleet.findings)
        #expect(try Fleet.launchRows(String(decoding: Data(contentsOf: launches), as: UTF8.self)) == fleet.launches,
                "each launch's row, as check over the store derives it")
        #expect(Fleet.comparable(replay.stdout) == fleet.findingsWithoutRowIDs, "the same findings, word for word")
        let totals = try CLI.json(String(decoding: try Data(contentsOf: URL(fileURLWithPath: summary)), as: UTF8.self))
        #expect(totals["events"] as? Int == fleet.ingest["events"])
        #expect(totals["duplicates"] as? Int == fleet.ingest["duplicates"])
        #expect((fleet.ingest["duplicates"] ?? 0) > 0, "the re-upload repeats events")
        #expect(totals["rejects"] as? Int == fleet.ingest["rejects"])
        #expect(totals["lostLines"] as? Int == fleet.ingest["lostLines"])
        #expect(totals["findings"] as? Int == fleet.findings.count)
    }

    /// `check --stdin --summary-json`: the stream's totals for a program, as the closing line counts them.
    @Test func streamTotalsAsJSON() throws {
        let directory = try CLI.temporaryDirectory()
        let stream = try CLI.damagedStream(in: directory)
        let summary = directory.appendingPathComponent("summary.json")
        let run = try Spark.process(CLI.executable.path, ["check", "--stdin", "--summary-json", summary.path], stdin: stream)
        #expect(run.status == 1, "rejected and lost lines: exit 1")
        let totals = try CLI.json(String(decoding: try Data(contentsOf: summary), as: UTF8.self))
        #expect(totals["rejects"] as? Int == 7)
        #expect(totals["rejectsByReason"] as? [String: Int] == [
            "bad-field": 1, "bad-ts": 1, "invalid-json": 1, "invalid-utf8": 1, "missing-field": 1, "not-an-object": 2,
        ])
        #expect(totals["lostLinesExact"] as? Bool == false, "a cut frame's lines are a lower bound")
        #expect((totals["damage"] as? [Any])?.count == 1)
        #expect(totals["findings"] as? Int == run.stdout.split(separator: "\n").count)
        let lines = totals["lines"] as? Int ?? -1
        let parts = ["decoded", "rejects", "blankLines", "lostLines"].map { totals[$0] as? Int ?? 0 }
        #expect(lines == parts.reduce(0, +), "every line accounted for")
        #expect(totals["events"] as? Int == totals["decoded"] as? Int)
        #expect((totals["budgets"] as? [String: Double])?["refresh-task"] == 30)
        #expect(run.stderr.contains("replayed \(totals["events"] as? Int ?? -1) events"))
    }

    @Test func mistakesAreUsageErrorsAndABadFindingLoadsNothing() throws {
        #expect(try CLI.run(["check", "--keyed"]).status == 64)
        #expect(try CLI.run(["check", "--summary-json", "totals.json"]).status == 64)
        #expect(try CLI.run(["check", "--launches", "launches.jsonl"]).status == 64)
        #expect(try CLI.run(["key-by-device"]).status == 64)
        let directory = try CLI.temporaryDirectory()
        let findings = directory.appendingPathComponent("findings.jsonl")
        let finding = #"{"category":"overrun","device":"D","events":[],"launch":"L","message":"m","rule":"nse-overrun","severity":"error","ts":"2026-11-21T00:00:00.000000Z"}"#
        try (finding + "\nnot a finding\n").write(to: findings, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("imported.db").path
        let refused = try CLI.run(["import-findings", findings.path, "--db", database])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("findings.jsonl:2: not a finding"))
        #expect(try CLI.sqlite(database, "SELECT count(*) FROM findings") == "0", "one transaction: nothing loaded")
        try (finding + "\n").write(to: findings, atomically: true, encoding: .utf8)
        #expect(try CLI.run(["import-findings", findings.path, "--db", database]).status == 0)
        #expect(try CLI.sqlite(database, "SELECT rule || ' ' || device || ' ' || ts FROM findings") == "nse-overrun D 1795219200000000")
    }

    /// The findings of `check --stdin`, piped into `import-findings -`, make a run that `report`
    /// reports (it said "no events match the window and filters given", exit 3, as the import
    /// counted no events), saying that the run's events were not counted.
    @Test func findingsOfAStreamImportFromStandardInputAndReport() throws {
        let stream = try Spark.process(CLI.executable.path, ["check", "--stdin", "--quiet"], stdin: OutputFilesTests.stream)
        #expect(stream.status == 0 && !stream.stdout.isEmpty, "\(stream.stderr)")
        let directory = try CLI.temporaryDirectory()
        let findings = directory.appendingPathComponent("findings.jsonl")
        try stream.stdout.write(to: findings, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("stream.db").path
        let imported = try Spark.process(CLI.executable.path, ["import-findings", "-", "--db", database], stdin: findings)
        let lines = stream.stdout.split(separator: "\n").count
        let count = "\(lines) finding\(lines == 1 ? "" : "s")"
        #expect(imported.status == 0 && imported.stdout.hasPrefix("Imported \(count) from standard input into "), "\(imported.stdout)\(imported.stderr)")
        let report = try CLI.run(["report", "--db", database, "--format", "markdown"])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.contains("\(count) of a run imported without its count of events"), "\(report.stdout.prefix(300))")
        // Launches are picked by their events, which an imported run has not: no answer, said so
        // (a version it never held read "0 findings", exit 0).
        for filter in [["--app-version", "9.9.9"], ["--app", "com.example.news"]] {
            Mistake.expectOneLine(
                try CLI.run(["report", "--db", database] + filter), status: 3,
                containing: "nothing to report: --app and --app-version select launches by their events, and \(database) holds none")
        }
        let bad = try Spark.process(CLI.executable.path, ["import-findings", "-", "--db", database], stdin: OutputFilesTests.stream)
        #expect(bad.status == 2 && bad.stderr.hasPrefix("error: stdin:1: not a finding"), "\(bad.stderr)")
    }

    /// Findings imported into a store that holds events empty its derived tables (they are of
    /// another replay): the import says so, and a canned query that reads them says why its
    /// answer is empty (it answered nothing, without a word).
    @Test func importingIntoAStoreWithEventsSaysTheDerivedTablesWereEmptied() throws {
        let directory = try CLI.temporaryDirectory()
        let database = directory.appendingPathComponent("r.db").path
        #expect(try CLI.run(["check", "--quiet", "--db", database, CLI.root.appendingPathComponent("traces").path]).status == 0)
        let findings = directory.appendingPathComponent("f.jsonl")
        let stream = try Spark.process(CLI.executable.path, ["check", "--stdin", "--quiet"], stdin: OutputFilesTests.stream)
        try stream.stdout.write(to: findings, atomically: true, encoding: .utf8)
        let imported = try CLI.run(["import-findings", findings.path, "--db", database])
        #expect(imported.status == 0 && imported.stderr.contains("note: the derived tables (launches, intervals, tasks, requests) of \(database) were emptied"),
                "\(imported.stderr)")
        let query = try CLI.run(["query", "missed-completions", "--db", database], in: CLI.root)
        #expect(query.status == 0 && query.stderr.contains("the derived tables of \(database) are empty: its latest run was imported"), "\(query.stderr)")
    }

    /// A list of paths with Windows line endings, blank lines among them, gives the same records
    /// as the paths named on the command line (it was read as one path holding every line).
    @Test func aListOfPathsWithCRLFEndingsIsReadLineByLine() throws {
        let directory = try CLI.temporaryDirectory()
        let names = ["a.jsonl", "b.jsonl"]
        for (name, source) in zip(names, ["traces/dev-0006-2026-11-21.jsonl", "traces/dev-0005-2026-11-21.jsonl.gz"]) {
            try FileManager.default.copyItem(at: CLI.root.appendingPathComponent(source), to: directory.appendingPathComponent(name))
        }
        try "a.jsonl\r\n\r\nb.jsonl\r\n".write(to: directory.appendingPathComponent("list.txt"), atomically: true, encoding: .utf8)
        let listed = try CLI.run(["key-by-device", "--paths-from", "list.txt"], in: directory)
        let named = try CLI.run(["key-by-device"] + names, in: directory)
        #expect(listed.status == 0 && named.status == 0, "\(listed.stderr)")
        #expect(!listed.stdout.isEmpty && listed.stdout == named.stdout)
    }

    /// A path that holds no run (an empty directory, an empty file) is refused with exit 3 and
    /// leaves the findings; no finding is loaded as a run only beside a `summary.json` of events.
    @Test func importingNothingKeepsTheFindings() throws {
        let directory = try CLI.temporaryDirectory()
        let database = directory.appendingPathComponent("kept.db").path
        let finding = #"{"category":"overrun","device":"D","events":[],"launch":"L","message":"m","rule":"nse-overrun","severity":"error","ts":"2026-11-21T00:00:00.000000Z"}"#
        let one = directory.appendingPathComponent("one.jsonl")
        try (finding + "\n").write(to: one, atomically: true, encoding: .utf8)
        #expect(try CLI.run(["import-findings", one.path, "--db", database]).status == 0)

        let empty = directory.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let blank = directory.appendingPathComponent("blank.jsonl")
        try "\n".write(to: blank, atomically: true, encoding: .utf8)
        for path in [empty.path, blank.path] {
            let refused = try CLI.run(["import-findings", path, "--db", database])
            #expect(refused.status == 3, "\(path)")
            #expect(refused.stderr.hasPrefix("nothing to import from \(path): "), "\(refused.stderr)")
            #expect(refused.stderr.hasSuffix("the findings in \(database) are kept\n"), "\(refused.stderr)")
            #expect(try CLI.sqlite(database, "SELECT count(*) FROM findings") == "1", "\(path)")
        }
        let elsewhere = directory.appendingPathComponent("never.db").path
        #expect(try CLI.run(["import-findings", empty.path, "--db", elsewhere]).status == 3)
        #expect(!FileManager.default.fileExists(atPath: elsewhere), "a wrong path creates no database")

        // A job's run that replayed events and found nothing replaces them with none.
        let clean = directory.appendingPathComponent("clean")
        try FileManager.default.createDirectory(at: clean, withIntermediateDirectories: true)
        try "".write(to: clean.appendingPathComponent("findings.jsonl"), atomically: true, encoding: .utf8)
        try #"{"devices":2,"events":40}"#.write(to: clean.appendingPathComponent("summary.json"), atomically: true, encoding: .utf8)
        #expect(try CLI.run(["import-findings", clean.path, "--db", database]).status == 0)
        #expect(try CLI.sqlite(database, "SELECT count(*) FROM findings") == "0")
    }

    /// A line that is not a finding is named by the field that is wrong, not the decoder's dump.
    @Test func aLineThatIsNotAFindingNamesTheField() throws {
        let directory = try CLI.temporaryDirectory()
        let database = directory.appendingPathComponent("named.db").path
        let base = #"{"category":"overrun","device":"D","events":[],"launch":"L","message":"m","rule":"r","severity":"error","ts":"2026-11-21T00:00:00Z"}"#
        let cases = [
            (base.replacingOccurrences(of: #""rule":"r""#, with: #""rule":1"#), "`rule` should be text"),
            (base.replacingOccurrences(of: #""category":"overrun","#, with: ""), "`category` is missing"),
            (base.replacingOccurrences(of: #""device":"D""#, with: #""device":null"#), "`device` is null"),
            (base.replacingOccurrences(of: #""events":[]"#, with: #""events":[{"seq":"x"}]"#), "`events[0].seq` should be a number"),
            ("[1]", "not a JSON object"),
            (base.replacingOccurrences(of: #""rule":"r""#, with: #""rule":"bgtask-overran""#),
             "unknown rule bgtask-overran: not one of this Lifeline's rules (`lifeline rules` lists them); were the findings written by another version?"),
            (base.replacingOccurrences(of: #""rule":"r""#, with: #""rule":"bgtask-refresh-overrun""#)
                .replacingOccurrences(of: #""category":"overrun""#, with: #""category":"data""#),
             "rule bgtask-refresh-overrun is in category overrun, not data"),
            (base.replacingOccurrences(of: #""rule":"r""#, with: #""rule":"nse-overrun","explainedBy":{"rule":"no-such-rule","ts":"2026-11-21T00:00:00Z"}"#),
             "unknown rule no-such-rule in explainedBy: not one of this Lifeline's rules"),
            (base.replacingOccurrences(of: #""rule":"r""#, with: #""rule":"nse-overrun","measured":1e999"#),
             "not valid JSON (or a number in it beyond the range of a double)"),
        ]
        for (number, (line, reason)) in cases.enumerated() {
            let file = directory.appendingPathComponent("l\(number).jsonl")
            try (line + "\n").write(to: file, atomically: true, encoding: .utf8)
            let result = try CLI.run(["import-findings", file.path, "--db", database])
            #expect(result.status == 2)
            let prefix = reason.hasPrefix("unknown rule") || reason.hasPrefix("rule ") ? "" : "not a finding: "
            #expect(result.stderr == "error: \(file.path):1: \(prefix)\(reason)\n")
        }
    }

    /// A file `key-by-device` could not read at all reached `check --stdin --keyed` only as its
    /// report: the run exited 0, where a file cut short exits 1.
    @Test func aFileThatCouldNotBeReadMakesTheKeyedRunBad() throws {
        let directory = try CLI.temporaryDirectory()
        let clean = CLI.root.appendingPathComponent("traces/dev-0006-2026-11-21.jsonl").path
        let keyed = try CLI.run(["key-by-device", clean, directory.appendingPathComponent("missing.jsonl").path])
        #expect(keyed.status == 2, "\(keyed.stderr)")
        let records = directory.appendingPathComponent("records")
        try keyed.stdout.write(to: records, atomically: true, encoding: .utf8)
        let sorted = try CLI.bash(#"LC_ALL=C sort -t"$(printf '\t')" -k2,2 -s records | "$LIFELINE" check --stdin --keyed --quiet"#, in: directory)
        #expect(sorted.status == 1, "\(sorted.stderr)")
        #expect(sorted.stderr.contains("0 lost lines, 1 file not read (each reported above)"), "\(sorted.stderr)")
    }

    @Test func keyedReplayRefusesADeviceWhoseRecordsAreApart() throws {
        let fleet = try Self.fleet.get()
        let keyed = try CLI.run(["key-by-device", fleet.corpus])
        let input = fleet.directory.appendingPathComponent("records-in-file-order")
        try keyed.stdout.write(to: input, atomically: true, encoding: .utf8)
        // Records in file order: the device split over two uploads comes twice.
        let replay = try Spark.process(CLI.executable.path, ["check", "--stdin", "--keyed", "--quiet"], stdin: input)
        #expect(replay.status == 2)
        #expect(replay.stderr.contains("are not together: sort the records by device first"))
    }

    @Test(.enabled(if: Spark.available, "PySpark or Java 17 is missing (pip install pyspark; apt-get install openjdk-17-jre-headless)"))
    func sparkJobFindsWhatOneMachineFinds() throws {
        let fleet = try Self.fleet.get()
        let output = fleet.directory.appendingPathComponent("spark-out")
        let marker = fleet.directory.appendingPathComponent("failed-once").path
        // local[2,2]: two cores, and a failed task tried twice (local mode otherwise never retries).
        let job = try Spark.run(
            ["--input", fleet.corpus, "--output", output.path, "--master", "local[2,2]", "--lifeline", CLI.executable.path,
             "--partitions", "3"],
            environment: ["LIFELINE_SPARK_FAIL_ONCE": marker])
        #expect(job.status == 0, "\(job.stderr.suffix(3000))")
        #expect(FileManager.default.fileExists(atPath: marker), "one replay task failed on purpose")
        #expect(job.stderr.contains("LIFELINE_SPARK_FAIL_ONCE: this task fails once on purpose"), "Spark saw the task fail and retried it")
        #expect(job.stdout.contains("findings  \(fleet.findings.count)"))

        // The findings: the same, each once, though a task failed after writing one.
        let jsonl = try Spark.concatenated(output.appendingPathComponent("findings.jsonl"))
        #expect(Fleet.findingKeys(jsonl) == fleet.findings)
        #expect(Fleet.comparable(jsonl) == fleet.findingsWithoutRowIDs)

        // Parquet partitioned by day: one directory per day that has findings.
        let days = try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("findings").path)
            .filter { $0.hasPrefix("day=") }.sorted()
        #expect(days == Set(fleet.findings.map { "day=" + $0.ts.prefix(10) }).sorted())

        // The launches: each once, as the store's launches table has them, in Parquet by the day they began.
        let launches = try Fleet.launchRows(Spark.concatenated(output.appendingPathComponent("launches.jsonl")))
        #expect(launches == fleet.launches)
        let launchDays = try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("launches").path)
            .filter { $0.hasPrefix("day=") }.sorted()
        #expect(launchDays == Set(fleet.launches.map { "day=" + $0.split(separator: "|")[2].prefix(10) }).sorted())

        // The totals, as ingest and check count them.
        let summary = try CLI.json(String(decoding: try Data(contentsOf: output.appendingPathComponent("summary.json")), as: UTF8.self))
        for key in ["events", "duplicates", "rejects", "lostLines"] {
            #expect(summary[key] as? Int == fleet.ingest[key], "\(key)")
        }
        #expect(summary["rejectsByReason"] as? [String: Int] == fleet.rejectsByReason)
        let files = summary["files"] as? [String: Int] ?? [:]
        #expect(files["truncated"] == fleet.ingest["filesTruncated"])
        #expect(files["truncated"] == 1)
        #expect(files["read"] == fleet.ingest["filesIngested"])
        #expect(summary["findings"] as? Int == fleet.findings.count)
        #expect(summary["launches"] as? Int == fleet.launches.count)
        #expect(summary["findingsByRule"] as? [String: Int] == Dictionary(fleet.findings.map { ($0.rule, 1) }, uniquingKeysWith: +))
        let partitions = summary["partitions"] as? [[String: Any]] ?? []
        #expect(partitions.reduce(0) { $0 + ($1["events"] as? Int ?? 0) } == summary["events"] as? Int)

        // Loaded into a store, query and report answer on them.
        let database = fleet.directory.appendingPathComponent("imported.db").path
        let imported = try CLI.run(["import-findings", output.path, "--db", database])
        #expect(imported.status == 0, "\(imported.stderr)")
        let count = try CLI.run(["query", "SELECT count(*) AS n FROM findings", "--db", database, "--format", "csv"])
        #expect(count.stdout == "n\n\(fleet.findings.count)\n")
        let explained = try CLI.run(["query", "SELECT count(*) AS n FROM findings WHERE explained_by IS NOT NULL", "--db", database, "--format", "csv"])
        #expect(explained.stdout == "n\n\(fleet.findings.filter { $0.rule == "termination-explained" }.count)\n")
        let report = try CLI.run(["report", "--db", database, "--format", "json"])
        #expect(report.status == 0, "\(report.stderr)")
        let fleetReport = try CLI.json(report.stdout)
        #expect(fleetReport["findings"] as? Int == fleet.findings.count)
        #expect(fleetReport["events"] as? Int == fleet.ingest["events"])
    }
}

/// A finding as the comparison sees it.
struct FindingKey: Hashable, Comparable {
    var rule, device, launch, ts: String

    static func < (a: FindingKey, b: FindingKey) -> Bool {
        (a.rule, a.device, a.launch, a.ts) < (b.rule, b.device, b.launch, b.ts)
    }
}

/// A generated fleet mangled as uploads arrive, and the single-machine answer on it.
struct Fleet: Sendable {
    let directory: URL
    var corpus: String { directory.appendingPathComponent("uploads").path }
    /// `lifeline ingest --json` of the corpus: its numbers, and its rejects by reason.
    var ingest: [String: Int] = [:]
    var rejectsByReason: [String: Int] = [:]
    /// `lifeline check`'s findings, sorted (a list, so that a duplicate would show).
    var findings: [FindingKey] = []
    var findingsWithoutRowIDs: [String] = []
    /// The rows of its `launches` table, as ``launchRows(_:)`` writes them, sorted.
    var launches: [String] = []

    init() throws {
        directory = try CLI.temporaryDirectory()
        let generated = directory.appendingPathComponent("generated")
        let generate = try CLI.run([
            "generate", "--output", generated.path, "--devices", "12", "--days", "2", "--breach-rate", "0.3",
            "--trace-format", "v1.1", "--seed", "11",
        ])
        guard generate.status == 0 else { throw FleetError.failed("generate: \(generate.stderr)") }
        try Self.mangle(generated, into: URL(fileURLWithPath: corpus))
        let database = directory.appendingPathComponent("one-machine.db").path
        let ingested = try CLI.run(["ingest", "--quiet", "--json", "--db", database, corpus])
        guard ingested.status == 1 else { throw FleetError.failed("ingest exit \(ingested.status): \(ingested.stderr)") }
        let summary = try CLI.json(ingested.stdout)
        ingest = summary.compactMapValues { $0 as? Int }
        rejectsByReason = summary["rejectsByReason"] as? [String: Int] ?? [:]
        let checked = try CLI.run(["check", "--quiet", "--db", database, "--format", "jsonl"])
        guard checked.status == 0 else { throw FleetError.failed("check: \(checked.stderr)") }
        findings = Self.findingKeys(checked.stdout)
        findingsWithoutRowIDs = Self.comparable(checked.stdout)
        // Times as the JSON lines write them (RFC 3339, microseconds), and `log_cut_short` as a boolean.
        func time(_ column: String) -> String {
            "strftime('%Y-%m-%dT%H:%M:%S', \(column) / 1000000, 'unixepoch') || '.' || printf('%06d', \(column) % 1000000) || 'Z' AS \(column)"
        }
        let table = try CLI.run([
            "query", "--db", database, "--format", "jsonl",
            "SELECT device, launch, app, app_version, os, model, process, \(time("first_ts")), \(time("last_ts")), started, cause, "
                + "ended, end_reason, end_state, foreground_seconds, background_seconds, suspended_seconds, background_periods, "
                + "log_cut_short = 1 AS log_cut_short FROM launches",
        ])
        guard table.status == 0 else { throw FleetError.failed("query launches: \(table.stderr)") }
        launches = try Self.launchRows(table.stdout)
        guard launches.count > 20 else { throw FleetError.failed("only \(launches.count) launches") }
    }

    /// Each launch of JSON lines (of `check --stdin --launches`, or the `launches` table as a
    /// query writes it) as one text: device, launch and first time first, seconds to the
    /// millisecond; sorted.
    static func launchRows(_ jsonl: String) throws -> [String] {
        let columns = [
            "device", "launch", "first_ts", "last_ts", "app", "app_version", "os", "model", "process", "started", "cause",
            "ended", "end_reason", "end_state", "foreground_seconds", "background_seconds", "suspended_seconds",
            "background_periods", "log_cut_short",
        ]
        return try jsonl.split(separator: "\n").map { line in
            let row = try CLI.json(String(line))
            return columns.map { column -> String in
                switch row[column] {
                case let flag as Bool where column == "log_cut_short": "\(flag)"
                case let number as NSNumber where column == "log_cut_short": "\(number.intValue != 0)"
                case let seconds as Double: String(format: "%.3f", seconds)
                case let text as String: text
                default: "null"
                }
            }.joined(separator: "|")
        }.sorted()
    }

    enum FleetError: Error { case failed(String) }

    /// Uploads as the field sends them, from one file per device and day.
    static func mangle(_ generated: URL, into uploads: URL) throws {
        let manager = FileManager.default
        let first = uploads.appendingPathComponent("upload-1"), second = uploads.appendingPathComponent("upload-2")
        try manager.createDirectory(at: first, withIntermediateDirectories: true)
        try manager.createDirectory(at: second, withIntermediateDirectories: true)
        let files = try manager.contentsOfDirectory(atPath: generated.path).filter { $0.hasSuffix(".jsonl.zst") }.sorted()
        let cut = files.first { $0.hasPrefix("dev-0004-") }
        for name in files {
            let source = generated.appendingPathComponent(name)
            let stem = String(name.dropLast(".jsonl.zst".count))
            if name.hasPrefix("dev-0000-") {
                // One device's days split over two uploads, line by line; one part gzip.
                let lines = try zstdLines(source)
                let kept = lines.enumerated().filter { $0.offset % 3 != 0 }.map(\.element)
                let moved = lines.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
                try (kept.joined(separator: "\n") + "\n").write(to: first.appendingPathComponent(stem + "-a.jsonl"), atomically: true, encoding: .utf8)
                let plain = second.appendingPathComponent(stem + "-b.jsonl")
                try (moved.joined(separator: "\n") + "\n").write(to: plain, atomically: true, encoding: .utf8)
                try tool("/usr/bin/env", ["gzip", plain.path])
            } else if name.hasPrefix("dev-0001-") {
                // A re-upload repeating the last 25 lines (duplicates).
                try manager.copyItem(at: source, to: first.appendingPathComponent(name))
                let lines = try zstdLines(source)
                try (lines.suffix(25).joined(separator: "\n") + "\n")
                    .write(to: second.appendingPathComponent(stem + "-again.jsonl"), atomically: true, encoding: .utf8)
            } else if name.hasPrefix("dev-0002-") || name.hasPrefix("dev-0003-") {
                // Two devices in one file (zstd frames one after another).
                let together = second.appendingPathComponent("devices-2-and-3.jsonl.zst")
                if !manager.fileExists(atPath: together.path) { _ = manager.createFile(atPath: together.path, contents: nil) }
                let handle = try FileHandle(forWritingTo: together)
                try handle.seekToEnd()
                try handle.write(contentsOf: try Data(contentsOf: source))
                try handle.close()
            } else if name == cut {
                // Cut short mid-frame, as an app killed while writing leaves it.
                let bytes = try Data(contentsOf: source)
                try bytes.prefix(bytes.count * 2 / 3).write(to: first.appendingPathComponent(name))
            } else {
                try manager.copyItem(at: source, to: first.appendingPathComponent(name))
            }
        }
        let bad = """
            {"ts":"2026-11-21T00:00:00Z","device":"x"}
            not json

            {"ts":"yesterday","device":"d","launch":"l","event":"launch"}

            """
        try bad.write(to: second.appendingPathComponent("bad-lines.jsonl"), atomically: true, encoding: .utf8)
    }

    static func zstdLines(_ file: URL) throws -> [String] {
        let text = try tool("/usr/bin/env", ["zstd", "-dc", file.path])
        return text.split(separator: "\n").map(String.init)
    }

    @discardableResult
    static func tool(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw FleetError.failed("\(arguments.joined(separator: " ")) failed") }
        return String(decoding: data, as: UTF8.self)
    }

    /// The findings of JSON lines as (rule, device, launch, ts), sorted.
    static func findingKeys(_ jsonl: String) -> [FindingKey] {
        jsonl.split(separator: "\n").compactMap { line in
            guard let object = try? CLI.json(String(line)) else { return nil }
            return FindingKey(
                rule: object["rule"] as? String ?? "", device: object["device"] as? String ?? "",
                launch: object["launch"] as? String ?? "", ts: object["ts"] as? String ?? "")
        }.sorted()
    }

    /// Each finding whole, without the store's row ids (a stream has none), sorted.
    static func comparable(_ jsonl: String) -> [String] {
        jsonl.split(separator: "\n").map { line in
            String(line).replacingOccurrences(of: #""id":[0-9]+,"#, with: "", options: .regularExpression)
        }.sorted()
    }
}

/// PySpark and Java, where the machine has them.
enum Spark {
    static let available: Bool = {
        let python = try? Fleet.tool("/usr/bin/env", ["python3", "-c", "import pyspark; print(pyspark.__version__)"])
        let java = (try? Fleet.tool("/usr/bin/env", ["sh", "-c", "java -version 2>&1"])) ?? ""
        return python != nil && java.contains("version \"17")
    }()

    /// Runs the job with `python3`, returning its exit status and output.
    static func run(_ arguments: [String], environment: [String: String]) throws -> CLI.Result {
        try process(
            "/usr/bin/env", ["python3", CLI.root.appendingPathComponent("spark/lifeline_spark.py").path] + arguments,
            environment: environment)
    }

    /// Runs a program with standard input from a file (a pipe written whole before the output is
    /// read would block on large input) and standard error to a file.
    static func process(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], stdin: URL? = nil
    ) throws -> CLI.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-spark-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardInput = try stdin.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLI.Result(
            status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errors), as: UTF8.self))
    }

    /// The part files of a directory Spark wrote, in name order, as one text.
    static func concatenated(_ directory: URL) throws -> String {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("part-") }.sorted()
            .map { String(decoding: try Data(contentsOf: directory.appendingPathComponent($0)), as: UTF8.self) }
            .joined()
    }
}
