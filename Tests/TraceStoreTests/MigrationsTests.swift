import Foundation
import GRDB
import Synchronization
import Testing
@testable import TraceStore

@Suite struct MigrationsTests {
    @Test func aNewDatabaseHasThePublicNamesAndSixteenKilobytePages() throws {
        let db = try TemporaryDatabase()
        let names = try db.store.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name")
        }
        for name in ["events", "files", "rejects", "launches", "devices"] { #expect(names.contains(name)) }
        let pageSize = try db.store.read { try Int.fetchOne($0, sql: "PRAGMA page_size") }
        #expect(pageSize == 16384)
        let journal = try db.store.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(journal == "wal")
        let synchronous = try db.store.write { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
        #expect(synchronous == 1, "NORMAL, safe in WAL mode")
    }

    @Test func reopeningAnExistingDatabaseKeepsItsData() throws {
        let db = try TemporaryDatabase()
        try EventWriter(store: db.store).transaction {
            _ = try $0.register(FileRegistration(path: "x", size: 1, sha256: "s", compression: "none"))
        }
        let reopened = try Store(path: db.store.path)
        #expect(try reopened.files().map(\.path) == ["x"])
    }

    /// Several processes (here: separate connections) opening one new file at once must all
    /// succeed: each must see the migrations another one applied meanwhile instead of running
    /// them again into "table already exists".
    @Test func storesOpenedAtOnceOnANewFileAllSucceed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-race-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for round in 0..<60 {
            let path = directory.appendingPathComponent("race-\(round).db").path
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                do { _ = try Store(path: path) } catch { failures.withLock { $0.append("\(error)") } }
            }
            #expect(failures.withLock { $0 } == [], "round \(round)")
            let applied = try Store(path: path).read { try Migrations.migrator.appliedMigrations($0) }
            #expect(applied == Migrations.migrator.migrations)
        }
    }
}
