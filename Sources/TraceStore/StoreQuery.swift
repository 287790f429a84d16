import Foundation
import GRDB
import GRDBSQLite
import TraceModel

/// Why a query was not answered: each case is one line a person can act on.
public enum QueryError: Error, Sendable, Hashable, CustomStringConvertible {
    case empty
    /// More than one statement: `lifeline query` answers one question at a time.
    case severalStatements
    /// The statement would change the database, which queries never do.
    case writes
    case missingParameters([String])
    /// Parameters given to narrow the answer (`--app`, `--app-version`) that the statement does
    /// not take: the answer would not be narrowed.
    case notTaken([String])
    /// SQLite could not prepare or run the statement (a syntax error, an unknown table).
    case sqlite(String)

    public var description: String {
        switch self {
        case .empty: "the query is empty"
        case .severalStatements: "the query holds more than one statement; give one at a time"
        case .writes: "the query would change the database; queries only read (the store is opened read-only)"
        case .missingParameters(let names):
            "the query needs " + names.map { "--param \($0)=VALUE" }.joined(separator: " ")
        case .notTaken(let names):
            "the query takes no " + names.map { ":\($0)" }.joined(separator: " or ") + " parameter"
        case .sqlite(let message): "SQLite: \(message)"
        }
    }
}

extension Store {
    /// Runs one read-only SQL statement with named parameters (`:device`, `$device` or
    /// `@device`, given without their sigil) and returns every row with SQLite's own types.
    ///
    /// The statement is checked with `sqlite3_stmt_readonly` before it runs, so a write is
    /// refused with a clear reason rather than attempted; open the store `.readOnly` as well,
    /// so that SQLite itself enforces it. A value that reads as a whole number or a decimal is
    /// bound as one, anything else as text: comparisons against columns then behave as they
    /// would in the `sqlite3` shell, whichever the column's type.
    ///
    /// A parameter named in `optional` and not given is NULL (as the `sqlite3` shell leaves a
    /// parameter it was not given), where any other missing one is an error. Every name in
    /// `filters` must be a parameter of the statement: a value given to narrow the answer that
    /// the statement does not take is refused (``QueryError/notTaken(_:)``) rather than ignored.
    public func query(
        _ sql: String, parameters: [String: String], optional: Set<String> = [], filters: Set<String> = []
    ) throws -> QueryResult {
        try read { db in
            let connection = db.sqliteConnection
            var statement: OpaquePointer?
            // The text after the statement is looked at while the C string is alive.
            let (prepared, more) = sql.withCString { text -> (Int32, Bool) in
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(connection, text, -1, &statement, &tail)
                return (code, code == SQLITE_OK && Self.holdsAStatement(tail, connection))
            }
            defer { sqlite3_finalize(statement) }
            guard prepared == SQLITE_OK else { throw QueryError.sqlite(String(cString: sqlite3_errmsg(connection))) }
            guard let statement else { throw QueryError.empty }
            if more { throw QueryError.severalStatements }
            guard sqlite3_stmt_readonly(statement) != 0 else { throw QueryError.writes }
            let notTaken = filters.subtracting(Self.parameterNames(statement)).sorted()
            if !notTaken.isEmpty { throw QueryError.notTaken(notTaken) }
            try Self.bind(parameters, optional: optional, to: statement)
            let columnCount = sqlite3_column_count(statement)
            let columns = (0..<columnCount).map { String(cString: sqlite3_column_name(statement, $0)) }
            var rows: [[QueryValue]] = []
            while true {
                let step = sqlite3_step(statement)
                if step == SQLITE_DONE { break }
                guard step == SQLITE_ROW else { throw QueryError.sqlite(String(cString: sqlite3_errmsg(connection))) }
                rows.append((0..<columnCount).map { Self.value(statement, $0) })
            }
            return QueryResult(columns: columns, rows: rows)
        }
    }

    /// The names of the statement's parameters, without their sigils.
    private static func parameterNames(_ statement: OpaquePointer) -> Set<String> {
        let count = sqlite3_bind_parameter_count(statement)
        guard count > 0 else { return [] }
        return Set((1 ... count).compactMap { name(of: $0, in: statement) })
    }

    /// A parameter's name without its sigil; nil for an unnamed `?`.
    private static func name(of index: Int32, in statement: OpaquePointer) -> String? {
        sqlite3_bind_parameter_name(statement, index).map { String(String(cString: $0).dropFirst()) }
    }

    /// Whether `text` holds anything but spaces, semicolons and comments (a file's closing
    /// `-- end` is not a second statement): SQLite prepares such text as no statement.
    private static func holdsAStatement(_ text: UnsafePointer<CChar>?, _ connection: OpaquePointer?) -> Bool {
        guard let text else { return false }
        var next: OpaquePointer?
        defer { sqlite3_finalize(next) }
        return sqlite3_prepare_v2(connection, text, -1, &next, nil) != SQLITE_OK || next != nil
    }

    private static func bind(_ parameters: [String: String], optional: Set<String>, to statement: OpaquePointer) throws {
        var missing: [String] = []
        let count = sqlite3_bind_parameter_count(statement)
        var index: Int32 = 1
        while index <= count {
            defer { index += 1 }
            // Unnamed `?` parameters have no name to give on the command line.
            let name = name(of: index, in: statement)
            guard let name, let value = parameters[name] else {
                // Left unbound, an optional parameter is NULL.
                if let name, optional.contains(name) { continue }
                missing.append(name ?? "?\(index)")
                continue
            }
            // As text, as typed: a version `5.10` or a device `0042` read as a number would be
            // 5.1 and 42, equal to no stored text. Against a numeric column SQLite compares it as a
            // number, and LIMIT and arithmetic take it as one.
            let status = ExactStatement.bind(value, to: statement, at: index)
            guard status == SQLITE_OK else { throw QueryError.sqlite("cannot bind --param \(name): \(String(cString: sqlite3_errstr(status)))") }
        }
        if !missing.isEmpty { throw QueryError.missingParameters(missing) }
    }

    /// One column of the current row, read by its byte length (texts may hold NULs).
    private static func value(_ statement: OpaquePointer, _ column: Int32) -> QueryValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT: return .text(ExactStatement.text(statement, column) ?? "")
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, column))
            guard let bytes = sqlite3_column_blob(statement, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }
}
