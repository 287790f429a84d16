import Foundation
import GRDB
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
    }

    @Test func reopeningAnExistingDatabaseKeepsItsData() throws {
        let db = try TemporaryDatabase()
        try EventWriter(store: db.store).transaction {
            _ = try $0.register(FileRegistration(path: "x", size: 1, sha256: "s", compression: "none"))
        }
        let reopened = try Store(path: db.store.path)
        #expect(try reopened.files().map(\.path) == ["x"])
    }
}
