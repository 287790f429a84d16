import Foundation
import GRDB
import GRDBSQLite
import TraceModel

/// Commits batches of decoded lines, one transaction each, on one writer connection.
///
/// The insert of event rows is the hot loop of an ingest, so it binds values straight onto
/// GRDB's prepared statement with the SQLite C API instead of building `StatementArguments`
/// per row (measured: see README, "Performance"). Everything else goes through GRDB.
public final class EventWriter {
    private let store: Store
    private let launches = LaunchDirectory()
    private let contexts = ContextDirectory()

    public init(store: Store) {
        self.store = store
    }

    /// Inserts a batch's events (ignoring ones already stored) and rejects, and advances the
    /// file's committed line count, atomically: a kill at any moment leaves either all of it
    /// or none of it.
    @discardableResult
    public func write(_ batch: IngestBatch) throws -> BatchOutcome {
        do {
            return try store.pool.writeWithoutTransaction { db in
                var outcome = BatchOutcome()
                try db.inTransaction(.immediate) {
                    outcome = try insert(batch, in: db)
                    return .commit
                }
                return outcome
            }
        } catch {
            launches.reset()
            contexts.reset()
            throw StoreError.writeFailed(what: "store lines up to \(batch.throughLine)", underlying: "\(error)")
        }
    }

    /// Marks a file done, with where its stream was cut if it was, and with its content hash
    /// when it could only be known at the end (standard input): unless the same content is
    /// already on record, in which case this row keeps none.
    public func finish(fileID: Int64, cut: FileCut?, sha256: String? = nil, now: Date = Date()) throws -> FileRecord {
        try store.pool.write { db in
            var record = try FileRecord.fetchOne(db, key: fileID)!
            if record.sha256 == nil, let sha256,
               try FileRecord.filter(Column("sha256") == sha256).fetchCount(db) == 0
            {
                record.sha256 = sha256
            }
            record.status = .done
            record.ingestedAt = ISO8601DateFormatter().string(from: now)
            if let cut {
                record.truncated = true
                record.cutOffset = Int64(cut.compressedOffset)
                record.cutAfterLine = cut.afterLine
                record.cutReason = cut.reason
            }
            try record.update(db)
            return record
        }
    }

    private func insert(_ batch: IngestBatch, in db: Database) throws -> BatchOutcome {
        var outcome = BatchOutcome()
        let statement = try db.cachedStatement(sql: """
            INSERT INTO event_rows (id, ts, seq, mono, event, context_id, phase, reason, cause, task,
                identifier, call, success, result, attrs, file_id, line, content_hash)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT DO NOTHING
            """)
        let stmt = statement.sqliteStatement
        let sqlite = db.sqliteConnection!
        for (index, event) in batch.events.enumerated() {
            let launch = try launches.entry(device: event.device, launch: event.launch, in: db)
            let contextID = try contexts.id(for: event, in: db)
            var rowID: Int64
            var contentHash: Int64?
            if let sequenced = EventIdentity.sequencedRowID(launchID: launch.id, seq: event.seq) {
                rowID = sequenced
            } else {
                rowID = EventIdentity.unsequencedRowID(launchID: launch.id, ordinal: launch.unsequenced)
                contentHash = EventIdentity.contentHash(event, launchID: launch.id)
            }
            var stored = try step(stmt, rowID: rowID, event, contextID: contextID, line: batch.eventLines[index],
                                  fileID: batch.fileID, contentHash: contentHash, sqlite: sqlite)
            if !stored, let contentHash, try !exists(contentHash: contentHash, in: db) {
                // Another process took this ordinal for a different unsequenced event of the
                // same launch: continue after the highest one stored.
                launch.unsequenced = try nextUnsequencedOrdinal(launchID: launch.id, in: db)
                rowID = EventIdentity.unsequencedRowID(launchID: launch.id, ordinal: launch.unsequenced)
                stored = try step(stmt, rowID: rowID, event, contextID: contextID, line: batch.eventLines[index],
                                  fileID: batch.fileID, contentHash: contentHash, sqlite: sqlite)
            }
            if stored {
                outcome.inserted += 1
                launch.added += 1
                launch.note(ts: event.ts.microseconds)
                if contentHash != nil { launch.unsequenced += 1 }
            } else {
                outcome.duplicates += 1
            }
        }
        sqlite3_reset(stmt)
        try launches.flush(in: db)
        outcome.rejects = try insertRejects(batch, in: db)
        try db.execute(
            sql: """
                UPDATE files SET lines = max(lines, ?), events = events + ?, duplicates = duplicates + ?,
                    rejects = rejects + ?
                WHERE id = ?
                """,
            arguments: [batch.throughLine, outcome.inserted, outcome.duplicates, outcome.rejects, batch.fileID])
        return outcome
    }

