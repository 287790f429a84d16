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
    /// Used by the writing thread alone, so not checked for exclusive access at run time: three
    /// checks a row were 2.2% of the writing thread's instructions.
    @exclusivity(unchecked) private var row = RowBinding()
    /// Whose rows the files this writer registers or resumes are (see ``IngestClaim``).
    let claim: IngestClaim

    public init(store: Store, claim: IngestClaim = .unheld) {
        self.store = store
        self.claim = claim
    }

    /// Runs `body` in one IMMEDIATE transaction: everything it registers, writes and
    /// finishes commits together or not at all, so a kill at any moment leaves either all
    /// of it or none of it. Several small files share one transaction: a commit per file
    /// would cost more than the file.
    public func transaction<T>(_ body: (Transaction) throws -> T) throws -> T {
        do {
            return try store.write { db in
                try launches.beginTransaction(in: db)
                let result = try body(Transaction(writer: self, db: db))
                try launches.endTransaction(in: db)
                return result
            }
        } catch {
            launches.reset()
            contexts.reset()
            throw StoreError.writeFailed(what: "commit ingested lines", underlying: "\(error)")
        }
    }

    /// Writes one batch in a transaction of its own.
    @discardableResult
    public func write(_ batch: IngestBatch) throws -> BatchOutcome {
        try transaction { try $0.write(batch) }
    }

    /// The operations of one write transaction.
    public struct Transaction {
        let writer: EventWriter
        let db: Database

        /// Inserts a batch's events (ignoring ones already stored) and rejects, and advances
        /// the file's committed line count.
        public func write(_ batch: IngestBatch) throws -> BatchOutcome {
            try writer.insert(batch, in: db)
        }

        /// Marks a file done, with its damage and whole-file counts (see ``FileEnding``), and
        /// with its content hash when it could only be known at the end (a source read once),
        /// unless the same content is already on record, in which case this row keeps none.
        public func finish(fileID: Int64, _ ending: FileEnding, now: Date = Date()) throws {
            let cut = ending.cut
            try db.cachedStatement(sql: """
                UPDATE files SET status = 'done', ingested_at = :now,
                    sha256 = coalesce(sha256, CASE WHEN :sha IS NOT NULL
                        AND NOT EXISTS (SELECT 1 FROM files WHERE sha256 = :sha) THEN :sha END),
                    truncated = :truncated, cut_offset = :offset, cut_after_line = :after, cut_reason = :reason,
                    lines = max(lines, :lines), lost_lines = :lost, blank_lines = :blank, damage = :damage
                WHERE id = :id
                """).execute(arguments: [
                    "now": FileRecord.timestamp(now), "sha": ending.sha256, "truncated": cut != nil,
                    "offset": cut.map { Int64($0.to) }, "after": cut?.afterLine,
                    "reason": cut?.reason, "lines": ending.lines, "lost": ending.lostLines,
                    "blank": ending.blankLines, "damage": FileRecord.damageJSON(ending.damage), "id": fileID,
                ])
        }
    }

    fileprivate func insert(_ batch: IngestBatch, in db: Database) throws -> BatchOutcome {
        var outcome = BatchOutcome()
        let statement = try db.cachedStatement(sql: """
            INSERT INTO event_rows (id, ts, seq, mono, event, context_id, phase, reason, cause, task,
                identifier, call, success, result, attrs, file_id, line)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT DO NOTHING
            """)
        let stmt = statement.sqliteStatement
        guard let sqlite = db.sqliteConnection else {
            throw StoreError.writeFailed(what: "commit ingested lines", underlying: "the database connection is closed")
        }
        for index in batch.events.indices {
            let event = batch.events[index]
            let launch = try launches.entry(device: event.device, launch: event.launch, in: db)
            let contextID = try contexts.id(for: event, in: db)
            let line = batch.eventLines[index]
            let storedAs: Int64?
            if let rowID = EventIdentity.sequencedRowID(launchID: launch.id, seq: event.seq) {
                let stored = try step(stmt, rowID: rowID, event, contextID: contextID, line: line, fileID: batch.fileID, sqlite: sqlite)
                storedAs = stored ? rowID : nil
            } else {
                storedAs = try insertByContent(
                    stmt, event, launch: launch, contextID: contextID, line: line, fileID: batch.fileID, db: db, sqlite: sqlite)
            }
            if let storedAs {
                outcome.inserted += 1
                launch.added += 1
                launch.note(ts: event.ts.microseconds)
                launch.pack.append(rowID: storedAs, ts: event.ts.microseconds, contextID: contextID, body: batch.packedBody(index))
                launches.touched(launch)
            } else {
                outcome.duplicates += 1
            }
        }
        try launches.flush(in: db)
        outcome.rejects = batch.rejects.count
        outcome.rejectsAlreadyStored = try insertRejects(batch, in: db)
        try db.cachedStatement(sql: """
            UPDATE files SET lines = max(lines, ?), events = events + ?, duplicates = duplicates + ?,
                rejects = rejects + ?
            WHERE id = ?
            """).execute(
            arguments: [batch.throughLine, outcome.inserted, outcome.duplicates, outcome.rejects, batch.fileID])
        return outcome
    }

    /// Binds one event and runs the insert; false when an event with its identity is stored.
    private func step(
        _ stmt: OpaquePointer, rowID: Int64, _ event: Event, contextID: Int64, line: Int, fileID: Int64,
        sqlite: OpaquePointer
    ) throws -> Bool {
        row.integer(rowID, 1)
        row.integer(event.ts.microseconds, 2)
        row.integer(event.seq, 3)
        row.double(event.mono, 4)
        row.text(event.name, 5)
        row.integer(contextID, 6)
        row.text(event.phase, 7)
        row.text(event.reason, 8)
        row.text(event.cause, 9)
        row.integer(event.task, 10)
        row.text(event.identifier, 11)
        row.text(event.call, 12)
        row.integer(event.success.map { $0 ? 1 : 0 }, 13)
        row.text(event.result, 14)
        row.text(event.attrs, 15)
        row.integer(fileID, 16)
        row.integer(Int64(line), 17)
        let code = row.step(stmt)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite)))
        }
        return sqlite3_changes(sqlite) > 0
    }

    /// Stores an event identified by content unless its launch holds one with the same content
    /// (see ``UnsequencedIndex``, which says why this is exact); its row id if it was stored.
    private func insertByContent(
        _ stmt: OpaquePointer, _ event: Event, launch: LaunchDirectory.Entry, contextID: Int64, line: Int,
        fileID: Int64, db: Database, sqlite: OpaquePointer
    ) throws -> Int64? {
        let index = try launches.index(of: launch, in: db)
        guard case .absent(let key) = try index.lookup(event, contextID: contextID, in: db) else { return nil }
        guard index.nextOrdinal < EventIdentity.sequencedLimit else {
            throw StoreError.writeFailed(
                what: "store an event of launch \(event.launch)",
                underlying: "more than \(EventIdentity.sequencedLimit) events without seq in one launch")
        }
        let rowID = EventIdentity.unsequencedRowID(launchID: launch.id, ordinal: index.nextOrdinal)
        // The index holds every row of the launch's range, so the row id is free: a conflict
        // here means the index is wrong, and the transaction must not go on.
        guard try step(stmt, rowID: rowID, event, contextID: contextID, line: line, fileID: fileID, sqlite: sqlite) else {
            throw StoreError.writeFailed(
                what: "store an event of launch \(event.launch)", underlying: "row id \(rowID) is taken unexpectedly")
        }
        index.add(key: key, rowID: rowID)
        launch.unsequenced = index.nextOrdinal
        return rowID
    }

    /// Stores the batch's rejected lines, each once whatever input it came in (see
    /// ``RejectIdentity``); returns how many were already stored.
    private func insertRejects(_ batch: IngestBatch, in db: Database) throws -> Int {
        guard !batch.rejects.isEmpty else { return 0 }
        let statement = try db.cachedStatement(sql: """
            INSERT INTO rejects (file_id, line, reason, message, raw, raw_bytes, identity) VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT DO NOTHING
            """)
        var alreadyStored = 0
        for reject in batch.rejects {
            // Valid UTF-8 is stored as text, so that sqlite3 and Datasette show it as it was.
            let raw: ExactValue = String(validating: reject.raw, as: UTF8.self).map { .text($0) } ?? .blob(reject.raw)
            try ExactStatement.execute(statement, [
                .integer(batch.fileID), .integer(Int64(reject.line)), .text(reject.issue.reason.rawValue),
                .text(reject.issue.message), raw, .integer(Int64(reject.rawBytes)), .integer(RejectIdentity.of(reject)),
            ])
            if db.changesCount == 0 { alreadyStored += 1 }
        }
        return alreadyStored
    }
}
