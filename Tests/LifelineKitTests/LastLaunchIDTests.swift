import Foundation
import GRDB
import LifelineKit
import Testing
import TraceModel

/// A launch's events are the row ids from `id << 32` up to the next launch's first: for the last
/// launch id the store allows (2³¹ − 1), the next would not fit in a row id, and the range must end
/// at the largest row id rather than wrap to a negative one (which read no event at all).
@Suite struct LastLaunchIDTests {
    @Test func theLastLaunchIDTheStoreAllowsIsReplayedWhole() throws {
        let workspace = try Workspace()
        let lines = launchLines(count: 20) + [
            #"{"ts":1763712020,"device":"D1","launch":"L1","seq":20,"event":"didEnterBackground","phase":"begin"}"#,
        ]
        let file = try workspace.write("log.jsonl", lines: lines)
        let store = try workspace.store()
        _ = Ingestor(store: store).ingest([file])
        let before = try Analyzer().check(store: store, options: CheckOptions(), version: "test")
        // Move the launch and its events to the last launch id.
        let queue = try DatabaseQueue(path: workspace.databasePath)
        try queue.write { db in
            let id = try Int64.fetchOne(db, sql: "SELECT id FROM launch_rows") ?? -1
            let last = Int64(Int32.max)
            try db.execute(sql: "UPDATE launch_rows SET id = ? WHERE id = ?", arguments: [last, id])
            try db.execute(
                sql: "UPDATE event_rows SET id = (? << 32) | (id & 4294967295) WHERE id >> 32 = ?", arguments: [last, id])
        }
        try queue.close()
        let after = try Analyzer().check(store: store, options: CheckOptions(), version: "test")
        #expect(before.events == lines.count)
        #expect(after.events == before.events)
        #expect(after.findings.count == before.findings.count)
    }
}
