import Foundation
import GRDB
import LifelineKit
import Testing
import TraceStore

@Suite struct IngestorTests {
    @Test func storesEveryEventOfPlainZstdAndGzipFiles() throws {
        let workspace = try Workspace()
        let plain = try workspace.write("a.jsonl", lines: launchLines(launch: "A", count: 10))
        let source = try workspace.write("b.jsonl", lines: launchLines(launch: "B", count: 7))
        try shell("zstd -q --rm \(source) -o \(source).zst && cp \(plain) \(workspace.path("c.jsonl")) && gzip -f \(workspace.path("c.jsonl"))")
        let summary = Ingestor(store: try workspace.store()).ingest([workspace.directory.path])
        #expect(summary.count(.ingested) == 3)
        #expect(summary.events == 17)
        #expect(summary.duplicates == 10)  // c.jsonl.gz holds a.jsonl's events again
        #expect(summary.status == .clean)
        let compressions = Set(summary.files.compactMap(\.compression))
        #expect(compressions == ["none", "zstd", "gzip"])
    }

    @Test func theSameFileTwiceIsSkippedAndCountsNothingTwice() throws {
        let workspace = try Workspace()
        let file = try workspace.write("a.jsonl", lines: launchLines(count: 5))
        let store = try workspace.store()
        _ = Ingestor(store: store).ingest([file])
        let again = Ingestor(store: store).ingest([file])
        #expect(again.count(.skipped) == 1)
        #expect(again.files[0].message?.contains("already ingested") == true)
        #expect(try store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM events") } == 5)
    }

