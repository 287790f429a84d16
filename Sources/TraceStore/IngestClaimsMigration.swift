import Foundation
import GRDB

/// Migration "v4: ingest claims and reject identity".
///
/// - `files` learns who is reading a file (`claim_pid`, `claim_start`, `claim_run`, `claimed_at`; see
///   ``IngestClaim``) and a third status, `interrupted`: a stream (standard input, a pipe)
///   whose ingest died cannot be resumed, so its row must not stay `ingesting` forever.
/// - `rejects` learns an `identity` (see ``RejectIdentity``) with a unique index, so that a
///   bad line seen again is not stored again.
enum IngestClaimsMigration {
    static let identifier = "v4: ingest claims and reject identity"

    static func migrate(_ db: Database) throws {
        try widenFileStatus(db)
        try db.execute(sql: """
            ALTER TABLE files ADD COLUMN claim_pid INTEGER;
            ALTER TABLE files ADD COLUMN claim_start TEXT;
            ALTER TABLE files ADD COLUMN claim_run INTEGER;
            ALTER TABLE files ADD COLUMN claimed_at TEXT;
            ALTER TABLE rejects ADD COLUMN identity INTEGER;
            CREATE UNIQUE INDEX rejects_by_identity ON rejects(identity) WHERE identity IS NOT NULL;
            """)
        try RejectIdentity.backfill(db)
    }

    static let narrowStatusCheck = "CHECK (status IN ('ingesting', 'done'))"
    static let wideStatusCheck = "CHECK (status IN ('ingesting', 'done', 'interrupted'))"

    /// SQLite cannot alter a CHECK constraint, so `files` is rebuilt the way SQLite documents
    /// (ALTER TABLE, "making other kinds of table schema changes"): a new table from the
    /// current definition with only the CHECK changed — whatever columns earlier migrations
    /// added come along — the rows copied with their ids, the old table dropped and the new
    /// one renamed, its indexes made again. Views are dropped and made again around it, since
    /// SQLite checks every view when a table is renamed. Foreign keys (`rejects.file_id`) are
    /// not checked inside a migration (GRDB defers them to its end), and the ids are kept.
    private static func widenFileStatus(_ db: Database) throws {
        guard let definition = try String.fetchOne(
            db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'files'"),
            definition.contains(narrowStatusCheck),
            let createPrefix = definition.range(of: "CREATE TABLE files")
        else {
            throw StoreError.writeFailed(
                what: "upgrade the files table", underlying: "its definition is not the one this migration knows")
        }
        let indexes = try String.fetchAll(
            db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'files' AND sql IS NOT NULL")
        let views = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'view'")
        for view in views { try db.execute(sql: "DROP VIEW \((view["name"] as String).quotedDatabaseIdentifier)") }
        let rebuilt = definition.replacingCharacters(in: createPrefix, with: "CREATE TABLE files_v4")
            .replacingOccurrences(of: narrowStatusCheck, with: wideStatusCheck)
        try db.execute(sql: rebuilt)
        try db.execute(sql: "INSERT INTO files_v4 SELECT * FROM files")
        try db.execute(sql: "DROP TABLE files")
        try db.execute(sql: "ALTER TABLE files_v4 RENAME TO files")
        for index in indexes { try db.execute(sql: index) }
        for view in views { try db.execute(sql: view["sql"]) }
    }
}
