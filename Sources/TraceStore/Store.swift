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
    /// `path` as SQLite is given it (see ``sqlitePath(for:)``).
    private let sqlitePath: String
    let pool: DatabasePool
    /// Work this store does on threads of its own, waited for when it is released.
    private let background = DispatchGroup()
    /// Where ``checkpointInBackground()`` runs its copies, one after the other.
    private let checkpoints = DispatchQueue(label: "lifeline-checkpoints")

    deinit {
        background.wait()
    }

    /// Copies the WAL into the database file now, on a thread of its own, rather than when the
    /// store is closed: a `check` that wrote its derived tables leaves tens of megabytes there.
    /// Called as soon as the replay's read has ended, the copy runs while the caller saves its
    /// findings and prints its report; called again after the save, it copies what the save
    /// added. Each copy runs after the one asked for before it, on a connection of its own, so that
    /// it never waits for the writer's transaction (a passive checkpoint needs no write lock). The
    /// store waits for them before it closes.
    public func checkpointInBackground() {
        let path = sqlitePath
        background.enter()
        checkpoints.async { [background] in
            defer { background.leave() }
            var configuration = Configuration()
            configuration.label = "lifeline-checkpoint"
            _ = try? DatabaseQueue(path: path, configuration: configuration)
                .writeWithoutTransaction { try $0.checkpoint(.passive) }
        }
    }

    /// Done once per process, before the first connection: SQLite's memory statistics take a
    /// global mutex on every allocation, which showed as the largest cost of a bulk load after
    /// SQLite's own work (see `CSQLiteTuning`). Nothing reads those statistics.
    private static let sqliteTuned: Void = {
        _ = lifeline_sqlite_disable_memory_statistics()
        _ = lifeline_sqlite_enable_uri()
    }()

    /// `path` as SQLite must be given it: SQLite reads a name that begins with `file:` as a URI
    /// (URIs are on for the whole process, so that a read-only file can be opened `immutable`),
    /// so such a relative path is given as `./file:…`, naming the file the user named.
    public static func sqlitePath(for path: String) -> String {
        path.hasPrefix("file:") ? "./" + path : path
    }

    /// How a command may use the file.
    public enum Access: Sendable {
        /// Create the file if it is missing, and bring its schema up to date (ingest).
        case create
        /// Use an existing Lifeline file only, bringing its schema up to date (`check` without
        /// PATHs); an empty file, or one of other data, is refused.
        case existing
        /// Read an existing, up-to-date file without writing anything to it (`timeline`): works
        /// on a write-protected file or directory.
        case readOnly
    }

    /// Opens the database at `path` as `access` allows. Whatever the access, a file written by
    /// a newer Lifeline is refused before anything is written to it (``StoreOpeningError``).
    public init(path: String, access: Access = .create, busyTimeout: TimeInterval = 600) throws {
        _ = Self.sqliteTuned
        self.path = path
        sqlitePath = Self.sqlitePath(for: path)
        try Self.admit(path: path, access: access)
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "lifeline"
        configuration.readonly = access == .readOnly
        configuration.prepareDatabase { db in
            // page_size only takes effect on a new database, before WAL is enabled: 16 KiB pages
            // halve the B-tree work of a bulk load of ~200-byte rows (measured, see README).
            if try Int.fetchOne(db, sql: "PRAGMA page_count") == 0 {
                try db.execute(sql: "PRAGMA page_size = 16384")
            }
            try db.execute(sql: "PRAGMA cache_size = -16384")
        }
        do {
            if access == .readOnly {
                pool = try Self.openReadOnly(path: sqlitePath, configuration: configuration)
            } else {
                // GRDB's WAL set-up also sets `synchronous = NORMAL` on the writer.
                pool = try StoreOpening.open(path: sqlitePath, configuration: configuration, patience: busyTimeout)
            }
        } catch let refusal as StoreOpeningError {
            throw refusal
        } catch {
            throw StoreError.cannotOpen(path: path, underlying: "\(error)")
        }
        if access == .readOnly {
            // Authoritative, through the connection that will be used (the first look may not
            // have been able to read the file).
            let applied = try pool.read(Migrations.migrator.appliedIdentifiers)
            try Self.refuseReadOnly(path: path, SchemaCheck.verdict(applied: applied))
        }
    }

    /// A read-only pool. SQLite reads a WAL-mode file through its -shm file, which it cannot make
    /// in a directory the user cannot write: with no -shm and no -wal beside the file, it is then
    /// opened as `immutable` (no lock, no -shm). No -wal means no write is pending; a writer
    /// that begins meanwhile (it needs the directory's write permission) is not seen.
    private static func openReadOnly(path: String, configuration: Configuration) throws -> DatabasePool {
        do {
            return try DatabasePool(path: path, configuration: configuration)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY || error.resultCode == .SQLITE_CANTOPEN {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            let manager = FileManager.default
            guard !manager.fileExists(atPath: path + "-wal"), !manager.fileExists(atPath: path + "-shm"),
                  !manager.isWritableFile(atPath: directory), let uri = SchemaCheck.fileURI(path, immutable: true)
            else { throw error }
            return try DatabasePool(path: uri, configuration: configuration)
        }
    }

    /// Checks the file before any connection that could write to it (or leave a -wal or -shm
    /// file beside it) is opened. When the first look cannot read the file (another process is
    /// creating it this instant), the checks made through the opened connection decide.
    private static func admit(path: String, access: Access) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            if access != .create { throw StoreOpeningError.missing(path: path) }
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw StoreOpeningError.directoryMissing(path: path, directory: directory)
            }
            return
        }
        if SchemaCheck.isSpecialFile(path: path) { throw StoreOpeningError.notAFile(path: path) }
        guard let applied = try? SchemaCheck.appliedMigrations(path: path) else {
            if SchemaCheck.isOtherFile(path: path) { throw StoreOpeningError.notADatabase(path: path) }
            return
        }
        var verdict = SchemaCheck.verdict(applied: applied)
        // A mistyped --db naming another program's database: its tables stay its own. Each look
        // is a read of its own, and another process creating the store may commit its first
        // migration between them: tables seen after no migration was are read again for one.
        if case .empty = verdict, let tables = try? SchemaCheck.tables(path: path), !tables.isEmpty {
            let again = (try? SchemaCheck.appliedMigrations(path: path)) ?? []
            guard !again.isEmpty else { throw StoreOpeningError.foreign(path: path, tables: tables) }
            verdict = SchemaCheck.verdict(applied: again)
        }
        if case .newer(let unknown) = verdict { throw StoreOpeningError.newerSchema(path: path, unknown: unknown) }
        // Only a command given logs to store may make an empty file Lifeline's.
        if case .empty = verdict, access != .create { throw StoreOpeningError.notLifeline(path: path) }
        if access == .readOnly { try refuseReadOnly(path: path, verdict) }
    }

    /// A read-only opening can use only a file whose schema is exactly this build's.
    private static func refuseReadOnly(path: String, _ verdict: SchemaCheck.Verdict) throws {
        switch verdict {
        case .empty: throw StoreOpeningError.notLifeline(path: path)
        case .newer(let unknown): throw StoreOpeningError.newerSchema(path: path, unknown: unknown)
        case .known(let missing) where !missing.isEmpty: throw StoreOpeningError.olderSchema(path: path, missing: missing)
        case .known: break
        }
    }

    /// Runs `body` with the database for reading, on a snapshot that writers do not disturb.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.read(body)
    }

    /// Sets the writer connection's `wal_autocheckpoint` (0: none); returns the value it had.
    func automaticCheckpoint(pages: Int) throws -> Int {
        try pool.writeWithoutTransaction { db in
            let previous = try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") ?? 1000
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(pages)")
            return previous
        }
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
