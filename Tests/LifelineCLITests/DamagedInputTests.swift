import Foundation
import Testing

/// Damaged and unusual input through the CLI: damage is reported and sets the exit code,
/// process substitution is read once, and a directory that cannot be listed fails.
@Suite(.serialized) struct DamagedInputTests {
    private var sample: String { CLI.root.appendingPathComponent("traces/dev-0006-2026-11-21.jsonl").path }

    @Test func processSubstitutionIsReadOnceAndTheSameFileIsSkippedAfter() throws {
        let directory = try CLI.temporaryDirectory()
        let first = try CLI.bash("\"$LIFELINE\" ingest --json --db t.db <(cat '\(sample)')", in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        let summary = try CLI.json(first.stdout)
        let events = try #require(summary["events"] as? Int)
        #expect(events > 0)
        let again = try CLI.bash("\"$LIFELINE\" ingest --json --db t.db '\(sample)'", in: directory)
        #expect(try CLI.json(again.stdout)["filesSkipped"] as? Int == 1)
    }

    @Test func checkStdinReportsACutStreamOnStandardErrorAndExitsOne() throws {
        let directory = try CLI.temporaryDirectory()
        let result = try CLI.bash("""
            zstd -q -c '\(sample)' > s.zst && head -c $(( $(stat -c %s s.zst) - 40 )) s.zst > cut.zst \
            && "$LIFELINE" check --stdin --quiet < cut.zst
            """, in: directory)
        #expect(result.status == 1)
        #expect(result.stderr.contains("stdin: bytes 0-"))
        #expect(result.stderr.contains("cut short"))
        #expect(result.stderr.contains("lost lines (bytes 0-"))
        // The findings on standard output are JSON lines, untouched.
        for line in result.stdout.split(separator: "\n") { #expect(line.hasPrefix("{")) }
    }

    @Test func checkStdinReportsACorruptStreamAndExitsOne() throws {
        let directory = try CLI.temporaryDirectory()
        let result = try CLI.bash("""
            gzip -c '\(sample)' > s.gz && size=$(stat -c %s s.gz) \
            && { head -c $(( size - 8 )) s.gz; printf '\\x00\\x00\\x00\\x00'; tail -c 4 s.gz; } > bad.gz \
            && "$LIFELINE" check --stdin < bad.gz
            """, in: directory)
        #expect(result.status == 1)
        #expect(result.stderr.contains("is damaged: incorrect data check"))
        #expect(result.stderr.contains("replayed 0 events"))
        #expect(result.stdout.isEmpty)
    }

    @Test func aFIFOInAnInputDirectoryDoesNotHangTheIngest() throws {
        let directory = try CLI.temporaryDirectory()
        let result = try CLI.bash("""
            mkdir logs && cp '\(sample)' logs/a.jsonl && mkfifo logs/b.jsonl \
            && timeout 60 "$LIFELINE" ingest --db t.db logs
            """, in: directory)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("logs/b.jsonl: ignored: not a regular file (a FIFO)"))
    }

    /// Root lists any directory, so this runs only for other users (the injected failure of
    /// `DamageAccountingTests` covers root).
    @Test(.enabled(if: getuid() != 0)) func anUnreadableSubdirectoryFailsWithExitTwo() throws {
        let directory = try CLI.temporaryDirectory()
        let result = try CLI.bash("""
            mkdir -p logs/locked && cp '\(sample)' logs/a.jsonl && cp '\(sample)' logs/locked/b.jsonl \
            && chmod 000 logs/locked; "$LIFELINE" ingest --db t.db logs; status=$?; chmod 755 logs/locked; exit $status
            """, in: directory)
        #expect(result.status == 2)
        #expect(result.stdout.contains("cannot list the directory: Permission denied"))
        #expect(result.stdout.contains("1 failed"))
    }

    /// The worst of what this round added reads: a stream mixing a zstd frame, a gzip member
    /// with a flipped byte and plain text, through a FIFO, whose lines carry a scene id with a
    /// NUL, a 200 kB scene id, a scene that is a number, `simulated` as a string, an infinite
    /// number and null, and `debugger` as a string. Nothing traps: the damage is reported (exit
    /// 1) with a lower bound of lines lost, the good lines are replayed, only `simulated: true`
    /// counts, and the timeline shows the scene with its NUL.
    @Test func hostileV11ValuesInAMixedStreamThroughAFIFO() throws {
        let directory = try CLI.temporaryDirectory()
        let long = String(repeating: "S", count: 200_000)
        let lines = [
            #"{"ts":"2026-11-21T08:00:00Z","device":"H","launch":"L","seq":0,"event":"launch","reason":"user"}"#,
            #"{"ts":"2026-11-21T08:00:00.1Z","device":"H","launch":"L","seq":1,"event":"config","debugger":"yes","build":"\u0000"}"#,
            #"{"ts":"2026-11-21T08:00:01Z","device":"H","launch":"L","seq":2,"event":"scene.willConnect","scene":"a\u0000b"}"#,
            #"{"ts":"2026-11-21T08:00:02Z","device":"H","launch":"L","seq":3,"event":"scene.willConnect","scene":""# + long + #""}"#,
            #"{"ts":"2026-11-21T08:00:03Z","device":"H","launch":"L","seq":4,"event":"scene.willConnect","scene":1e999}"#,
            #"{"ts":"2026-11-21T08:00:04Z","device":"H","launch":"L","seq":5,"event":"bgtask.launch","identifier":"r","task":1,"simulated":"true"}"#,
            #"{"ts":"2026-11-21T08:00:05Z","device":"H","launch":"L","seq":6,"event":"bgtask.expire","task":1,"simulated":1e999}"#,
            #"{"ts":"2026-11-21T08:00:06Z","device":"H","launch":"L","seq":7,"event":"bgtask.expire","task":1,"simulated":null}"#,
        ]
        try (lines[0 ..< 4].joined(separator: "\n") + "\n").write(
            to: directory.appendingPathComponent("a.jsonl"), atomically: true, encoding: .utf8)
        try (lines[4...].joined(separator: "\n") + "\n").write(
            to: directory.appendingPathComponent("c.jsonl"), atomically: true, encoding: .utf8)
        let result = try CLI.bash("""
            zstd -q -c a.jsonl > a.zst && printf '{"x":1}\\n' | gzip -c > b.gz \
            && printf '\\x55' | dd of=b.gz bs=1 seek=12 conv=notrunc status=none \
            && mkfifo pipe && (cat a.zst b.gz c.jsonl > pipe &) \
            && "$LIFELINE" check --stdin --format jsonl < pipe
            """, in: directory)
        #expect(result.status == 1, "damage is bad input: \(result.stderr)")
        #expect(result.stderr.contains("gzip member starting at byte"), "\(result.stderr)")
        // The plain text after the damaged member is lost with it (reading resumes at a frame),
        // so the count of lost lines is a lower bound.
        #expect(result.stderr.contains("replayed 4 events of 1 device"), "\(result.stderr)")
        #expect(result.stderr.contains("at least 1 lost line"), "\(result.stderr)")
        #expect(!result.stdout.contains("simulated-launch"), "only simulated: true counts: \(result.stdout)")
        let stored = try CLI.bash("""
            (cat a.zst b.gz c.jsonl > pipe &) && "$LIFELINE" ingest --quiet --db h.db pipe; \
            "$LIFELINE" timeline H --db h.db
            """, in: directory)
        // The NUL is kept in the store and written out on the terminal.
        #expect(stored.stdout.contains("scene.willConnect  scene a\\u{0}b"), "\(stored.stdout)")
    }

    /// The v1.1 readings, resources, URL session tasks and scene ids at their worst, in a zstd
    /// file cut short, read through a FIFO both ways: `check --stdin`, and `ingest` then `check`
    /// over the store, whose reading thread numbers texts from SQLite's bytes. Nothing traps,
    /// the cut is reported, and the two ways find the same findings.
    @Test func hostileV11ReadingsReplayAlikeFromAStreamAndFromTheStore() throws {
        let directory = try CLI.temporaryDirectory()
        let long = String(repeating: "R", count: 100_000)
        let lines = [
            #"{"ts":"2026-11-21T08:00:00Z","device":"H","launch":"L","seq":0,"event":"launch","reason":"user"}"#,
            #"{"ts":"2026-11-21T08:00:00.1Z","device":"H","launch":"L","seq":1,"event":"power","low_power_mode":"yes","battery":-1e308,"charging":1e999}"#,
            #"{"ts":"2026-11-21T08:00:00.2Z","device":"H","launch":"L","seq":2,"event":"network","reachable":1e999,"wifi":null}"#,
            #"{"ts":"2026-11-21T08:00:00.3Z","device":"H","launch":"L","seq":3,"event":"refreshStatus","status":"\u0000"}"#,
            #"{"ts":"2026-11-21T08:00:00.4Z","device":"H","launch":"L","seq":4,"event":"bgtask.submit","identifier":"r\u0000x","type":"refresh","earliest_begin":-1e999}"#,
            #"{"ts":"2026-11-21T08:00:00.5Z","device":"H","launch":"L","seq":5,"event":"resource.acquire","resource":""# + long + #"","kind":"file-lock"}"#,
            #"{"ts":"2026-11-21T08:00:00.6Z","device":"H","launch":"L","seq":6,"event":"urlsession.task.create","identifier":"s","task":-9223372036854775808,"earliest_begin":"x","expected_send":-1e999}"#,
            #"{"ts":"2026-11-21T08:00:00.7Z","device":"H","launch":"L","seq":7,"event":"scene.willConnect","scene":"a\u0000b"}"#,
            #"{"ts":"2026-11-21T08:00:00.8Z","device":"H","launch":"L","seq":8,"event":"fetch.setMinimumInterval","interval":1e999}"#,
            #"{"ts":"2026-11-21T08:00:01Z","device":"H","launch":"L","seq":9,"event":"willResignActive"}"#,
            #"{"ts":"2026-11-21T08:00:01.1Z","device":"H","launch":"L","seq":10,"event":"didEnterBackground","phase":"begin"}"#,
            #"{"ts":"2026-11-21T08:00:09Z","device":"H","launch":"L","seq":11,"event":"suspend"}"#,
            #"{"ts":"2026-11-23T08:00:09Z","device":"H","launch":"M","seq":0,"event":"launch","reason":"system","cause":"bgtask"}"#,
            #"{"ts":"2026-11-23T08:00:10Z","device":"H","launch":"M","seq":1,"event":"terminate","reason":"resource"}"#,
        ]
        try (lines.joined(separator: "\n") + "\n").write(
            to: directory.appendingPathComponent("h.jsonl"), atomically: true, encoding: .utf8)
        let stream = try CLI.bash("""
            zstd -q -c h.jsonl > h.zst && printf 'cut' | zstd -q -c | head -c 9 >> h.zst && mkfifo pipe \
            && (cat h.zst > pipe &) && "$LIFELINE" check --stdin --format jsonl < pipe
            """, in: directory)
        #expect(stream.status == 1, "a cut frame is bad input: \(stream.stderr)")
        #expect(stream.stderr.contains("replayed 14 events of 1 device"), "\(stream.stderr)")
        let ingest = try CLI.bash(#"(cat h.zst > pipe &) && "$LIFELINE" ingest --quiet --db h.db pipe"#, in: directory)
        #expect(ingest.status == 1, "the cut is reported: \(ingest.stdout)")
        let stored = try CLI.bash(#""$LIFELINE" check --db h.db --format jsonl"#, in: directory)
        #expect(stored.status == 0, "\(stored.stderr)")
        // Each finding's rule, time and launch (the store adds row ids to its events). Read by
        // pattern: Foundation's JSON parser on Linux refuses the `\u0000` these messages quote.
        func rules(_ jsonl: String) -> [String] {
            jsonl.split(separator: "\n").map { line in
                let launch = line.firstMatch(of: /"launch":"([^"]*)"/)?.1 ?? ""
                let rule = line.firstMatch(of: /"rule":"([^"]*)","severity":"[^"]*","ts":"([^"]*)"/)
                return "\(rule?.1 ?? "") \(rule?.2 ?? "") \(launch)"
            }
        }
        let fromStream = rules(stream.stdout)
        #expect(fromStream.count == 7, "\(stream.stdout)")
        #expect(fromStream.contains { $0.hasPrefix("shared-resource-held-at-suspension 2026-11-21T08:00:09") }, "\(fromStream)")
        #expect(rules(stored.stdout).sorted() == fromStream.sorted())
    }

