import GRDB
import GRDBSQLite
import TraceModel

/// The writer's cache of device and launch ids, of each launch's running totals, which it
/// writes back to `launches` with every batch, and of the content index of the launches being
/// written (see ``UnsequencedIndex``).
final class LaunchDirectory {
    struct Key: Hashable {
        var device: String
        var launch: String
    }

    final class Entry {
        let id: Int64
        var firstTS: Int64?
        var lastTS: Int64?
        var added = 0
        /// The events added since the last flush, packed (see ``EventPack``).
        let pack = EventPackEncoder()
        var unsequenced: Int64
        var dirty = false
        /// Loaded on the first event identified by content; only complete while no other writer
        /// has committed (see ``LaunchDirectory/beginTransaction(in:)``).
        var index: UnsequencedIndex?
        /// The batch that last used ``index``.
        var indexBatch = 0

        init(id: Int64, firstTS: Int64?, lastTS: Int64?, unsequenced: Int64) {
            self.id = id
            self.firstTS = firstTS
            self.lastTS = lastTS
            self.unsequenced = unsequenced
        }

        func note(ts: Int64) {
            if firstTS.map({ ts < $0 }) ?? true { firstTS = ts }
            if lastTS.map({ ts > $0 }) ?? true { lastTS = ts }
        }
    }

    /// Launch ids occupy the high 32 bits of an event's row id.
    static let maxLaunchID: Int64 = Int64(Int32.max)

    /// Entries beyond this many are forgotten (once written back): memory stays bounded on
    /// corpora with millions of launches, and a launch seen again is simply read back. A launch's
    /// events come in one file or two (a device's upload of one day, and the next), so only the
    /// latest launches are worth keeping: at 50,000 the cache was 13 MB of an ingest's 110 MB
    /// peak at 58k launches, and only reached its bound past a million events.
    static let cacheLimit = 4096

    private var entries: [Key: Entry] = [:]
    private var dirty: [Entry] = []
    private var deviceIDs: [String: Int64] = [:]
    private var last: (device: String, launch: String, entry: Entry)?
    /// Entries holding an index; each batch drops those the batch did not use.
    private var indexed: [Entry] = []
    private var batch = 0
    /// `PRAGMA data_version` and the connection's total changes at the end of this writer's last
    /// transaction: if either moved by the next, another writer committed in between.
    private var endOfLastTransaction: (dataVersion: Int64, changes: Int64)?

    /// The entry of one launch, creating its device and launch rows on first sight.
    func entry(device: String, launch: String, in db: Database) throws -> Entry {
        if let last, last.device == device, last.launch == launch { return last.entry }
        let key = Key(device: device, launch: launch)
        let entry = try entries[key] ?? load(key, in: db)
        entries[key] = entry
        last = (device, launch, entry)
        return entry
    }

    /// The content index of a launch, read from the table the first time it is needed.
    func index(of entry: Entry, in db: Database) throws -> UnsequencedIndex {
        entry.indexBatch = batch
        if let index = entry.index { return index }
        let index = try UnsequencedIndex.load(launchID: entry.id, knownOrdinals: entry.unsequenced, in: db)
        entry.index = index
        indexed.append(entry)
        return index
    }

    /// Call first in every write transaction: drops the content indexes if another writer
    /// (another process, or another writer on this connection) committed since this one's last
    /// transaction, as they may lack its rows. One pragma per transaction.
    func beginTransaction(in db: Database) throws {
        let marks = try Self.changeMarks(db)
        if let end = endOfLastTransaction, end == marks { return }
        dropIndexes()
    }

    /// Call last in every write transaction, before it commits.
    func endTransaction(in db: Database) throws {
        endOfLastTransaction = try Self.changeMarks(db)
    }

    private static func changeMarks(_ db: Database) throws -> (dataVersion: Int64, changes: Int64) {
        let version = try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0
        return (version, Int64(sqlite3_total_changes(db.sqliteConnection)))
    }

    private func dropIndexes() {
        for entry in indexed { entry.index = nil }
        indexed.removeAll()
    }

