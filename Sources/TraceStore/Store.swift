import CSQLiteTuning
import Foundation
import GRDB

/// The SQLite database Lifeline keeps: created and upgraded by ``Migrations`` when opened,
/// in WAL mode so that readers (the `sqlite3` CLI, Datasette, a running `check`) never block
/// an ingest, and with a busy timeout so that two ingests on one file take turns instead of
/// failing with "database is locked".
public final class Store: Sendable {
    /// The default database file, in the current directory.
    public static let defaultPath = "lifeline.db"

    public let path: String
    let pool: DatabasePool

    /// Done once per process, before the first connection: SQLite's memory statistics take a
    /// global mutex on every allocation, which showed as the largest cost of a bulk load after
    /// SQLite's own work (see `CSQLiteTuning`). Nothing reads those statistics.
    private static let sqliteTuned: Void = {
        _ = lifeline_sqlite_disable_memory_statistics()
    }()

    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    public init(path: String, busyTimeout: TimeInterval = 600) throws {
        _ = Self.sqliteTuned
        self.path = path
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "lifeline"
        configuration.prepareDatabase { db in
            // page_size only takes effect on a new database, before WAL is enabled: 16 KiB pages
            // halve the B-tree work of a bulk load of ~200-byte rows (measured, see README).
            if try Int.fetchOne(db, sql: "PRAGMA page_count") == 0 {
                try db.execute(sql: "PRAGMA page_size = 16384")
            }
            try db.execute(sql: "PRAGMA cache_size = -16384")
        }
        do {
            // GRDB's WAL set-up also sets `synchronous = NORMAL` on the writer.
            pool = try StoreOpening.open(path: path, configuration: configuration, patience: busyTimeout)
        } catch {
            throw StoreError.cannotOpen(path: path, underlying: "\(error)")
        }
    }

    /// Runs `body` with the database for reading, on a snapshot that writers do not disturb.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.read(body)
    }

    /// Runs `body` inside one write transaction, begun IMMEDIATE: it takes the write lock
    /// first (waiting for another process that holds it) rather than failing when a read
    /// turns into a write under another writer.
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.writeWithoutTransaction { db in
            var result: T?
            try db.inTransaction(.immediate) {
                result = try body(db)
                return .commit
            }
            return result!
        }
    }
}
