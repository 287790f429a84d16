import GRDB

/// A launch's envelope — its app, app version, OS, model and process — is its first event's, in
/// the order the replay reads the launch: its lowest `seq` (its lowest row id), or, for a launch
/// that logs none (or only counters too large for a row id), its earliest by `seq`, then `ts`,
/// then the order stored. Where the first line leaves out the app, version or OS, the earliest
/// line in that order that logs it gives it: a launch that logs its envelope on its `config` line
/// still belongs to its app. (`model` and `process` are the first line's: a `process` left out
/// means the app, as the trace format says.)
///
/// Nothing in it can change within one process, so a team may log it on one line: it is the
/// envelope `check` quotes for the launch, and the one the `events` view gives every line of the
/// launch (a line's own value only where the launch has none). So a `terminate` the next process
/// logs on the launch's behalf, stamped with that process's version, still counts under the
/// version that was killed.
///
/// `launch_rows.context_id` names the first line's context, and `launch_rows.app` … `process`
/// hold the envelope. Every ingest transaction that adds to a launch writes its `context_id` (a
/// later upload may bring an earlier line), and a trigger works the envelope out when that first
/// line changes or the envelope is still incomplete: once per launch, not once per batch, which
/// cost an ingest of the tidy corpus 16.42 s of CPU against 15.45 (README, "Performance"). The
/// triggers on a change made by hand to its events work it out too, and count the launch's
/// events and times again.
enum LaunchEnvelope {
    static let fields = ["app", "app_version", "os", "model", "process"]
    /// The fields a later line may give where the first line leaves them out.
    private static let completed: Set = ["app", "app_version", "os"]

    /// The replay's order of a launch's rows: sequenced ones (row ids below the unsequenced range)
    /// by `seq`, then the others by `seq` (a large counter), then `ts`, then the order stored.
    private static let replayOrder =
        "(e.id & 4294967295) >= \(EventIdentity.sequencedLimit), e.seq IS NULL, e.seq, e.ts, e.id"

    /// The rows of the launch whose row id is `launchID` (its id in their high 32 bits).
    private static func rows(of launchID: String) -> String {
        "e.id >= (\(launchID) << 32) AND e.id < ((\(launchID) + 1) << 32)"
    }

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

    /// One field of the envelope of the launch row `row` (`new` in a trigger on `launch_rows`,
    /// `launch_rows` in an update of it), whose `context_id` names its first line's context: the
    /// first line's value, or (for a field a later line may give) the earliest that logs one. The
    /// scan runs only for a field the first line leaves out.
    private static func value(of field: String, row: String) -> String {
        let first = "(SELECT c.\(field) FROM contexts c WHERE c.id = \(row).context_id)"
        guard completed.contains(field) else { return first }
        return """
            coalesce(\(first),
                (SELECT c.\(field) FROM event_rows e JOIN contexts c ON c.id = e.context_id
                 WHERE \(rows(of: "\(row).id")) AND c.\(field) IS NOT NULL
                 ORDER BY \(replayOrder) LIMIT 1))
            """
    }

    private static func assignments(row: String) -> String {
        fields.map { "\($0) = \(value(of: $0, row: row))" }.joined(separator: ",\n")
    }

    /// An envelope column of the `events` view: the launch's value, else the line's own — but for
    /// `process`, the launch's alone (one left out on its first line means the app), so that one
    /// launch is never part app, part extension.
    private static func column(_ name: String) -> String {
        name == "process" ? "l.process AS process" : "coalesce(l.\(name), c.\(name)) AS \(name)"
    }

    static let migrationIdentifier = "v10: a launch's envelope for the lines that leave it out"

    /// Migration v10: `launch_rows.context_id` and the envelope's fields, worked out for the launches
    /// stored before; the triggers that keep them right; and the `events` view that reads them.
    static func migrate(_ db: Database) throws {
        let added = fields.map { "ALTER TABLE launch_rows ADD COLUMN \($0) TEXT;" }.joined(separator: "\n")
        let refresh = "UPDATE launch_rows SET context_id = \(firstContext(of: "launch_rows.id"))"
        // A change by hand also moves the launch's count and times, which `apps` and the replay read.
        let totals = [("events", "count(*)"), ("first_ts", "min(ts)"), ("last_ts", "max(ts)")]
            .map { ", \($0) = (SELECT \($1) FROM event_rows e WHERE \(rows(of: "launch_rows.id")))" }.joined()
        try db.execute(sql: """
            ALTER TABLE launch_rows ADD COLUMN context_id INTEGER;
            \(added)
            CREATE TRIGGER launch_rows_envelope AFTER UPDATE OF context_id, events ON launch_rows
            WHEN old.context_id IS NOT new.context_id OR new.app IS NULL OR new.app_version IS NULL OR new.os IS NULL BEGIN
                UPDATE launch_rows SET \(assignments(row: "new"))
                WHERE id = new.id;
            END;
            \(refresh);
            CREATE TRIGGER event_rows_deleted_envelope AFTER DELETE ON event_rows BEGIN
                \(refresh) \(totals) WHERE id = old.id >> 32;
                UPDATE launch_rows SET \(assignments(row: "launch_rows")) WHERE id = old.id >> 32;
            END;
            CREATE TRIGGER event_rows_updated_envelope AFTER UPDATE OF id, seq, ts, context_id ON event_rows BEGIN
                \(refresh) \(totals) WHERE id IN (old.id >> 32, new.id >> 32);
                UPDATE launch_rows SET \(assignments(row: "launch_rows")) WHERE id IN (old.id >> 32, new.id >> 32);
            END;
            DROP VIEW events;
            CREATE VIEW events AS
            SELECT e.id, d.name AS device, l.name AS launch, e.seq, e.ts, e.mono, e.event,
                   \(fields.map(column).joined(separator: ",\n       ")),
                   e.phase, e.reason, e.cause, e.task, e.identifier, e.call, e.success, e.result,
                   e.attrs, e.file_id, e.line
            FROM event_rows e
            JOIN launch_rows l ON l.id = (e.id >> 32) AND e.id >= (l.id << 32) AND e.id < ((l.id + 1) << 32)
            JOIN devices d ON d.id = l.device_id
            JOIN contexts c ON c.id = e.context_id;
            """)
    }
}
