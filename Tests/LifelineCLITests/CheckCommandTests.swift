import Foundation
import Testing

@Suite(.serialized) struct CheckCommandTests {
    static let traces = CLI.root.appendingPathComponent("traces").path

    /// A line of the check report that a person reads.
    @Test func checkIngestsReplaysAndPrintsFindingsGroupedByRule() throws {
        let database = try CLI.temporaryDirectory().appendingPathComponent("c.db").path
        let result = try CLI.run(["check", "--quiet", "--db", database, Self.traces])
        #expect(result.status == 0, "no --fail-on: findings do not fail the run")
        #expect(result.stdout.contains("Replayed "))
        #expect(result.stdout.contains("category"))
        #expect(result.stdout.contains("nse-overrun"))
        #expect(result.stdout.contains("lifeline rules RULE-ID"))
        let stored = try CLI.sqlite(database, "SELECT count(*) FROM findings")
        #expect(Int(stored)! > 0)
        #expect(try CLI.sqlite(database, "SELECT count(*) FROM runs") == "1")

        // A second run replaces the findings rather than piling them up.
        _ = try CLI.run(["check", "--quiet", "--db", database])
        #expect(try CLI.sqlite(database, "SELECT count(*) FROM findings") == stored)
        #expect(try CLI.sqlite(database, "SELECT count(*) FROM runs") == "2")
        #expect(try CLI.sqlite(database, "SELECT count(DISTINCT run_id) FROM findings") == "1")
    }

