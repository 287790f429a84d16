import Foundation
import GRDB
import Testing
@testable import TraceStore

/// Migration v10 gives each launch the envelope of its first event, which the `events` view lends
/// to the launch's lines that leave it out; two triggers keep it right after a change by hand.
@Suite struct LaunchEnvelopeMigrationTests {
    /// A version 9 store whose launch logged its envelope on its first line only: context 1 is the
    /// `launch` line's, context 2 the empty envelope of the rest.
    private static func version9Store() throws -> (directory: URL, path: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-v9-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("old.db").path
        let old = try DatabaseQueue(path: path)
        try Migrations.migrator.migrate(old, upTo: "v9: events packed per launch")
        try old.write { db in
            try db.execute(sql: """
                INSERT INTO devices (id, name) VALUES (1, 'D1');
                INSERT INTO launch_rows (id, device_id, name, first_ts, last_ts, events) VALUES (1, 1, 'L1', 10, 30, 3);
                INSERT INTO contexts (id, app, app_version, os, model, process)
                    VALUES (1, 'com.example.news', '5.12.0', '18.1', 'iPhone15,2', NULL), (2, NULL, NULL, NULL, NULL, NULL);
                INSERT INTO files (id, path, compression, status, started_at) VALUES (1, 'f', 'none', 'done', 'now');
                INSERT INTO event_rows (id, ts, seq, event, context_id, file_id, line) VALUES
                    ((1 << 32) | 0, 10, 0, 'launch', 1, 1, 1),
                    ((1 << 32) | 1, 20, 1, 'suspend', 2, 1, 2),
                    ((1 << 32) | 2, 30, 2, 'terminate', 2, 1, 3);
                -- Launch 2 logs its envelope on its second line only.
                INSERT INTO launch_rows (id, device_id, name, first_ts, last_ts, events) VALUES (2, 1, 'L2', 40, 60, 3);
                INSERT INTO event_rows (id, ts, seq, event, context_id, file_id, line) VALUES
                    ((2 << 32) | 0, 40, 0, 'launch', 2, 1, 4),
                    ((2 << 32) | 1, 50, 1, 'config', 1, 1, 5),
                    ((2 << 32) | 2, 60, 2, 'suspend', 2, 1, 6);
                """)
        }
        return (directory, path)
    }

    @Test func aVersion9StoreLendsEachLaunchsFirstEnvelopeToItsOtherLines() throws {
        let (directory, path) = try Self.version9Store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Store(path: path)
        let rows = try store.read {
            try Row.fetchAll($0, sql: "SELECT event, app, app_version, os, model, process FROM events ORDER BY id")
        }
        #expect(rows.map { $0["event"] as String } == ["launch", "suspend", "terminate", "launch", "config", "suspend"])
        #expect(rows.map { $0["app"] as String? } == Array(repeating: "com.example.news", count: 6))
        #expect(rows.map { $0["app_version"] as String? } == Array(repeating: "5.12.0", count: 6))
        #expect(rows.map { $0["os"] as String? } == Array(repeating: "18.1", count: 6))
        // The model is the first line's: L2's first line logs none, so only its config line shows one.
        #expect(rows.map { $0["model"] as String? } == ["iPhone15,2", "iPhone15,2", "iPhone15,2", nil, "iPhone15,2", nil])
        #expect(rows.map { $0["process"] as String? } == Array(repeating: nil, count: 6))
        let applied = try store.read { try Migrations.migrator.appliedMigrations($0) }
        #expect(applied.last == LaunchEnvelope.migrationIdentifier)
    }

    /// Deleting the launch's first line by hand makes the next one first: its envelope (none) is
    /// the launch's, so no line shows an envelope nothing logged for it any more.
    @Test func deletingTheFirstLineByHandMovesTheEnvelopeToTheNextLine() throws {
        let (directory, path) = try Self.version9Store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Store(path: path)
        try store.write { try $0.execute(sql: "DELETE FROM event_rows WHERE id = (1 << 32) | 0") }
        let apps = try store.read { try String?.fetchAll($0, sql: "SELECT app FROM events WHERE launch = 'L1' ORDER BY id") }
        #expect(apps == [nil, nil])

        try store.write { try $0.execute(sql: "UPDATE event_rows SET context_id = 1 WHERE id = (1 << 32) | 1") }
        let after = try store.read { try String?.fetchAll($0, sql: "SELECT os FROM events WHERE launch = 'L1' ORDER BY id") }
        #expect(after == ["18.1", "18.1"])
    }
}
