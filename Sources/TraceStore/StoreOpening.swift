import Foundation
import GRDB

/// Opens a database file and brings its schema up to date while other processes may be doing
/// the same to the same file — two `lifeline ingest` runs started at once on a new database.
///
/// Two races end that in an error although nothing is wrong, and both mean that another
/// process has just made progress, so trying again settles them:
/// - switching a new file to WAL needs an exclusive lock, and SQLite answers `SQLITE_BUSY`
///   at once instead of waiting when waiting could deadlock two connections that both read;
/// - GRDB's migrator reads which migrations are applied before it takes the write lock for
///   each one, so two processes may both start the same migration, and the second fails with
///   "table already exists" once the first has committed it. Each migration is one
///   transaction, so the database is never left half migrated.
enum StoreOpening {
    static func open(path: String, configuration: Configuration, patience: TimeInterval) throws -> DatabasePool {
        let deadline = Date().addingTimeInterval(patience)
        var attempt = 0
        while true {
            do {
                let pool = try DatabasePool(path: path, configuration: configuration)
                try migrate(pool)
                return pool
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && Date() < deadline {
                attempt += 1
                Thread.sleep(forTimeInterval: min(0.005 * Double(attempt), 0.1))
            }
        }
    }

    /// Runs the unapplied migrations; when one fails after another process applied some
    /// meanwhile, reads the applied set again and goes on from there. A failure with no such
    /// progress is a real one and is thrown.
    static func migrate(_ pool: DatabasePool) throws {
        let migrator = Migrations.migrator
        while true {
            let appliedBefore = try pool.read(migrator.appliedIdentifiers)
            // Checked again here because a newer Lifeline may have migrated the file since it was
            // first read, and GRDB's migrator must never see migrations it does not know.
            if case .newer(let unknown) = SchemaCheck.verdict(applied: appliedBefore) {
                throw StoreOpeningError.newerSchema(path: pool.path, unknown: unknown)
            }
            do {
                try migrator.migrate(pool)
                // The reader that looked at the schema before the migrations keeps what it saw
                // cached (a `SELECT *` then decodes with the old columns): start readers afresh.
                if appliedBefore.count < migrator.migrations.count { pool.invalidateReadOnlyConnections() }
                return
            } catch {
                let appliedAfter = try pool.read(migrator.appliedIdentifiers)
                guard appliedAfter != appliedBefore else { throw error }
            }
        }
    }
}