    /// A `seq` counter started from a clock (epoch milliseconds) is beyond what a row id holds:
    /// its launch's events are stored in the order they came, and used to be replayed so — the
    /// completion logged before its fetch made a false `fetch-completion-missing`. They are sorted
    /// by `seq` before the replay, over the store as on a stream.
    @Test func aLargeSeqStillOrdersItsLaunch() throws {
        let directory = try CLI.temporaryDirectory()
        let base: Int64 = 1_763_712_000_000
        let lines = [
            (0, "00.000", #""event":"launch","reason":"system","cause":"fetch""#),
            (1, "00.010", #""event":"config","background_modes":["fetch"]"#),
            (2, "00.020", #""event":"didFinishLaunching","phase":"begin""#),
            (3, "00.030", #""event":"didFinishLaunching","phase":"end""#),
            (4, "00.040", #""event":"didEnterBackground","phase":"begin""#),
            (5, "00.050", #""event":"didEnterBackground","phase":"end""#),
            (7, "01.000", #""event":"fetch.complete","call":"c1","result":"newData""#),
            (6, "01.000", #""event":"fetch.perform","call":"c1""#),
            (8, "02.000", #""event":"snapshot""#),
            (9, "03.000", #""event":"suspend""#),
        ].map { seq, time, rest in
            #"{"ts":"2026-11-21T10:00:\#(time)Z","device":"OB","launch":"L","seq":\#(base + Int64(seq)),\#(rest)}"#
        }
        let file = directory.appendingPathComponent("big-seq.jsonl").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("s.db").path
        let stored = try CLI.run(["check", "--quiet", "--format", "jsonl", "--db", database, file])
        #expect(stored.status == 0 && stored.stdout.isEmpty, "\(stored.stdout)")
        let streamed = try CLI.run(["check", "--stdin", "--quiet", "--format", "jsonl"], stdin: lines.joined(separator: "\n"))
        #expect(streamed.status == 0 && streamed.stdout.isEmpty, "\(streamed.stdout)")
        let timeline = try CLI.run(["timeline", "--db", database, "OB"]).stdout
        let perform = try #require(timeline.range(of: "fetch.perform")), complete = try #require(timeline.range(of: "fetch.complete"))
        #expect(perform.lowerBound < complete.lowerBound)
    }

    @Test func failOnMakesFindingsFailTheRun() throws {
        let database = try CLI.temporaryDirectory().appendingPathComponent("c.db").path
        _ = try CLI.run(["ingest", "--quiet", "--db", database, Self.traces])
        #expect(try CLI.run(["check", "--db", database, "--fail-on", "error"]).status == 1)
        // Filtered to a rule with no findings, nothing reaches the threshold.
        let filtered = try CLI.run(["check", "--db", database, "--fail-on", "info", "--rule", "legacy-fetch-disabled"])
        #expect(filtered.status == 0)
        #expect(filtered.stdout.contains("No findings"))
    }

    @Test func jsonAndJSONLinesListEveryFindingWithItsFields() throws {
        let database = try CLI.temporaryDirectory().appendingPathComponent("c.db").path
        _ = try CLI.run(["ingest", "--quiet", "--db", database, Self.traces])
        let json = try CLI.run(["check", "--db", database, "--format", "json"])
        let document = try CLI.json(json.stdout)
        let findings = try #require(document["findings"] as? [[String: Any]])
        #expect(!findings.isEmpty)
        for key in ["rule", "category", "severity", "device", "launch", "ts", "events", "message"] {
            #expect(findings[0][key] != nil, "finding lacks \(key)")
        }
        let events = try #require(findings[0]["events"] as? [[String: Any]])
        #expect(events.first?["id"] is Int)

        let lines = try CLI.run(["check", "--db", database, "--format", "jsonl"])
        let parsed = lines.stdout.split(separator: "\n").map { try? CLI.json(String($0)) }
        #expect(parsed.count == findings.count)
        #expect(parsed.allSatisfy { $0?["rule"] != nil })
    }

    @Test func deviceAndRuleFiltersNarrowTheReport() throws {
        let database = try CLI.temporaryDirectory().appendingPathComponent("c.db").path
        _ = try CLI.run(["check", "--quiet", "--db", database, Self.traces])
        let device = try CLI.sqlite(database, "SELECT device FROM findings WHERE rule = 'nse-overrun' LIMIT 1")
        let result = try CLI.run(["check", "--db", database, "--format", "jsonl", "--device", device, "--rule", "nse-overrun"])
        #expect(result.status == 0)
        let findings = try result.stdout.split(separator: "\n").map { try CLI.json(String($0)) }
        #expect(!findings.isEmpty)
        #expect(findings.allSatisfy { $0["device"] as? String == device && $0["rule"] as? String == "nse-overrun" })
    }

    /// The window filters what is reported: one that holds events and no finding says so; one
    /// that holds no event at all is nothing to check (exit 3), not a clean run.
    @Test func aWindowWithNoEventIsNothingToCheck() throws {
        let database = try CLI.temporaryDirectory().appendingPathComponent("c.db").path
        _ = try CLI.run(["check", "--quiet", "--db", database, Self.traces])
        let empty = try CLI.run(["check", "--db", database, "--since", "2030-01-01"])
        #expect(empty.status == 3)
        #expect(empty.stdout.isEmpty)
        #expect(empty.stderr == "nothing to check: no events in \(database) fall since 2030-01-01T00:00:00.000000Z, so no "
            + "finding could be reported; check the dates (UTC: 2026-11-21 or 2026-11-21T08:00:00Z)\n")
        let device = try CLI.sqlite(database, "SELECT device FROM findings LIMIT 1")
        #expect(try CLI.run(["check", "--db", database, "--device", device, "--until", "2001-01-01"]).status == 3)
        // The farthest times a window takes, bound into the store's query as they are.
        for window in [["--since", "9223372036854"], ["--until=-9223372036854"]] {
            let far = try CLI.run(["check", "--db", database] + window)
            #expect(far.status == 3, "\(window): \(far.stderr)")
            #expect(far.stderr.hasPrefix("nothing to check: no events in \(database) fall "), "\(far.stderr)")
        }
        // A mistyped device beside a known one is named; the known one is replayed.
        let typo = try CLI.run(["check", "--quiet", "--db", database, "--device", device, "--device", "no-such-device"])
        #expect(typo.status == 0)
        #expect(typo.stderr.contains("note: no events for device no-such-device in \(database); the others were replayed"))
        // The command that lists a rule's other findings keeps the filters that chose them.
        let since = try CLI.run(["check", "--quiet", "--db", database, "--since", "2020-01-01"])
        #expect(since.stdout.contains("more: lifeline check --db \(database) --since 2020-01-01 --rule "), "\(since.stdout)")
        // The last finding's second holds events; a window of it and a rule it is not of reports none.
        let last = try CLI.sqlite(database, "SELECT ts / 1000000 FROM findings ORDER BY ts DESC LIMIT 1")
        let rule = try CLI.sqlite(database, "SELECT rule FROM findings ORDER BY ts DESC LIMIT 1")
        let other = rule == "nse-overrun" ? "bgtask-refresh-overrun" : "nse-overrun"
        let quiet = try CLI.run(["check", "--db", database, "--since", last, "--rule", other])
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.stdout.contains("No findings match the filters"), "\(quiet.stdout)")
    }

    /// The same for a stream: a window none of its events falls in is exit 3, one they fall in is not.
    @Test func aWindowWithNoEventOfTheStreamIsNothingToCheck() throws {
        let trace = CLI.root.appendingPathComponent("traces/dev-0006-2026-11-21.jsonl")
        let stream = try String(contentsOf: trace, encoding: .utf8)
        let empty = try CLI.run(["check", "--stdin", "--since", "2030-01-01", "--until", "2030-01-02"], stdin: stream)
        #expect(empty.status == 3)
        #expect(empty.stdout.isEmpty)
        #expect(empty.stderr.contains("nothing to check: none of the "), "\(empty.stderr)")
        #expect(empty.stderr.contains(" events on standard input falls since 2030-01-01T00:00:00.000000Z and until "
            + "2030-01-02T00:00:00.000000Z, so no finding could be reported"), "\(empty.stderr)")
        let day = try CLI.run(["check", "--stdin", "--since", "2026-11-21", "--until", "2026-11-22"], stdin: stream)
        #expect(day.status == 0, "\(day.stderr)")
        for window in [["--since", "9223372036854"], ["--until=-9223372036854"]] {
            let far = try CLI.run(["check", "--stdin"] + window, stdin: stream)
            #expect(far.status == 3, "\(window): \(far.stderr)")
        }
    }

    @Test func stdinStreamsFindingsAsJSONLinesWithoutADatabase() throws {
        let directory = try CLI.temporaryDirectory()
        let trace = try String(contentsOfFile: CLI.root.appendingPathComponent("traces/dev-0006-2026-11-21.jsonl").path, encoding: .utf8)
        let result = try CLI.run(["check", "--stdin"], stdin: trace + "\n{broken\n", in: directory)
        #expect(result.status == 1)  // a rejected line: the findings stand on part of the input
        let findings = try result.stdout.split(separator: "\n").map { try CLI.json(String($0)) }
        #expect(findings.contains { $0["rule"] as? String == "nse-overrun" })
        #expect(result.stderr.contains("stdin:"))
        #expect(result.stderr.contains("invalid-json"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("lifeline.db").path))
    }

    /// `--grouped`: the sample traces, cat in name order (device after device), give the same
    /// findings as without it; the same stream with one device's file again at the end is an
    /// error naming the line and the device (exit 2), after the findings before it.
    @Test func groupedStdinFindsTheSameAndRefusesADeviceThatComesBack() throws {
        let directory = try CLI.temporaryDirectory()
        let files = #"cd "\#(Self.traces)" && cat $(ls dev-* | LC_ALL=C sort)"#
        let summary = directory.appendingPathComponent("summary.json").path
        let whole = try CLI.shell(#"\#(files) | "$LIFELINE" check --stdin --quiet --summary-json \#(summary)"#)
        let grouped = try CLI.shell(#"\#(files) | "$LIFELINE" check --stdin --grouped --quiet"#)
        #expect(whole.status == 0 && grouped.status == 0)
        let findings = whole.stdout.split(separator: "\n")
        #expect(findings.count > 10)
        #expect(grouped.stdout.split(separator: "\n").sorted() == findings.sorted())

        let lines = try #require(try CLI.json(String(contentsOfFile: summary, encoding: .utf8))["lines"] as? Int)
        let first = try CLI.shell(#"zstd -dc "\#(Self.traces)/dev-0000-2026-11-21.jsonl.zst" | head -n 1"#).stdout
        let device = try #require(try CLI.json(first)["device"] as? String)
        let errors = directory.appendingPathComponent("errors.txt").path
        let back = try CLI.shell(
            #"(\#(files) dev-0000-2026-11-21.jsonl.zst) | "$LIFELINE" check --stdin --grouped --quiet 2> \#(errors)"#)
        #expect(back.status == 2)
        #expect(try String(contentsOfFile: errors, encoding: .utf8)
            == "error: standard input: line \(lines + 1): device \(device) came back after other devices' lines; "
            + "--grouped needs each device's lines together, device after device: give the files in device order "
            + "(their names sorted, when named by device), or drop --grouped\n")
        #expect(back.stdout.split(separator: "\n").count > findings.count / 2, "the devices before it were reported")
    }

    /// `--grouped` over damaged input (a good file, a file of bad lines, a zstd file cut
    /// mid-frame), read from a FIFO: the same findings and the same account of the damage as
    /// without it, exit 1.
    @Test func groupedStdinOverDamagedInputFromAFIFOReportsWhatTheWholeReplayDoes() throws {
        let directory = try CLI.temporaryDirectory()
        let stream = try CLI.damagedStream(in: directory).path
        func run(_ flags: String) throws -> (status: Int32, stdout: String, stderr: String) {
            let errors = directory.appendingPathComponent("errors.txt").path
            let fifo = directory.appendingPathComponent("fifo").path
            let result = try CLI.shell(
                #"rm -f \#(fifo) && mkfifo \#(fifo) && (cat \#(stream) > \#(fifo) &) && "$LIFELINE" check --stdin \#(flags) < \#(fifo) 2> \#(errors)"#)
            return (result.status, result.stdout, try String(contentsOfFile: errors, encoding: .utf8))
        }
        let whole = try run("")
        let grouped = try run("--grouped")
        #expect(whole.status == 1 && grouped.status == 1)
        #expect(!whole.stdout.isEmpty)
        #expect(grouped.stdout.split(separator: "\n").sorted() == whole.stdout.split(separator: "\n").sorted())
        #expect(grouped.stderr == whole.stderr)
        #expect(grouped.stderr.contains("an unknown number of lines lost: zstd frame starting at byte"))
    }

    /// `--devices-in-memory`: with two devices held and the others' lines spilled to disk, the
    /// sample traces (in reverse name order) and damaged input from a FIFO give the same findings,
    /// the same account of the damage, the same totals and the same exit as with every device held.
    @Test func devicesBeyondTheLimitWaitOnDiskAndFindTheSame() throws {
        let directory = try CLI.temporaryDirectory()
        let damaged = try CLI.damagedStream(in: directory).path
        let traces = #"cd "\#(Self.traces)" && cat $(ls dev-* | LC_ALL=C sort -r)"#
        func run(_ input: String, _ flags: String) throws -> (status: Int32, stdout: String, stderr: String, summary: String) {
            let errors = directory.appendingPathComponent("errors.txt").path
            let summary = directory.appendingPathComponent("summary.json").path
            let fifo = directory.appendingPathComponent("fifo").path
            let result = try CLI.shell(#"""
                rm -f \#(fifo) && mkfifo \#(fifo) && ((\#(input)) > \#(fifo) &) && \
                "$LIFELINE" check --stdin --quiet --summary-json \#(summary) \#(flags) < \#(fifo) 2> \#(errors)
                """#)
            let totals = try String(contentsOfFile: summary, encoding: .utf8)
                .replacingOccurrences(of: #""seconds":[0-9.e-]+"#, with: "", options: .regularExpression)
            return (result.status, result.stdout, try String(contentsOfFile: errors, encoding: .utf8), totals)
        }
        for input in [traces, "cat \(damaged)"] {
            let held = try run(input, "")
            let spilled = try run(input, "--devices-in-memory 2")
            #expect(held.status == spilled.status, "\(input)")
            #expect(!held.stdout.isEmpty)
            #expect(spilled.stdout.split(separator: "\n").sorted() == held.stdout.split(separator: "\n").sorted(), "\(input)")
            #expect(spilled.stderr == held.stderr, "\(input)")
            #expect(spilled.summary == held.summary, "\(input)")
        }
    }

    /// On a terminal (a pseudo-terminal, by `script`), `check --stdin` shows where it is on
    /// standard error — reading, then replaying the devices kept on disk — and clears that line
    /// before its closing one; what it writes to standard output is what it writes without one.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1) for a terminal"))
    func stdinShowsItsProgressOnATerminal() throws {
        let corpus = try CrashAndConcurrencyTests.corpus("progress-corpus", devices: 6, seed: 3)
        let directory = corpus.deletingLastPathComponent()
        let typescript = directory.appendingPathComponent("typescript").path
        let onTerminal = directory.appendingPathComponent("terminal.jsonl").path
        let inner = #"cat \#(corpus.path)/* | \"$LIFELINE\" check --stdin --devices-in-memory 2 > \#(onTerminal)"#
        #expect(try CLI.shell(#"script -qec "\#(inner)" \#(typescript) > /dev/null"#).status == 0)
        let piped = try CLI.shell(#"cat \#(corpus.path)/* | "$LIFELINE" check --stdin --devices-in-memory 2 2> /dev/null"#)
        #expect(try String(contentsOfFile: onTerminal, encoding: .utf8) == piped.stdout)
        let screen = try String(contentsOfFile: typescript, encoding: .utf8)
        #expect(screen.contains("reading: 16384 lines  "))
        #expect(screen.contains(" kept on disk  "))
        #expect(screen.contains("replaying the devices kept on disk: 16384/"))
        let erase = "\r\u{1B}[2K"
        let closing = try #require(screen.components(separatedBy: erase).last)
        #expect(closing.hasPrefix("replayed "), "the progress line is cleared before the closing line: \(closing.prefix(200))")
    }

    /// Lines that must wait on disk when the temporary directory cannot take them: one line
    /// saying so and what to do, exit 2 (the findings are not all known).
    @Test func aSpillThatCannotBeWrittenSaysWhatToDo() throws {
        let directory = try CLI.temporaryDirectory()
        let missing = directory.appendingPathComponent("no-such-directory").path
        let errors = directory.appendingPathComponent("errors.txt").path
        let result = try CLI.shell(
            #"cd "\#(Self.traces)" && cat dev-* | TMPDIR=\#(missing) "$LIFELINE" check --stdin --quiet --devices-in-memory 1 2> \#(errors)"#)
        #expect(result.status == 2)
        #expect(try String(contentsOfFile: errors, encoding: .utf8)
            == "error: standard input: could not write the events of devices beyond --devices-in-memory to a temporary file "
            + "(No such file or directory): free space in \(missing), set TMPDIR, or raise --devices-in-memory\n")
    }

    @Test func budgetsComeFromFlagsAndConfigFiles() throws {
        let directory = try CLI.temporaryDirectory()
        let database = directory.appendingPathComponent("c.db").path
        _ = try CLI.run(["ingest", "--quiet", "--db", database, Self.traces])
        let strict = try CLI.run(["check", "--db", database, "--format", "jsonl", "--rule", "nse-overrun"])
        let relaxed = try CLI.run(["check", "--db", database, "--format", "jsonl", "--rule", "nse-overrun",
                                   "--budget", "nse-completion=40"])
        #expect(strict.stdout.split(separator: "\n").count > 0)
        #expect(relaxed.stdout.isEmpty)

        let config = directory.appendingPathComponent("lifeline.json")
        try #"{"budgets":{"nse-completion":40},"severities":{"nse-overrun":"info"}}"#.write(to: config, atomically: true, encoding: .utf8)
        let configured = try CLI.run(["check", "--db", database, "--format", "jsonl", "--rule", "nse-overrun", "--config", config.path])
        #expect(configured.stdout.isEmpty)
        #expect(try CLI.sqlite(database, "SELECT budgets LIKE '%\"nse-completion\":40%' FROM runs ORDER BY id DESC LIMIT 1") == "1")

        let bad = try CLI.run(["check", "--db", database, "--budget", "nope=3"])
        #expect(bad.status == 64, "a flag naming an unknown budget is a usage error")
        #expect(bad.stderr.contains("unknown budget 'nope'"))
    }

    /// task-wait is set like every budget; the sample traces' waiting refresh request is stored
    /// with its factors.
    @Test func theTaskWaitBudgetComesFromFlagsAndConfigFilesAndFactorsAreStored() throws {
        let directory = try CLI.temporaryDirectory()
        let database = directory.appendingPathComponent("c.db").path
        _ = try CLI.run(["ingest", "--quiet", "--db", database, Self.traces])
        let waits = try CLI.run(["check", "--db", database, "--format", "jsonl", "--rule", "bgtask-never-ran"])
        // One in the v1 part (moved forward by resubmits), one in scenes/ (Low Power Mode).
        #expect(waits.stdout.split(separator: "\n").count == 2)
        #expect(waits.stdout.contains(#""factors":[{"evidence":[{"event":"bgtask.submit""#))
        let kinds = try CLI.sqlite(
            database, "SELECT group_concat(kind, ' ') FROM (SELECT json_extract(factors, '$[0].kind') AS kind FROM findings WHERE rule = 'bgtask-never-ran' ORDER BY kind)")
        #expect(kinds == "low-power-mode rescheduled")
        #expect(try CLI.sqlite(database, "SELECT count(*) FROM findings WHERE factors IS NOT NULL AND rule != 'bgtask-never-ran'") == "0")

        let longer = try CLI.run(["check", "--db", database, "--format", "jsonl", "--rule", "bgtask-never-ran",
                                  "--budget", "task-wait=300000"])
        #expect(longer.status == 0)
        #expect(longer.stdout.isEmpty)
        let config = directory.appendingPathComponent("lifeline.json")
        try #"{"budgets":{"task-wait":3600}}"#.write(to: config, atomically: true, encoding: .utf8)
        let shorter = try CLI.run(["check", "--db", database, "--format", "jsonl", "--rule", "bgtask-never-ran", "--config", config.path])
        #expect(shorter.stdout.split(separator: "\n").count > 1)
        #expect(shorter.stdout.contains(#""budget":"task-wait","budgetSeconds":3600"#))
        #expect(try CLI.sqlite(database, "SELECT budgets LIKE '%\"task-wait\":3600%' FROM runs ORDER BY id DESC LIMIT 1") == "1")
    }

    @Test func unknownRulesAreUsageErrors() throws {
        let result = try CLI.run(["check", "--rule", "no-such-rule"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown rule 'no-such-rule'"))
    }
}