    /// Writes the totals of every launch touched since the last flush, its envelope (``LaunchEnvelope``),
    /// and the pack of the events it added.
    ///
    /// Bound by position through ``ExactStatement``: GRDB's named arguments build a dictionary
    /// per row, which cost half of each update (a batch touches every launch of its
    /// file, and corpora of small files have a batch per file).
    func flush(in db: Database) throws {
        let statement = try db.cachedStatement(sql: """
            UPDATE launch_rows SET first_ts = min(coalesce(first_ts, ?1), ?1),
                last_ts = max(coalesce(last_ts, ?2), ?2),
                events = events + ?3, unsequenced = max(unsequenced, ?4),
                context_id = \(LaunchEnvelope.firstContext(of: "?5"))
            WHERE id = ?5
            """)
        let packStatement = try db.cachedStatement(sql: "INSERT INTO event_packs (launch_id, events, packed) VALUES (?, ?, ?)")
        for entry in dirty {
            try ExactStatement.execute(statement, [
                .integer(entry.firstTS), .integer(entry.lastTS), .integer(Int64(entry.added)),
                .integer(entry.unsequenced), .integer(entry.id),
            ])
            if !entry.pack.isEmpty {
                if entry.pack.bytes.count <= EventPackEncoder.largestPack { try Self.write(entry.pack, of: entry.id, packStatement) }
                entry.pack.reset()
            }
            entry.added = 0
            entry.dirty = false
        }
        dirty.removeAll(keepingCapacity: true)
        // Memory: only the indexes of launches this batch wrote are kept for the next.
        indexed.removeAll { entry in
            guard entry.indexBatch != batch else { return false }
            entry.index = nil
            return true
        }
        batch += 1
        if entries.count > Self.cacheLimit {
            entries.removeAll(keepingCapacity: true)
            dropIndexes()
            last = nil
        }
    }

    /// Inserts a launch's pack, bound where it lies: the statement runs before the pack changes.
    private static func write(_ pack: EventPackEncoder, of launchID: Int64, _ statement: Statement) throws {
        let stmt = statement.sqliteStatement
        sqlite3_reset(stmt)
        sqlite3_bind_int64(stmt, 1, launchID)
        sqlite3_bind_int64(stmt, 2, Int64(pack.count))
        let bytes = pack.bytes
        sqlite3_bind_blob(stmt, 3, bytes.baseAddress, Int32(truncatingIfNeeded: bytes.count), staticText)
        let code = sqlite3_step(stmt)
        sqlite3_reset(stmt)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "writing the packed events of launch \(launchID)")
        }
    }

    /// Marks an entry as changed in this transaction, to be written back by ``flush(in:)``.
    func touched(_ entry: Entry) {
        guard !entry.dirty else { return }
        entry.dirty = true
        dirty.append(entry)
    }

    /// Forgets cached totals after a rolled-back transaction, so they are read again.
    func reset() {
        dropIndexes()
        endOfLastTransaction = nil
        dirty.removeAll()
        entries.removeAll()
        deviceIDs.removeAll()
        last = nil
    }

    /// Names go through ``ExactStatement``: a device or launch id may hold a NUL.
    private func load(_ key: Key, in db: Database) throws -> Entry {
        let deviceID = try deviceID(key.device, in: db)
        // Cached statements: GRDB prepares (and authorizes) plain `sql:` calls every time, which
        // showed in the profile of corpora made of many small files.
        let select = try db.cachedStatement(
            sql: "SELECT id, first_ts, last_ts, unsequenced FROM launch_rows WHERE device_id = ? AND name = ?")
        let found = try ExactStatement.fetchFirst(select, [.integer(deviceID), .text(key.launch)]) { row in
            Entry(id: sqlite3_column_int64(row, 0), firstTS: ExactStatement.integer(row, 1),
                  lastTS: ExactStatement.integer(row, 2), unsequenced: sqlite3_column_int64(row, 3))
        }
        if let found { return found }
        try ExactStatement.execute(
            db.cachedStatement(sql: "INSERT INTO launch_rows (device_id, name) VALUES (?, ?)"),
            [.integer(deviceID), .text(key.launch)])
        let id = db.lastInsertedRowID
        guard id <= Self.maxLaunchID else {
            throw StoreError.writeFailed(
                what: "add launch \(key.launch)", underlying: "more than \(Self.maxLaunchID) launches")
        }
        return Entry(id: id, firstTS: nil, lastTS: nil, unsequenced: 0)
    }

    private func deviceID(_ name: String, in db: Database) throws -> Int64 {
        if let id = deviceIDs[name] { return id }
        try ExactStatement.execute(
            db.cachedStatement(sql: "INSERT INTO devices (name) VALUES (?) ON CONFLICT (name) DO NOTHING"),
            [.text(name)])
        guard let id = try ExactStatement.integer(
            db.cachedStatement(sql: "SELECT id FROM devices WHERE name = ?"), [.text(name)])
        else {
            throw StoreError.writeFailed(what: "add device \(name)", underlying: "its row is missing after the insert")
        }
        deviceIDs[name] = id
        return id
    }
}
