import Foundation
import GRDB
import Testing
import TraceModel
@testable import TraceStore

@Suite struct EventWriterTests {
    private func event(_ seq: Int64?, _ name: String = "snapshot", device: String = "D1", launch: String = "L1",
                       ts: Int64 = 1_000_000) -> Event {
        Event(ts: Timestamp(microseconds: ts + (seq ?? 0)), device: device, launch: launch, name: name, seq: seq,
              app: "com.example.news", os: "17.4", phase: nil, attrs: #"{"x":1}"#)
    }

    private func batch(fileID: Int64, _ events: [Event], rejects: [RejectedLine] = []) -> IngestBatch {
        var batch = IngestBatch(fileID: fileID)
        for (index, event) in events.enumerated() { batch.append(event, line: index + 1) }
        batch.rejects = rejects
        batch.throughLine = events.count + rejects.count
        return batch
    }

    private func startFile(_ store: Store, sha: String) throws -> Int64 {
        #expect(try store.admission(sha256: sha) == .new)
        return try EventWriter(store: store).transaction {
            try #require(try $0.register(FileRegistration(path: "f-\(sha)", size: 1, sha256: sha, compression: "zstd")).fileID)
        }
    }

    @Test func storesEventsAndReadsThemBackThroughTheView() throws {
        let db = try TemporaryDatabase()
        let fileID = try startFile(db.store, sha: "a")
        let outcome = try EventWriter(store: db.store).write(batch(fileID: fileID, [event(0, "launch"), event(1)]))
        #expect(outcome == BatchOutcome(inserted: 2, duplicates: 0, rejects: 0))
        let rows = try db.store.read { db in
            try Row.fetchAll(db, sql: "SELECT device, launch, seq, event, app, os, attrs, line FROM events ORDER BY seq")
        }
        #expect(rows.count == 2)
        #expect(rows[0]["device"] == "D1")
        #expect(rows[0]["event"] == "launch")
        #expect(rows[1]["attrs"] == #"{"x":1}"#)
        #expect(rows[1]["line"] == 2)
    }

    @Test func theSameEventFromAnotherFileIsStoredOnce() throws {
        let db = try TemporaryDatabase()
        let writer = EventWriter(store: db.store)
        try writer.write(batch(fileID: try startFile(db.store, sha: "a"), [event(0), event(1)]))
        let second = try writer.write(batch(fileID: try startFile(db.store, sha: "b"), [event(1), event(2)]))
        #expect(second.inserted == 1)
        #expect(second.duplicates == 1)
        let count = try db.store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM events") }
        #expect(count == 3)
    }

    @Test func eventsWithoutSeqAreDeduplicatedByContent() throws {
        let db = try TemporaryDatabase()
        let writer = EventWriter(store: db.store)
        let a = event(nil, "memoryWarning", ts: 5)
        let b = event(nil, "snapshot", ts: 6)
        try writer.write(batch(fileID: try startFile(db.store, sha: "a"), [a, b]))
        let again = try EventWriter(store: db.store).write(batch(fileID: try startFile(db.store, sha: "b"), [b, a, event(nil, "suspend", ts: 7)]))
        #expect(again == BatchOutcome(inserted: 1, duplicates: 2, rejects: 0))
        let names = try db.store.read { try String.fetchAll($0, sql: "SELECT event FROM events ORDER BY id") }
        #expect(names == ["memoryWarning", "snapshot", "suspend"])
    }

    @Test func launchTotalsFollowTheStoredEvents() throws {
        let db = try TemporaryDatabase()
        let writer = EventWriter(store: db.store)
        let fileID = try startFile(db.store, sha: "a")
        try writer.write(batch(fileID: fileID, [event(0, ts: 100), event(1, ts: 100), event(0, launch: "L2", ts: 900)]))
        let launches = try db.store.read { db in
            try Row.fetchAll(db, sql: "SELECT name, first_ts, last_ts, events FROM launch_rows ORDER BY name")
        }
        #expect(launches.map { $0["name"] as String } == ["L1", "L2"])
        #expect(launches[0]["first_ts"] == 100)
        #expect(launches[0]["last_ts"] == 101)
        #expect(launches[0]["events"] == 2)
        #expect(launches[1]["events"] == 1)
    }

    @Test func rejectsKeepTheirReasonAndRawBytes() throws {
        let db = try TemporaryDatabase()
        let fileID = try startFile(db.store, sha: "a")
        let bad = RejectedLine(line: 2, issue: LineIssue(.invalidJSON, "expected '}' at column 3"), raw: Array("{\"a".utf8))
        let invalid = RejectedLine(line: 3, issue: LineIssue(.invalidUTF8, "byte 0xC3"), raw: [0xC3, 0x28])
        let outcome = try EventWriter(store: db.store).write(batch(fileID: fileID, [event(0)], rejects: [bad, invalid]))
        #expect(outcome.rejects == 2)
        let rows = try db.store.read { try Row.fetchAll($0, sql: "SELECT line, reason, raw, typeof(raw) AS kind FROM rejects ORDER BY line") }
        #expect(rows[0]["reason"] == "invalid-json")
        #expect(rows[0]["raw"] == "{\"a")
        #expect(rows[0]["kind"] == "text")
        #expect(rows[1]["kind"] == "blob")
        let file = try db.store.files().first!
        #expect(file.rejects == 2)
        #expect(file.events == 1)
        #expect(file.lines == 3)
    }

    @Test func registeringTheSameContentTwiceAdoptsTheFirstRow() throws {
        let db = try TemporaryDatabase()
        let first = try startFile(db.store, sha: "a")
        let second = try EventWriter(store: db.store).transaction {
            try #require(try $0.register(FileRegistration(path: "copy", size: 1, sha256: "a", compression: "zstd")).fileID)
        }
        #expect(first == second)
    }

    @Test func aFileIsSkippedOnceDoneAndResumedWhileIngesting() throws {
        let db = try TemporaryDatabase()
        let fileID = try startFile(db.store, sha: "a")
        var partial = batch(fileID: fileID, [event(0), event(1)])
        partial.throughLine = 2
        let writer = EventWriter(store: db.store)
        try writer.write(partial)
        #expect(try db.store.admission(sha256: "a") == .resume(fileID: fileID, linesDone: 2))
        try writer.transaction {
            try $0.finish(fileID: fileID, FileEnding(damage: [
                StreamDamage(kind: .cut, from: 4, to: 10, lines: 0, exact: false, afterLine: 2, reason: "zstd frame cut short"),
            ]))
        }
        guard case .skip(let previous) = try db.store.admission(sha256: "a") else {
            Issue.record("expected skip")
            return
        }
        #expect(previous.truncated)
        #expect(previous.cutReason == "zstd frame cut short")
        #expect(previous.status == .done)
    }
}
