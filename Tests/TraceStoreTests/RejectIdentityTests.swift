import Foundation
import GRDB
import Testing
import TraceModel
@testable import TraceStore

/// A bad line is stored once however often its input comes back, still counted as bad input
/// each time; two different bad lines are never merged.
@Suite struct RejectIdentityTests {
    private func reject(_ line: Int, _ text: String, _ reason: RejectReason = .invalidJSON) -> RejectedLine {
        RejectedLine(line: line, issue: LineIssue(reason, "bad"), raw: Array(text.utf8))
    }

    /// Registers a new input and commits `rejects` as its only lines.
    @discardableResult
    private func ingest(_ store: Store, _ path: String, _ rejects: [RejectedLine]) throws -> BatchOutcome {
        let writer = EventWriter(store: store)
        let fileID = try writer.transaction {
            try #require(try $0.register(FileRegistration(path: path, size: nil, sha256: nil, compression: "none")).fileID)
        }
        var batch = IngestBatch(fileID: fileID)
        batch.rejects = rejects
        batch.throughLine = rejects.map(\.line).max() ?? 0
        return try writer.write(batch)
    }

    private func storedRejects(_ store: Store) throws -> Int {
        try store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM rejects") } ?? -1
    }

    @Test func theSameStreamTwiceStoresItsBadLinesOnce() throws {
        let db = try TemporaryDatabase()
        let lines = [reject(2, "{\"a"), reject(5, "nope"), reject(9, "{\"a")]
        let first = try ingest(db.store, "-", lines)
        let second = try ingest(db.store, "-", lines)
        #expect(first.rejects == 3 && first.rejectsAlreadyStored == 0)
        #expect(second.rejects == 3 && second.rejectsAlreadyStored == 3)
        #expect(try storedRejects(db.store) == 3)
        // Each input's row still counts its bad lines.
        #expect(try db.store.files().map(\.rejects) == [3, 3])
    }

    @Test func aFileThatGrewStoresOnlyItsNewBadLines() throws {
        let db = try TemporaryDatabase()
        try ingest(db.store, "old.jsonl", [reject(2, "{\"a"), reject(3, "x", .cutShort)])
        // The same file, appended to: line 3 was completed (and is bad in another way), line 7 is new.
        let grown = try ingest(db.store, "new.jsonl", [reject(2, "{\"a"), reject(3, "xyz"), reject(7, "{\"a")])
        #expect(grown.rejectsAlreadyStored == 1)
        #expect(try storedRejects(db.store) == 4)
    }

    @Test func differentBadLinesAreNeverMerged() throws {
        let db = try TemporaryDatabase()
        let outcome = try ingest(db.store, "f", [
            reject(1, "same"), reject(2, "same"), reject(3, "other"), reject(4, "other", .notAnObject),
        ])
        #expect(outcome.rejectsAlreadyStored == 0)
        #expect(try storedRejects(db.store) == 4)
    }

    @Test func aRawLineWithANulIsStoredWhole() throws {
        let db = try TemporaryDatabase()
        try ingest(db.store, "f", [reject(1, "{\u{0}x")])
        let hex = try db.store.read { try String.fetchOne($0, sql: "SELECT hex(raw) FROM rejects") }
        #expect(hex == "7B0078")
    }
}
