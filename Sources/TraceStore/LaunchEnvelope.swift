import GRDB
import GRDBSQLite

/// A launch's envelope — its app, app version, OS, model and process — is its first event's, in
/// the order the replay reads the launch: its lowest `seq` (its lowest row id), or, for a launch
/// that logs none (or only counters too large for a row id), its earliest by `seq`, then `ts`,
/// then the order stored. Nothing in it can change within one process, so a team may log it on
/// the `launch` line only: it is the envelope `check` quotes for the launch, and the one the
/// `events` view gives every line of the launch (a line's own value only where the launch's
/// first line left the field out). So a `terminate` the next process logs on the launch's behalf,
/// stamped with that process's version, still counts under the version that was killed.
///
/// Where the first line leaves out the app, version or OS, the earliest line that logs each
/// completes it (``complete(_:contexts:in:)``): a launch that logs its envelope on its `config`
/// line still belongs to its app.
///
/// `launch_rows.context_id` names it (and `launch_rows.app` … `process` copy it), set again by every ingest transaction that adds to the
/// launch (a later upload may bring an earlier line) and by a change made by hand to its events
/// (which sets the first line's, not completed).
enum LaunchEnvelope {
    /// The `contexts` id of the first event of the launch whose row id is `launchID`: the lowest
    /// sequenced row id (one seek), else the earliest of its rows identified by content.
    static func firstContext(of launchID: String) -> String {
        """
        coalesce(
            (SELECT e.context_id FROM event_rows e
             WHERE e.id >= (\(launchID) << 32) AND e.id < (\(launchID) << 32) + \(EventIdentity.sequencedLimit)
             ORDER BY e.id LIMIT 1),
            (SELECT e.context_id FROM event_rows e
             WHERE e.id >= (\(launchID) << 32) + \(EventIdentity.sequencedLimit) AND e.id < ((\(launchID) + 1) << 32)
             ORDER BY e.seq IS NULL, e.seq, e.ts, e.id LIMIT 1))
        """
    }

    /// The envelope's fields, copied from `contexts` into the launch's row by a trigger whenever its
    /// `context_id` changes: the `events` view reads them from the launch row it joins anyway,
    /// where a join to the launch's context cost a quarter more on a `GROUP BY os` of every event.
    static let fields = ["app", "app_version", "os", "model", "process"]

    /// An envelope column of the `events` view: the launch's value, else the line's own.
    private static func column(_ name: String) -> String {
        "coalesce(l.\(name), c.\(name)) AS \(name)"
    }

    /// Completes the envelope of each launch in `launchIDs` whose first line leaves out its app,
    /// version or OS with the values its later lines log (each field from the earliest line that
    /// logs it), and names that envelope's context in `launch_rows.context_id`. A launch whose
    /// first line logs all three, as most do, costs a lookup.
    static func complete(_ launchIDs: [Int64], contexts: ContextDirectory, in db: Database) throws {
        let first = try db.cachedStatement(sql: "SELECT context_id FROM launch_rows WHERE id = ?")
        let others = try db.cachedStatement(sql: """
            SELECT context_id FROM event_rows WHERE id >= ?1 AND id < ?2 GROUP BY context_id ORDER BY min(id)
            """)
        let update = try db.cachedStatement(sql: "UPDATE launch_rows SET context_id = ? WHERE id = ?")
        for launchID in launchIDs {
            guard let firstID = try ExactStatement.integer(first, [.integer(launchID)]) else { continue }
            let envelope = try contexts.key(of: firstID, in: db)
            guard envelope.app == nil || envelope.appVersion == nil || envelope.os == nil else { continue }
            var completed = envelope
            let contextIDs = try ExactStatement.fetchAll(
                others, [.integer(EventIdentity.launchStart(launchID)), .integer(EventIdentity.launchEnd(launchID))]
            ) { sqlite3_column_int64($0, 0) }
            for id in contextIDs where id != firstID {
                completed = completed.completed(by: try contexts.key(of: id, in: db))
            }
            guard completed != envelope else { continue }
            try ExactStatement.execute(update, [.integer(try contexts.id(for: completed, in: db)), .integer(launchID)])
        }
    }

    static let migrationIdentifier = "v10: a launch's envelope for the lines that leave it out"

    /// Migration v10: `launch_rows.context_id`, filled (and completed) for the launches stored before, the triggers
    /// that keep it right after a change by hand, and the `events` view that reads it.
    static func migrate(_ db: Database) throws {
        let columns = fields.map(column).joined(separator: ",\n       ")
        let added = fields.map { "ALTER TABLE launch_rows ADD COLUMN \($0) TEXT;" }.joined(separator: "\n")
        let names = fields.joined(separator: ", ")
        try db.execute(sql: """
            ALTER TABLE launch_rows ADD COLUMN context_id INTEGER;
            \(added)
            CREATE TRIGGER launch_rows_envelope AFTER UPDATE OF context_id ON launch_rows
            WHEN old.context_id IS NOT new.context_id BEGIN
                UPDATE launch_rows SET (\(names)) = (SELECT \(names) FROM contexts WHERE id = new.context_id)
                WHERE id = new.id;
            END;
            UPDATE launch_rows SET context_id = \(firstContext(of: "launch_rows.id"));
            CREATE TRIGGER event_rows_deleted_envelope AFTER DELETE ON event_rows BEGIN
                UPDATE launch_rows SET context_id = \(firstContext(of: "launch_rows.id")) WHERE id = old.id >> 32;
            END;
            CREATE TRIGGER event_rows_updated_envelope AFTER UPDATE OF id, context_id ON event_rows BEGIN
                UPDATE launch_rows SET context_id = \(firstContext(of: "launch_rows.id"))
                WHERE id IN (old.id >> 32, new.id >> 32);
            END;
            DROP VIEW events;
            CREATE VIEW events AS
            SELECT e.id, d.name AS device, l.name AS launch, e.seq, e.ts, e.mono, e.event,
                   \(columns),
                   e.phase, e.reason, e.cause, e.task, e.identifier, e.call, e.success, e.result,
                   e.attrs, e.file_id, e.line
            FROM event_rows e
            JOIN launch_rows l ON l.id = (e.id >> 32) AND e.id >= (l.id << 32) AND e.id < ((l.id + 1) << 32)
            JOIN devices d ON d.id = l.device_id
            JOIN contexts c ON c.id = e.context_id;
            """)
        let lacking = try Int64.fetchAll(db, sql: """
            SELECT l.id FROM launch_rows l JOIN contexts c ON c.id = l.context_id
            WHERE c.app IS NULL OR c.app_version IS NULL OR c.os IS NULL
            """)
        try complete(lacking, contexts: ContextDirectory(), in: db)
    }
}
