import Foundation
import GRDB
import Testing
import TraceModel
@testable import TraceStore

/// Ad-hoc questions against the `events` view must stay index lookups or one scan: a plan
/// that joins every launch to every event turns a one-second query into an hour.
@Suite struct EventsViewTests {
    private func populatedStore() throws -> Store {
        let db = try TemporaryDatabase()
        let writer = EventWriter(store: db.store)
        let fileID = try writer.transaction {
            try #require(try $0.register(FileRegistration(path: "f", size: 1, sha256: "f", compression: "none")).fileID)
        }
        var batch = IngestBatch(fileID: fileID)
        for device in 0..<20 {
            for launch in 0..<10 {
                for seq in 0..<20 {
                    batch.append(Event(ts: Timestamp(microseconds: Int64(seq)), device: "D\(device)",
                                       launch: "L\(launch)", name: seq == 19 ? "terminate" : "snapshot",
                                       seq: Int64(seq), os: "17.\(device % 3)"), line: batch.events.count + 1)
                }
            }
        }
        batch.throughLine = batch.events.count
        try writer.write(batch)
        return db.store
    }

    private func plan(_ store: Store, _ sql: String) throws -> String {
        try store.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }.joined(separator: "\n")
        }
    }

    @Test func aScanOfEventsFindsEachLaunchByRowid() throws {
        let store = try populatedStore()
        let plan = try plan(store, "SELECT os, count(*) FROM events WHERE event = 'terminate' GROUP BY os")
        #expect(plan.contains("SCAN e"), "\(plan)")
        #expect(plan.contains("SEARCH l USING INTEGER PRIMARY KEY (rowid=?)"), "\(plan)")
        #expect(!plan.contains("AUTOMATIC"), "\(plan)")
        #expect(try store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM events WHERE event = 'terminate'") } == 200)
    }

    @Test func oneDeviceOrLaunchIsARangeOfRowids() throws {
        let store = try populatedStore()
        for sql in ["SELECT count(*) FROM events WHERE device = 'D3'",
                    "SELECT count(*) FROM events WHERE device = 'D3' AND launch = 'L4'"] {
            let plan = try plan(store, sql)
            #expect(plan.contains("SEARCH e USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)"), "\(sql)\n\(plan)")
            #expect(!plan.contains("SCAN e"), "\(sql)\n\(plan)")
        }
        #expect(try store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM events WHERE device = 'D3'") } == 200)
    }
}
