import GRDB
import GRDBSQLite

/// A value bound by ``ExactStatement``.
enum ExactValue {
    case text(String?)
    case integer(Int64?)
    case real(Double?)
    case blob([UInt8])
}

/// Runs a prepared statement with texts bound and read by their length in bytes.
///
/// GRDB binds a `String` with `sqlite3_bind_text(…, -1, …)` and reads one with
/// `String(cString:)`, so both cut a text at its first NUL: `"a\u{0}x"` and `"a\u{0}y"` would be
/// stored, looked up and read back as `"a"`, merging two devices into one. Ids and envelope
/// fields are decoded from JSON, where `\u0000` is legal, so every statement that stores or
/// looks up such a text goes through here and the stored text equals the decoded text byte
/// for byte.
enum ExactStatement {
    /// Runs `statement` to completion with `values` bound in order.
    static func execute(_ statement: Statement, _ values: [ExactValue]) throws {
        _ = try fetchFirst(statement, values) { _ in () }
    }

    /// The first column of the first row as an integer, or nil when there is no row or it is NULL.
    static func integer(_ statement: Statement, _ values: [ExactValue]) throws -> Int64? {
        try fetchFirst(statement, values) { integer($0, 0) } ?? nil
    }

    /// Runs `statement` to completion with `values` bound in order; `read` sees the first row
    /// (if any) while it is current. Nil when there was no row.
    static func fetchFirst<T>(_ statement: Statement, _ values: [ExactValue], _ read: (OpaquePointer) -> T) throws -> T? {
        let stmt = statement.sqliteStatement
        try bind(values, to: statement)
        defer { sqlite3_reset(stmt) }
        var first: T?
        while true {
            let code = sqlite3_step(stmt)
            if code == SQLITE_DONE { return first }
            guard code == SQLITE_ROW else { throw error(code, stmt) }
            if first == nil { first = read(stmt) }
        }
    }

    /// Resets `statement` and binds `values` in order, for a caller that steps it itself.
    static func bind(_ values: [ExactValue], to statement: Statement) throws {
        let stmt = statement.sqliteStatement
        sqlite3_reset(stmt)
        sqlite3_clear_bindings(stmt)
        for (offset, value) in values.enumerated() {
            let index = Int32(truncatingIfNeeded: offset + 1)
            let code: Int32
            switch value {
            case .integer(let integer?): code = sqlite3_bind_int64(stmt, index, integer)
            case .text(let text?): code = bind(text, to: stmt, at: index)
            case .real(let real?): code = sqlite3_bind_double(stmt, index, real)
            case .blob(let bytes): code = bind(bytes, to: stmt, at: index)
            case .integer(nil), .text(nil), .real(nil): code = sqlite3_bind_null(stmt, index)
            }
            guard code == SQLITE_OK else { throw error(code, stmt) }
        }
    }

    /// An integer result column, or nil for NULL.
    static func integer(_ stmt: OpaquePointer, _ column: Int32) -> Int64? {
        sqlite3_column_type(stmt, column) == SQLITE_NULL ? nil : sqlite3_column_int64(stmt, column)
    }

    /// The text of a result column, all of its bytes (NULs included), or nil for NULL.
    static func text(_ stmt: OpaquePointer, _ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(stmt, column) else { return nil }
        let count = Int(sqlite3_column_bytes(stmt, column))
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// Texts whose length does not fit SQLite's `int` are refused rather than cut.
    static func bind(_ text: String, to stmt: OpaquePointer, at index: Int32) -> Int32 {
        var text = text
        return text.withUTF8 { bytes in
            guard let length = Int32(exactly: bytes.count) else { return SQLITE_TOOBIG }
            // An empty buffer may have no address, and SQLite reads a NULL pointer as NULL, not "".
            guard let base = bytes.baseAddress else { return sqlite3_bind_text(stmt, index, "", 0, transientText) }
            return sqlite3_bind_text(
                stmt, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), length, transientText)
        }
    }

    private static func bind(_ bytes: [UInt8], to stmt: OpaquePointer, at index: Int32) -> Int32 {
        bytes.withUnsafeBytes { buffer in
            guard let length = Int32(exactly: buffer.count) else { return SQLITE_TOOBIG }
            guard let base = buffer.baseAddress else { return sqlite3_bind_zeroblob(stmt, index, 0) }
            return sqlite3_bind_blob(stmt, index, base, length, transientText)
        }
    }

    private static func error(_ code: Int32, _ stmt: OpaquePointer) -> DatabaseError {
        let message = sqlite3_db_handle(stmt).flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        return DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
    }
}

/// SQLite copies the text before the bind returns.
private let transientText = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
