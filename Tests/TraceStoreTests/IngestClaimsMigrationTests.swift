import Foundation
import GRDB
import Testing
@testable import TraceStore

/// A database made before migration v4 is upgraded in place: its files and rejects are kept
/// with their ids, a stream can be marked `interrupted`, and old rejects get their identity.
@Suite struct IngestClaimsMigrationTests {
    @Test func aVersion2DatabaseIsUpgradedWithItsRowsKept() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-v2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("old.db").path
        do {
            let old = try DatabaseQueue(path: path)
            try Migrations.migrator.migrate(old, upTo: "v2: runs, findings")
            try old.write { db in
                try db.execute(sql: """
                    INSERT INTO files (id, path, sha256, compression, status, lines, rejects, started_at)
                    VALUES (7, '-', NULL, 'none', 'ingesting', 4, 2, '2026-01-01T00:00:00Z'),
                           (9, 'a.jsonl', 'abc', 'none', 'done', 4, 2, '2026-01-01T00:00:00Z');
                    INSERT INTO rejects (file_id, line, reason, message, raw, raw_bytes)
                    VALUES (7, 2, 'invalid-json', 'bad', '{"a', 3), (9, 2, 'invalid-json', 'bad', '{"a', 3),
                           (9, 3, 'invalid-json', 'bad', 'x', 1);
                    """)
            }
        }
        let store = try Store(path: path)
        let files = try store.files()
        #expect(files.map(\.id) == [9, 7])
        #expect(files.map(\.lines) == [4, 4])
        // An old stream row left `ingesting` by an ingest that died (no claim) is interrupted.
        #expect(try store.interruptAbandonedStreams() == 1)
        #expect(try store.files().map(\.status) == [.done, .interrupted])
        let identities = try store.read {
            try Row.fetchAll($0, sql: "SELECT file_id, line, identity IS NOT NULL FROM rejects ORDER BY id")
        }
        // The copy stored twice (what v4 stops) keeps its row; only the first holds the identity.
        #expect(identities.map { [$0[0], $0[1], $0[2]] as [Int] } == [[7, 2, 1], [9, 2, 0], [9, 3, 1]])
        let integrity = try store.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
        #expect(integrity == "ok")
        let view = try store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM events") }
        #expect(view == 0)
    }
}
