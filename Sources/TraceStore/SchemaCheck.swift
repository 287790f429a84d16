import Foundation
import GRDB
#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

/// What a database's `grdb_migrations` says about it, next to the migrations this build knows.
enum SchemaCheck {
    enum Verdict: Equatable {
        /// No Lifeline migration applied: a new (or foreign) file.
        case empty
        /// Every applied migration is known; `missing` are the known ones still to apply.
        case known(missing: [String])
        /// Some applied migrations are unknown: a newer Lifeline wrote the file.
        case newer(unknown: [String])
    }

    /// Compares the applied identifiers with the known ones, in the known order.
    static func verdict(applied: Set<String>, known: [String] = Migrations.migrator.migrations) -> Verdict {
        let unknown = applied.subtracting(known).sorted()
        if !unknown.isEmpty { return .newer(unknown: unknown) }
        if applied.isEmpty { return .empty }
        return .known(missing: known.filter { !applied.contains($0) })
    }

    /// Reads the applied migrations of an existing file without writing anything to it or
    /// beside it: SQLite's `immutable` mode takes no lock and creates no -wal or -shm file, so a
    /// file refused afterwards is left exactly as it was. When a -wal file exists (a process
    /// has the database open, or died with it open) the file is read normally instead, so that
    /// migrations still in the WAL are seen.
    static func appliedMigrations(path: String) throws -> Set<String> {
        try reading(path) { try query($0, path: path) }
    }

    /// The tables of a file in which ``appliedMigrations(path:)`` found no migration, read the
    /// same way: those of a foreign database, which Lifeline must not make its own. SQLite's own
    /// and GRDB's list of migrations are left out: another process creating the store this
    /// instant has made the list before its first migration commits.
    static func tables(path: String) throws -> [String] {
        try reading(path) { handle in
            try scalars(handle, """
                SELECT name FROM sqlite_master
                WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name != 'grdb_migrations' ORDER BY name
                """, path: path)
        }
    }

    /// Whether `path` is a file that begins with something other than SQLite's header (a file of
    /// under 16 bytes may be one being created, and is left to the opening to judge).
    static func isOtherFile(path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 16), head.count == 16 else { return false }
        return head != Data("SQLite format 3\u{0}".utf8)
    }

    /// Whether `path`, links followed, is neither a regular file nor a directory: a named pipe
    /// would block the first read until something wrote to it, and a device or socket is no
    /// database either.
    static func isSpecialFile(path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        let kind = status.st_mode & S_IFMT
        return kind != S_IFREG && kind != S_IFDIR
    }

    /// Runs `body` with a read-only connection to `path` (immutable unless a -wal file exists).
    private static func reading<T>(_ path: String, _ body: (OpaquePointer) throws -> T) throws -> T {
        let immutable = !FileManager.default.fileExists(atPath: path + "-wal")
        guard let uri = fileURI(path, immutable: immutable) else {
            throw StoreError.cannotOpen(path: path, underlying: "the path cannot be read as a URI")
        }
        var handle: OpaquePointer?
        defer { sqlite3_close_v2(handle) }
        let opened = sqlite3_open_v2(uri, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil)
        guard opened == SQLITE_OK, let handle else {
            throw StoreError.cannotOpen(path: path, underlying: Self.message(handle, opened))
        }
        sqlite3_busy_timeout(handle, 5000)
        return try body(handle)
    }

    /// `path` as a `file:` URI (absolute, escaped), with `?immutable=1` when asked.
    static func fileURI(_ path: String, immutable: Bool) -> String? {
        var url = URLComponents()
        url.scheme = "file"
        url.path = URL(fileURLWithPath: path).path
        if immutable { url.queryItems = [URLQueryItem(name: "immutable", value: "1")] }
        return url.string
    }

    private static func query(_ handle: OpaquePointer, path: String) throws -> Set<String> {
        let exists = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'grdb_migrations'"
        guard try scalars(handle, exists, path: path).first == "1" else { return [] }
        return Set(try scalars(handle, "SELECT identifier FROM grdb_migrations", path: path))
    }

    /// The first column of every row of `sql`, as text.
    private static func scalars(_ handle: OpaquePointer, _ sql: String, path: String) throws -> [String] {
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        var code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        var values: [String] = []
        while code == SQLITE_OK || code == SQLITE_ROW {
            code = sqlite3_step(statement)
            if code == SQLITE_ROW, let text = sqlite3_column_text(statement, 0) { values.append(String(cString: text)) }
        }
        guard code == SQLITE_DONE else { throw StoreError.cannotOpen(path: path, underlying: message(handle, code)) }
        return values
    }

    private static func message(_ handle: OpaquePointer?, _ code: Int32) -> String {
        if let handle, let text = sqlite3_errmsg(handle) { return String(cString: text) }
        return String(cString: sqlite3_errstr(code))
    }
}
