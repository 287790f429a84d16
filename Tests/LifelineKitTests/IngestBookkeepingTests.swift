import Dispatch
import Foundation
import GRDB
import LifelineKit
import Synchronization
import Testing
import TraceModel
import TraceStore

/// Each ingest counts its own work, a file being read by a live ingest is left to it, and
/// a bad line is stored once however often it comes back.
@Suite struct IngestBookkeepingTests {
    private func count(_ store: Store, _ sql: String) throws -> Int {
        try store.read { try Int.fetchOne($0, sql: sql) } ?? -1
    }

    @Test func aFileBeingReadByALiveIngestIsSkippedThenResumedOnceItsOwnerIsGone() throws {
        let workspace = try Workspace()
        let file = try workspace.write("a.jsonl", lines: launchLines(count: 100))
        let store = try workspace.store()
        // Another ingest is half way through the file: registered, 40 lines committed.
        let owner = IngestClaim.begin()
        try registerPartlyRead(file, linesDone: 40, in: store, claim: owner)

        let meanwhile = Ingestor(store: store).ingest([file])
        #expect(meanwhile.files.map(\.outcome) == [.elsewhere])
        #expect(meanwhile.files[0].message?.hasPrefix("being ingested by process \(getpid()) since ") == true)
        #expect(meanwhile.lines == 0)
        #expect(try store.files()[0].lines == 40)

        owner.end()
        let after = Ingestor(store: store).ingest([file])
        #expect(after.files.map(\.outcome) == [.resumed])
        #expect(after.lines == 60)
        #expect(try store.files()[0].status == .done)
    }

    @Test func twoIngestsOfOneDirectoryAtOnceAddUpExactly() throws {
        let workspace = try Workspace()
        for index in 0..<40 {
            // Overlapping launches: file i+1 repeats half of file i's events.
            try workspace.write("in/f\(index).jsonl", lines: launchLines(count: 400, start: index * 200) + ["nope \(index)"])
        }
        let input = workspace.path("in")
        var small = Ingestor.Options()
        small.batchSize = 50
        let options = small
        let summaries = Mutex<[IngestSummary?]>([nil, nil])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let summary = (try? Store(path: workspace.databasePath)).map { Ingestor(store: $0, options: options).ingest([input]) }
            summaries.withLock { $0[index] = summary }
        }
        let first = try #require(summaries.withLock { $0[0] })
        let second = try #require(summaries.withLock { $0[1] })
        let store = try workspace.store()
        let stored = try count(store, "SELECT count(*) FROM events")
        #expect(stored == 200 * 41)
        #expect(first.events + second.events == stored)
        // Each file's lines were counted by exactly one of the two.
        for path in Set(first.files.map(\.path)) {
            let readers = (first.files + second.files).filter { $0.path == path && $0.lines > 0 }
            #expect(readers.count == 1, "\(path)")
            #expect(readers.first?.lines == 401)
        }
        #expect(first.lines + second.lines == 40 * 401)
        #expect(first.duplicates + second.duplicates == 40 * 400 - stored)
        #expect(first.rejects + second.rejects == 40)
        #expect(try count(store, "SELECT sum(events) FROM files") == stored)
        #expect(try count(store, "SELECT sum(duplicates) FROM files") == first.duplicates + second.duplicates)
        #expect(try count(store, "SELECT sum(lines) FROM files") == 40 * 401)
        #expect(try count(store, "SELECT count(*) FROM files WHERE status = 'done'") == 40)
    }

    @Test func aStreamLeftByADeadIngestIsMarkedInterruptedByTheNextIngest() throws {
        let workspace = try Workspace()
        let store = try workspace.store()
        let dead = IngestClaim.begin()
        let writer = EventWriter(store: store, claim: dead)
        let fileID = try writer.transaction {
            try #require(try $0.register(FileRegistration(path: "-", size: nil, sha256: nil, compression: "none")).fileID)
        }
        var batch = IngestBatch(fileID: fileID)
        batch.append(Event(ts: Timestamp(microseconds: 1), device: "D", launch: "L", name: "launch", seq: 0), line: 1)
        batch.throughLine = 1
        try writer.write(batch)
        dead.end()

        let file = try workspace.write("a.jsonl", lines: launchLines(count: 3))
        _ = Ingestor(store: store).ingest([file])
        #expect(try store.files().first { $0.id == fileID }?.status == .interrupted)
        #expect(try count(store, "SELECT count(*) FROM events") == 4)
    }

    @Test func aFileThatGrewIsReIngestedWithoutCopiesOfItsBadLines() throws {
        let workspace = try Workspace()
        let lines = launchLines(count: 5) + ["{\"broken", "[1]"] + launchLines(count: 5, start: 5)
        let first = try workspace.write("day.jsonl", lines: lines)
        let grown = try workspace.write("day-later.jsonl", lines: lines + ["{\"broken"] + launchLines(count: 2, start: 10))
        let store = try workspace.store()
        let before = Ingestor(store: store).ingest([first])
        let after = Ingestor(store: store).ingest([grown])
        #expect(before.rejects == 2)
        #expect(after.rejects == 3, "a bad line seen again is still bad input")
        #expect(after.events == 2)
        #expect(try count(store, "SELECT count(*) FROM rejects") == 3)
        #expect(try count(store, "SELECT count(*) FROM events") == 12)
    }
}