    /// Binds one event and runs the insert; false when an event with its identity is stored.
    private func step(
        _ stmt: OpaquePointer, rowID: Int64, _ event: Event, contextID: Int64, line: Int, fileID: Int64,
        contentHash: Int64?, sqlite: OpaquePointer
    ) throws -> Bool {
        sqlite3_reset(stmt)
        sqlite3_bind_int64(stmt, 1, rowID)
        sqlite3_bind_int64(stmt, 2, event.ts.microseconds)
        bind(event.seq, stmt, 3)
        bind(event.mono, stmt, 4)
        bind(event.name, stmt, 5)
        sqlite3_bind_int64(stmt, 6, contextID)
        bind(event.phase, stmt, 7)
        bind(event.reason, stmt, 8)
        bind(event.cause, stmt, 9)
        bind(event.task, stmt, 10)
        bind(event.identifier, stmt, 11)
        bind(event.call, stmt, 12)
        bind(event.success.map { $0 ? 1 : 0 }, stmt, 13)
        bind(event.result, stmt, 14)
        bind(event.attrs, stmt, 15)
        sqlite3_bind_int64(stmt, 16, fileID)
        sqlite3_bind_int64(stmt, 17, Int64(line))
        bind(contentHash, stmt, 18)
        let code = sqlite3_step(stmt)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite)))
        }
        return sqlite3_changes(sqlite) > 0
    }

    private func exists(contentHash: Int64, in db: Database) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM event_rows WHERE content_hash = ?)", arguments: [contentHash])!
    }

    private func nextUnsequencedOrdinal(launchID: Int64, in db: Database) throws -> Int64 {
        let first = EventIdentity.unsequencedRowID(launchID: launchID, ordinal: 0)
        let highest = try Int64.fetchOne(
            db, sql: "SELECT max(id) FROM event_rows WHERE id >= ? AND id < ?",
            arguments: [first, (launchID + 1) << 32])
        return highest.map { $0 - first + 1 } ?? 0
    }

    private func insertRejects(_ batch: IngestBatch, in db: Database) throws -> Int {
        guard !batch.rejects.isEmpty else { return 0 }
        let statement = try db.cachedStatement(sql: """
            INSERT INTO rejects (file_id, line, reason, message, raw, raw_bytes) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (file_id, line) DO NOTHING
            """)
        var inserted = 0
        for reject in batch.rejects {
            // Valid UTF-8 is stored as text, so that sqlite3 and Datasette show it as it was.
            let raw: DatabaseValue =
                String(validating: reject.raw, as: UTF8.self).map { $0.databaseValue }
                ?? Data(reject.raw).databaseValue
            try statement.execute(arguments: [
                batch.fileID, reject.line, reject.issue.reason.rawValue, reject.issue.message, raw,
                reject.rawBytes,
            ])
            inserted += db.changesCount
        }
        return inserted
    }
}

/// SQLite copies bound text before `sqlite3_bind_text` returns.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

private func bind(_ value: String?, _ stmt: OpaquePointer, _ index: Int32) {
    guard var text = value else { sqlite3_bind_null(stmt, index); return }
    text.withUTF8 { bytes in
        _ = sqlite3_bind_text(stmt, index, bytes.baseAddress, Int32(bytes.count), transient)
    }
}

private func bind(_ value: Int64?, _ stmt: OpaquePointer, _ index: Int32) {
    if let value { sqlite3_bind_int64(stmt, index, value) } else { sqlite3_bind_null(stmt, index) }
}

private func bind(_ value: Int?, _ stmt: OpaquePointer, _ index: Int32) {
    bind(value.map(Int64.init), stmt, index)
}

private func bind(_ value: Double?, _ stmt: OpaquePointer, _ index: Int32) {
    if let value { sqlite3_bind_double(stmt, index, value) } else { sqlite3_bind_null(stmt, index) }
}