    @Test func badLinesAreKeptAsideAndGoodOnesStored() throws {
        let workspace = try Workspace()
        var lines = launchLines(count: 4)
        lines.insert("{not json", at: 1)
        lines.insert(#"{"ts":"yesterday","device":"D1","launch":"L1","event":"x"}"#, at: 3)
        lines.insert(#"{"ts":1,"launch":"L1","event":"x"}"#, at: 5)
        let file = try workspace.write("bad.jsonl", lines: lines)
        let summary = Ingestor(store: try workspace.store()).ingest([file])
        #expect(summary.events == 4)
        #expect(summary.rejectsByReason == ["invalid-json": 1, "bad-ts": 1, "missing-field": 1])
        #expect(summary.status == .badInput)
        let rejects = try workspace.store().read { db in
            try Row.fetchAll(db, sql: "SELECT line, reason FROM rejects ORDER BY line")
        }
        #expect(rejects.map { $0["line"] as Int } == [2, 4, 6])
    }

    @Test func aTruncatedZstdFileKeepsEveryCompleteLine() throws {
        let workspace = try Workspace()
        let source = try workspace.write("t.jsonl", lines: launchLines(count: 2000))
        // Two frames, the second cut in the middle.
        try shell("""
            head -n 1000 \(source) | zstd -q -c > \(source).zst && tail -n 1000 \(source) | zstd -q -c > \(source).2 \
            && head -c $(( $(stat -c %s \(source).2) / 2 )) \(source).2 >> \(source).zst && rm \(source) \(source).2
            """)
        let summary = Ingestor(store: try workspace.store()).ingest([source + ".zst"])
        #expect(summary.truncatedFiles == 1)
        #expect(summary.events >= 1000)
        #expect(summary.events < 2000)
        #expect(summary.files[0].cut?.contains("cut short") == true)
        let record = try workspace.store().files()[0]
        #expect(record.truncated)
        #expect(record.cutAfterLine == summary.events)
        #expect(summary.status == .badInput)
    }

    @Test func aMissingPathIsNamedAndTheOthersAreStillIngested() throws {
        let workspace = try Workspace()
        let file = try workspace.write("a.jsonl", lines: launchLines(count: 3))
        let missing = workspace.path("nope.jsonl.zst")
        let summary = Ingestor(store: try workspace.store()).ingest([missing, file])
        #expect(summary.status == .failed)
        #expect(summary.events == 3)
        let failed = summary.files.first { $0.outcome == .failed }
        #expect(failed?.message?.contains("nope.jsonl.zst") == true)
    }

    @Test func anInterruptedFileResumesAfterItsCommittedLines() throws {
        let workspace = try Workspace()
        let file = try workspace.write("a.jsonl", lines: launchLines(count: 100))
        let store = try workspace.store()
        // What a kill after the first batch leaves: the file registered, 40 lines committed.
        try registerPartlyRead(file, linesDone: 40, in: store, claim: .unheld)

        let summary = Ingestor(store: store).ingest([file])
        #expect(summary.files[0].outcome == .resumed)
        #expect(summary.files[0].lines == 60)
        #expect(try store.files()[0].status == .done)
        #expect(try store.files()[0].lines == 100)
    }

    @Test func smallBatchesGiveTheSameResultAsOneBigOne() throws {
        let workspace = try Workspace()
        let file = try workspace.write("a.jsonl", lines: launchLines(count: 1000))
        var options = Ingestor.Options()
        options.batchSize = 7
        options.queuedEvents = 10
        let summary = Ingestor(store: try workspace.store(), options: options).ingest([file])
        #expect(summary.events == 1000)
        let seqs = try workspace.store().read { try Int.fetchAll($0, sql: "SELECT seq FROM events ORDER BY id") }
        #expect(seqs == Array(0..<1000))
    }
}

/// Registers `file` under `claim` and commits its first `linesDone` lines as read, as an ingest
/// that stopped (or is still running) after its first batch leaves it.
func registerPartlyRead(_ file: String, linesDone: Int, in store: Store, claim: IngestClaim) throws {
    let sha = try shellOutput("sha256sum \(file) | cut -d' ' -f1")
    let writer = EventWriter(store: store, claim: claim)
    let fileID = try writer.transaction {
        try #require(try $0.register(FileRegistration(path: file, size: nil, sha256: sha, compression: "none")).fileID)
    }
    var batch = IngestBatch(fileID: fileID)
    batch.throughLine = linesDone
    try writer.write(batch)
}

func shellOutput(_ command: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// A launch's envelope is its first line's, whichever upload brings that line: the `events` view
/// gives it to the lines that leave it out.
@Suite struct LaunchEnvelopeIngestTests {
    private static func line(seq: Int, event: String, envelope: Bool) -> String {
        let fields = envelope ? #","app":"com.example.news","app_version":"5.12.0","os":"18.1""# : ""
        return #"{"ts":"2026-11-21T08:00:0\#(seq).000Z","device":"D1","launch":"L1","seq":\#(seq),"event":"\#(event)"\#(fields)}"#
    }

    @Test func aLaterUploadWithTheFirstLineLendsItsEnvelopeToTheLinesStoredBefore() throws {
        let workspace = try Workspace()
        let store = try workspace.store()
        let later = try workspace.write("later.jsonl", lines: [
            Self.line(seq: 3, event: "suspend", envelope: false), Self.line(seq: 4, event: "terminate", envelope: false),
        ])
        _ = Ingestor(store: store).ingest([later])
        let before = try store.read { try String?.fetchAll($0, sql: "SELECT app FROM events ORDER BY seq") }
        #expect(before == [nil, nil])

        let first = try workspace.write("first.jsonl", lines: [
            Self.line(seq: 0, event: "launch", envelope: true), Self.line(seq: 1, event: "didEnterBackground", envelope: false),
        ])
        _ = Ingestor(store: store).ingest([first])
        let rows = try store.read { try Row.fetchAll($0, sql: "SELECT seq, app, app_version, os FROM events ORDER BY seq") }
        #expect(rows.map { $0["seq"] as Int } == [0, 1, 3, 4])
        #expect(rows.map { $0["app_version"] as String? } == Array(repeating: "5.12.0", count: 4))
        #expect(rows.map { $0["os"] as String? } == Array(repeating: "18.1", count: 4))
        let terminations = try store.read {
            try Int.fetchOne($0, sql: "SELECT count(*) FROM events WHERE event = 'terminate' AND app = 'com.example.news'")
        }
        #expect(terminations == 1)
    }

    /// A launch that logs its envelope on a later line (its `config`, say), or part of it there,
    /// takes each field from the earliest line that logs it; a line's own value stays its own only
    /// where the launch has none.
    @Test func fieldsTheFirstLineLeavesOutComeFromTheEarliestLineThatLogsThem() throws {
        let workspace = try Workspace()
        let store = try workspace.store()
        let file = try workspace.write("late.jsonl", lines: [
            #"{"ts":"2026-11-21T08:00:00Z","device":"D1","launch":"L1","seq":0,"event":"launch","reason":"user","os":"18.1"}"#,
            #"{"ts":"2026-11-21T08:00:01Z","device":"D1","launch":"L1","seq":1,"event":"config","app":"com.example.news","app_version":"5.12.0"}"#,
            #"{"ts":"2026-11-21T08:00:02Z","device":"D1","launch":"L1","seq":2,"event":"didBecomeActive","app_version":"9.9"}"#,
            #"{"ts":"2026-11-21T08:00:03Z","device":"D1","launch":"L1","seq":3,"event":"willResignActive"}"#,
        ])
        _ = Ingestor(store: store).ingest([file])
        let rows = try store.read { try Row.fetchAll($0, sql: "SELECT app, app_version, os FROM events ORDER BY seq") }
        #expect(rows.map { $0["app"] as String? } == Array(repeating: "com.example.news", count: 4))
        #expect(rows.map { $0["app_version"] as String? } == Array(repeating: "5.12.0", count: 4))
        #expect(rows.map { $0["os"] as String? } == Array(repeating: "18.1", count: 4))
        let apps = try store.launches(app: "com.example.news", appVersion: "5.12.0")
        #expect(apps.map(\.launch) == ["L1"])

        // A line deleted by hand: the envelope is worked out again from the lines left.
        try store.write { try $0.execute(sql: "DELETE FROM event_rows WHERE seq = 3") }
        let kept = try store.read { try Row.fetchAll($0, sql: "SELECT app, app_version, events, last_ts FROM launch_rows") }
        #expect(kept.map { $0["app_version"] as String? } == ["5.12.0"] && kept.map { $0["app"] as String? } == ["com.example.news"])
        // …and its count and times from them too, as `apps` reads them.
        #expect(kept.map { $0["events"] as Int } == [3])
        #expect(kept.map { $0["last_ts"] as Int64 } == [1_795_248_002_000_000], "08:00:02, its latest line left")
    }

    /// A launch is one process: a `process` left out on its first line is the app's for every line.
    @Test func aLaunchIsOneProcessInTheEventsView() throws {
        let workspace = try Workspace()
        let store = try workspace.store()
        let file = try workspace.write("process.jsonl", lines: [
            #"{"ts":"2026-11-21T08:00:00Z","device":"D1","launch":"L1","seq":0,"event":"launch","app":"com.example.news"}"#,
            #"{"ts":"2026-11-21T08:00:01Z","device":"D1","launch":"L1","seq":1,"event":"config","process":"extension:nse"}"#,
        ])
        _ = Ingestor(store: store).ingest([file])
        let processes = try store.read { try String?.fetchAll($0, sql: "SELECT process FROM events ORDER BY seq") }
        #expect(processes == [nil, nil])
        // The events read back for a replay or a timeline say the same.
        var read: [String?] = []
        _ = try store.forEachEvent(devices: .all) { read.append($0.process) } deviceEnded: { _ in }
        #expect(read == [nil, nil])
    }

    /// An envelope logged on a later line with a NUL and non-ASCII text in it reaches the launch
    /// row byte for byte, and a huge `seq` (beyond a row id) still orders the launch's lines.
    @Test func aHostileEnvelopeOnALaterLineIsKeptByteForByte() throws {
        let workspace = try Workspace()
        let store = try workspace.store()
        let file = try workspace.write("hostile.jsonl", lines: [
            #"{"ts":"2026-11-21T08:00:00Z","device":"D1","launch":"L1","seq":9000000000,"event":"launch"}"#,
            #"{"ts":"2026-11-21T07:00:00Z","device":"D1","launch":"L1","seq":9000000001,"event":"config","app":"a\u0000b\u00fc","app_version":"-1e400","os":"18.1"}"#,
        ])
        _ = Ingestor(store: store).ingest([file])
        let row = try store.read { try Row.fetchOne($0, sql: "SELECT hex(app) AS app, app_version, os FROM launch_rows") }
        #expect(row?["app"] as String? == "610062C3BC", "a, NUL, b, ü")
        #expect(row?["app_version"] as String? == "-1e400" && row?["os"] as String? == "18.1")
        let apps = try store.launches(app: "a\u{0}bü", appVersion: nil)
        #expect(apps.map(\.launch) == ["L1"])
    }

    /// Without `seq`, a field is completed from the earliest line by time, whatever order the
    /// uploads come in.
    @Test func withoutSeqTheEarliestLineByTimeCompletesTheEnvelope() throws {
        let line = { (second: Int, event: String, fields: String) in
            #"{"ts":"2026-11-21T08:00:0\#(second).000Z","device":"D1","launch":"L1","event":"\#(event)"\#(fields)}"#
        }
        let workspace = try Workspace()
        let store = try workspace.store()
        let files = try [
            workspace.write("3.jsonl", lines: [line(2, "didBecomeActive", #","app_version":"6.1","os":"18.1""#)]),
            workspace.write("2.jsonl", lines: [line(1, "config", #","app_version":"6.0","os":"18.0""#)]),
            workspace.write("1.jsonl", lines: [line(0, "launch", #","app":"com.example.news""#)]),
        ]
        for file in files { _ = Ingestor(store: store).ingest([file]) }
        let envelope = try store.read { try Row.fetchOne($0, sql: "SELECT app, app_version, os FROM launch_rows") }
        #expect(envelope?["app"] as String? == "com.example.news")
        #expect(envelope?["app_version"] as String? == "6.0" && envelope?["os"] as String? == "18.0")
    }
}
