import GRDB
import GRDBSQLite
import TraceModel

/// The stored events of one launch that are identified by content, found by a hash of it: what
/// replaced a SHA-256 per event and a second unique index on `event_rows` (migration v5), which
/// made events without `seq` cost nearly twice as much to ingest as events with it.
///
/// The rows keep their row ids, `(launch id << 32) | (2^31 + ordinal)` in the order they were
/// first stored, so the table's own order is still the order of arrival (the replay's tie-break
/// among events of equal `ts`). Only the lookup changed, and it is exact:
/// - **No two different events merge.** A hash only proposes rows; an event is a duplicate only
///   when a proposed row stores exactly its content (``UnsequencedContent/matches``), read back
///   from the table.
/// - **No re-upload is stored twice.** The index holds every stored row of the launch, so an
///   equal row, which has an equal hash, is always proposed. Keys are the 64-bit hash with linear
///   probing: an event takes the first free key from its hash on, and keys are never removed, so
///   a lookup that walks from the hash to the first free key passes every row with that hash.
///   Every row is in the index because the index is read from the table itself (one range scan
///   of the launch's content-identified rows) inside a write transaction, and from then on gets
///   every row this writer stores; it is dropped whenever it could have missed one: after a
///   rollback, and when another writer committed since this one's last transaction (see
///   `LaunchDirectory.beginTransaction`).
///
/// Memory is one key and one row id per stored row of the launches of the batch being written.
final class UnsequencedIndex {
    private var rows: [Int: Int64] = [:]
    /// The ordinal the next stored row takes: one past the highest stored.
    private(set) var nextOrdinal: Int64

    var count: Int { rows.count }

    private init(nextOrdinal: Int64) {
        self.nextOrdinal = nextOrdinal
    }

    /// Where a lookup ended.
    enum Lookup {
        /// A row stores exactly this content.
        case stored(rowID: Int64)
        /// None does; the event takes this key when stored (see ``add(key:rowID:)``).
        case absent(key: Int)
    }

    /// Reads every content-identified row of the launch; `knownOrdinals` is the launch's own
    /// count (`launches.unsequenced`), which the next ordinal never goes below.
    static func load(launchID: Int64, knownOrdinals: Int64, in db: Database) throws -> UnsequencedIndex {
        let first = EventIdentity.unsequencedRowID(launchID: launchID, ordinal: 0)
        let statement = try db.cachedStatement(
            sql: "SELECT id, \(UnsequencedContent.columns) FROM event_rows WHERE id >= ? AND id < ?")
        try ExactStatement.bind([.integer(first), .integer(EventIdentity.launchEnd(launchID))], to: statement)
        let stmt = statement.sqliteStatement
        defer { sqlite3_reset(stmt) }
        let index = UnsequencedIndex(nextOrdinal: max(0, knownOrdinals))
        while true {
            let code = sqlite3_step(stmt)
            if code == SQLITE_DONE { return index }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "reading events without seq")
            }
            index.add(key: index.freeKey(from: UnsequencedContent.hash(row: stmt, from: 1)),
                      rowID: sqlite3_column_int64(stmt, 0))
        }
    }

    /// The stored row with exactly this event's content, or the key it takes if there is none.
    func lookup(_ event: Event, contextID: Int64, in db: Database) throws -> Lookup {
        var key = UnsequencedContent.hash(event, contextID: contextID)
        while let rowID = rows[key] {
            if try stores(rowID, event, contextID: contextID, in: db) { return .stored(rowID: rowID) }
            key &+= 1
        }
        return .absent(key: key)
    }

    /// Records a row just stored under the key its ``lookup(_:contextID:in:)`` returned, and
    /// moves the next ordinal past it.
    func add(key: Int, rowID: Int64) {
        rows[key] = rowID
        nextOrdinal = max(nextOrdinal, EventIdentity.unsequencedOrdinal(of: rowID) + 1)
    }

    private func freeKey(from hash: Int) -> Int {
        var key = hash
        while rows[key] != nil { key &+= 1 }
        return key
    }

    private func stores(_ rowID: Int64, _ event: Event, contextID: Int64, in db: Database) throws -> Bool {
        let statement = try db.cachedStatement(sql: "SELECT \(UnsequencedContent.columns) FROM event_rows WHERE id = ?")
        return try ExactStatement.fetchFirst(statement, [.integer(rowID)]) { row in
            UnsequencedContent.matches(event, contextID: contextID, row: row, from: 0)
        } ?? false
    }
}
