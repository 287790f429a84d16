import GRDBSQLite
import TraceModel

/// The content of an event identified by content (no usable `seq`): every value its row stores
/// except where it came from (`file_id`, `line`) and its row id, which are not content.
///
/// Two events of one launch are the same event exactly when these values are equal, because
/// they are everything the store keeps of an event: the envelope is the `context_id`, whose
/// row is unique per (app, app_version, os, model, process) — `ContextDirectory` creates one
/// only under the write lock, after looking the same five values up — and the device is the
/// launch's. Values are compared as SQLite stores them: a `mono` of `-0.0` is stored as `0.0`,
/// so the two are one event, as they would be indistinguishable in the store anyway.
enum UnsequencedContent {
    /// The columns, in the order ``visit(_:contextID:_:)`` hands out the values.
    static let columns = "ts, seq, mono, event, context_id, phase, reason, cause, task, identifier, call, success, result, attrs"
    static let columnCount: Int32 = 14

    /// Hands the event's values to `visitor` in the order of ``columns``.
    static func visit(_ event: Event, contextID: Int64, _ visitor: inout some ContentVisitor) {
        visitor.integer(event.ts.microseconds)
        visitor.integer(event.seq)
        visitor.real(event.mono)
        visitor.text(event.name)
        visitor.integer(contextID)
        visitor.text(event.phase)
        visitor.text(event.reason)
        visitor.text(event.cause)
        visitor.integer(event.task)
        visitor.text(event.identifier)
        visitor.text(event.call)
        visitor.integer(event.success.map { $0 ? 1 : 0 })
        visitor.text(event.result)
        visitor.text(event.attrs)
    }

    /// The hash of an event's content, equal to ``hash(row:from:)`` of its stored row.
    static func hash(_ event: Event, contextID: Int64) -> Int {
        var hashing = ContentHashing()
        visit(event, contextID: contextID, &hashing)
        return hashing.hasher.finalize()
    }

    /// The hash of a stored row's content, read from the result columns `first ..< first +
    /// columnCount` of a statement selecting ``columns``.
    static func hash(row stmt: OpaquePointer, from first: Int32) -> Int {
        var hashing = ContentHashing()
        for column in first ..< first + columnCount {
            switch sqlite3_column_type(stmt, column) {
            case SQLITE_INTEGER: hashing.integer(sqlite3_column_int64(stmt, column))
            case SQLITE_FLOAT: hashing.real(sqlite3_column_double(stmt, column))
            case SQLITE_TEXT, SQLITE_BLOB: hashing.bytes(columnBytes(stmt, column))
            default: hashing.null()
            }
        }
        return hashing.hasher.finalize()
    }

    /// Whether the row current in `stmt` (columns from `first`, as ``columns``) stores exactly
    /// this event's content.
    static func matches(_ event: Event, contextID: Int64, row stmt: OpaquePointer, from first: Int32) -> Bool {
        var matching = RowMatching(stmt: stmt, column: first)
        visit(event, contextID: contextID, &matching)
        return matching.equal
    }

    static func columnBytes(_ stmt: OpaquePointer, _ column: Int32) -> UnsafeRawBufferPointer {
        // The blob accessor returns a text's bytes as stored, without conversion; NULs included.
        let base = sqlite3_column_blob(stmt, column)
        return UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : Int(sqlite3_column_bytes(stmt, column)))
    }

    /// A `mono` as SQLite stores it: nil for NaN (stored as NULL), `0.0` for `-0.0`.
    static func stored(_ value: Double?) -> Double? {
        guard let value, !value.isNaN else { return nil }
        return value == 0 ? 0 : value
    }
}

/// Receives an event's content value by value (see ``UnsequencedContent/visit(_:contextID:_:)``).
protocol ContentVisitor {
    mutating func integer(_ value: Int64?)
    mutating func real(_ value: Double?)
    mutating func text(_ value: String?)
}

/// Feeds values to Swift's `Hasher` (SipHash, seeded anew by every process: the hashes live only
/// in the memory of one ingest, and a hostile input cannot aim collisions at it), each with a tag
/// of its kind and a text with its length, so that no two different contents feed the same bytes.
private struct ContentHashing: ContentVisitor {
    var hasher = Hasher()

    mutating func null() { hasher.combine(UInt8(0)) }

    mutating func integer(_ value: Int64?) {
        guard let value else { return null() }
        hasher.combine(UInt8(1))
        hasher.combine(value)
    }

    mutating func real(_ value: Double?) {
        guard let value = UnsequencedContent.stored(value) else { return null() }
        hasher.combine(UInt8(2))
        hasher.combine(value.bitPattern)
    }

    mutating func text(_ value: String?) {
        guard var value else { return null() }
        value.withUTF8 { bytes(UnsafeRawBufferPointer($0)) }
    }

    mutating func bytes(_ bytes: UnsafeRawBufferPointer) {
        hasher.combine(UInt8(3))
        hasher.combine(bytes.count)
        hasher.combine(bytes: bytes)
    }
}

/// Compares values with the columns of a stored row, one after the other.
private struct RowMatching: ContentVisitor {
    let stmt: OpaquePointer
    var column: Int32
    var equal = true

    private mutating func next() -> Int32 {
        defer { column += 1 }
        return column
    }

    mutating func integer(_ value: Int64?) {
        let column = next()
        let type = sqlite3_column_type(stmt, column)
        guard let value else { return equal = equal && type == SQLITE_NULL }
        equal = equal && type == SQLITE_INTEGER && sqlite3_column_int64(stmt, column) == value
    }

    mutating func real(_ value: Double?) {
        let column = next()
        let type = sqlite3_column_type(stmt, column)
        guard let value = UnsequencedContent.stored(value) else { return equal = equal && type == SQLITE_NULL }
        equal = equal && type == SQLITE_FLOAT && sqlite3_column_double(stmt, column) == value
    }

    mutating func text(_ value: String?) {
        let column = next()
        let type = sqlite3_column_type(stmt, column)
        guard var value else { return equal = equal && type == SQLITE_NULL }
        guard equal, type == SQLITE_TEXT else { return equal = false }
        let stored = UnsequencedContent.columnBytes(stmt, column)
        equal = value.withUTF8 { $0.elementsEqual(stored) }
    }
}
