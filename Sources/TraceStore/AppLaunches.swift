import GRDB
import GRDBSQLite
import TraceModel

/// The launches of one app, or of one app version: what `--app` and `--app-version` select.
///
/// A launch is one process, so it belongs to the app and version of its first event (its first
/// row, the context the replay gives it), as the derived table `launches` and `lifeline report`
/// name them. Versions are per app: a version alone selects that version of any app.
extension Store {
    /// One launch by its names.
    public struct LaunchName: Sendable, Hashable {
        public var device: String
        public var launch: String

        public init(device: String, launch: String) {
            self.device = device
            self.launch = launch
        }
    }

    /// The launches of the selected devices whose first event names `app` (when given) and
    /// `appVersion` (when given). Texts are compared and read by their bytes, NULs included.
    public func launches(app: String?, appVersion: String?, devices: DeviceSelection = .all) throws -> [LaunchName] {
        try read { db in
            var found: [LaunchName] = []
            for names in devices.nameGroups ?? [[]] {
                let filter = devices == .all ? "" : "AND d.name IN (\(names.map { _ in "?" }.joined(separator: ", ")))"
                let statement = try db.makeStatement(sql: """
                    SELECT d.name, l.name
                    FROM launch_rows l
                    JOIN devices d ON d.id = l.device_id
                    WHERE (?1 IS NULL OR l.app = ?1) AND (?2 IS NULL OR l.app_version = ?2) \(filter)
                    ORDER BY d.name, l.first_ts, l.id
                    """)
                try ExactStatement.bind([.text(app), .text(appVersion)] + names.map { .text($0) }, to: statement)
                let stmt = statement.sqliteStatement
                defer { sqlite3_reset(stmt) }
                while true {
                    let code = sqlite3_step(stmt)
                    if code == SQLITE_DONE { break }
                    guard code == SQLITE_ROW else {
                        throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "finding the launches of an app")
                    }
                    found.append(LaunchName(
                        device: ExactStatement.text(stmt, 0) ?? "", launch: ExactStatement.text(stmt, 1) ?? ""))
                }
            }
            return found
        }
    }

    /// Whether any event names `app` (when given) and `appVersion` (when given): read from the
    /// few distinct envelopes (`contexts`), not from the events, so it is quick on any store.
    public func holdsEvents(app: String?, appVersion: String?) throws -> Bool {
        try read { db in
            let statement = try db.makeStatement(sql: """
                SELECT EXISTS (SELECT 1 FROM contexts WHERE (?1 IS NULL OR app = ?1) AND (?2 IS NULL OR app_version = ?2))
                """)
            return try ExactStatement.integer(statement, [.text(app), .text(appVersion)]) == 1
        }
    }

    /// Whether the store holds any event of `device` (of any device when nil), in `since ..< until`
    /// when given (either end open when nil), as far as its launches' first and last times tell:
    /// a launch that spans the window counts, even with no event inside it.
    public func holdsEvents(device: String?, since: Timestamp? = nil, until: Timestamp? = nil) throws -> Bool {
        try read { db in
            let statement = try db.makeStatement(sql: """
                SELECT EXISTS (SELECT 1 FROM launch_rows l JOIN devices d ON d.id = l.device_id
                               WHERE (?1 IS NULL OR d.name = ?1) AND l.events > 0
                                 AND (?2 IS NULL OR l.last_ts >= ?2) AND (?3 IS NULL OR l.first_ts < ?3))
                """)
            return try ExactStatement.integer(
                statement, [.text(device), .integer(since?.microseconds), .integer(until?.microseconds)]) == 1
        }
    }

    /// How many devices have events.
    public func deviceCount() throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(DISTINCT device_id) FROM launch_rows") ?? 0 }
    }

    /// Whether a `check` has been recorded (so `findings` and the derived tables say something).
    public func hasRuns() throws -> Bool {
        try read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM runs)") ?? false }
    }

    /// Whether the derived tables hold a launch: a run imported with `import-findings` derives
    /// none, and empties those of the check before it.
    public func hasDerivedLaunches() throws -> Bool {
        try read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM launches)") ?? false }
    }
}