    /// The Spark job's passes and its import at their worst: `key-by-device` over a directory with
    /// a FIFO, a zstd file cut mid-frame and lines with a NUL in the device, a 200 kB device id and
    /// out-of-range numbers, its records replayed by device; hand-made records that are not the
    /// command's; and findings with NUL, extreme and invalid values to import.
    @Test func theDistributedPassesAndTheImportAtTheirWorst() throws {
        let directory = try CLI.temporaryDirectory()
        let worst = [
            #"{"ts":"2026-11-21T00:00:00Z","device":"D\u0000N","launch":"L","event":"launch","seq":-9223372036854775808,"mono":1e308}"#,
            #"{"ts":"2026-11-21T00:00:01Z","device":""# + String(repeating: "x", count: 200_000)
                + #"","launch":"L","event":"power","battery":1e400,"seq":99999999999999999999}"#,
            #"{"ts":-1e300,"device":"D","launch":"L","event":"suspend"}"#,
            "\u{0}\u{0}garbage",
        ]
        try (worst.joined(separator: "\n") + "\n").write(
            to: directory.appendingPathComponent("worst.jsonl"), atomically: true, encoding: .utf8)
        let keyed = try CLI.bash("""
            mkdir logs && cp '\(sample)' logs/a.jsonl && mkfifo logs/b.jsonl && mv worst.jsonl logs/d.jsonl \
            && head -40 '\(sample)' | zstd -q -c > logs/c.jsonl.zst && printf 'cut' | zstd -q -c | head -c 9 >> logs/c.jsonl.zst \
            && timeout 60 "$LIFELINE" key-by-device logs > records; status=$?; cut -c1 records | sort -u | tr -d '\\n'; exit $status
            """, in: directory)
        #expect(keyed.status == 1, "\(keyed.stderr)")
        #expect(keyed.stdout == "CEF", "only E, C and F records")
        #expect(keyed.stderr.contains("logs/b.jsonl: ignored: not a regular file (a FIFO)"))
        #expect(keyed.stderr.contains("logs/d.jsonl: 2 rejected lines (bad-ts 1, invalid-json 1)"))
        let replay = try CLI.bash(
            #"LC_ALL=C sort -s -t"$(printf '\t')" -k2,2 records | timeout 60 "$LIFELINE" check --stdin --keyed --quiet > /dev/null"#,
            in: directory)
        #expect(replay.status == 1)
        #expect(replay.stderr.contains("replayed 53 events of 3 devices"))

        let records = [
            (#"E\t"D"\t-5\t99999999999999999999\t{}"#, "an E record needs DEVICE, FILE, LINE and the line"),
            (#"E\tnot-json\t0\t1\tx"#, "the line of file 0 line 1 is not an event"),
            (#"Z\tjunk"#, "not a record of `lifeline key-by-device` (E, C or F first)"),
            (#"C\t"D"\t1e400"#, "a C record needs DEVICE and FILE"),
            (#"F\tnotanumber\t{}"#, "an F record needs FILE and a file report"),
        ]
        for (record, reason) in records {
            let result = try CLI.bash(#"printf '\#(record)\n' | timeout 20 "$LIFELINE" check --stdin --keyed --quiet"#, in: directory)
            #expect(result.status == 2, "\(record)")
            #expect(result.stderr == "error: standard input: record 1: \(reason)\n", "\(record)")
        }

        let finding = #"{"category":"overrun","device":"D","events":[],"launch":"L","message":"m","rule":"nse-overrun","severity":"error","ts":"2026-11-21T00:00:00Z""#
        let imports: [(line: String, loads: Bool)] = [
            (finding + #","measured":1e400}"#, false),
            (finding.replacingOccurrences(of: "2026-11-21T00:00:00Z", with: "99999-01-01T00:00:00Z") + "}", false),
            (finding.replacingOccurrences(of: #""severity":"error""#, with: #""severity":"fatal""#) + "}", false),
            (finding + #","budgetSeconds":-1e308,"measured":-0.0}"#, true),
            (finding.replacingOccurrences(of: #""device":"D""#, with: #""device":"D\u0000X""#)
                .replacingOccurrences(of: #""message":"m""#, with: #""message":"a\u0000b""#) + "}", true),
            (finding.replacingOccurrences(of: #""launch":"L""#, with: "\"launch\":\"\(String(repeating: "L", count: 100_000))\"") + "}", true),
            // A rule id this Lifeline does not know is refused, in one line however long it is.
            (finding.replacingOccurrences(of: "nse-overrun", with: String(repeating: "r", count: 100_000)) + "}", false),
        ]
        for (number, (line, loads)) in imports.enumerated() {
            let file = directory.appendingPathComponent("f\(number).jsonl")
            try (line + "\n").write(to: file, atomically: true, encoding: .utf8)
            let database = directory.appendingPathComponent("i\(number).db").path
            let result = try CLI.run(["import-findings", file.path, "--db", database])
            #expect(result.status == (loads ? 0 : 2), "case \(number): \(result.stderr)")
            if loads {
                #expect(try CLI.sqlite(database, "SELECT count(*) FROM findings") == "1", "case \(number)")
            } else {
                #expect(result.stderr.hasPrefix("error: \(file.path):1: "), "case \(number): \(result.stderr)")
                #expect(result.stderr.split(separator: "\n").count == 1, "case \(number): one line")
            }
        }
    }
}
