/// Why a database was not opened: each is a user's situation with a way out, not a fault.
public enum StoreOpeningError: Error, Equatable, CustomStringConvertible {
    /// A command that only reads (or must not create) found no file.
    case missing(path: String)
    /// The file would be created in a directory that does not exist.
    case directoryMissing(path: String, directory: String)
    /// The file exists but holds no Lifeline schema (an empty or foreign SQLite file).
    case notLifeline(path: String)
    /// The file is not a SQLite database at all.
    case notADatabase(path: String)
    /// The name is a pipe, device or socket: opening it would wait for a writer or read a stream,
    /// never a database.
    case notAFile(path: String)
    /// The file is a SQLite database of other data (these tables, and no Lifeline schema).
    case foreign(path: String, tables: [String])
    /// A newer Lifeline applied migrations this build does not know; using the file could
    /// corrupt what that version wrote, so it is left untouched.
    case newerSchema(path: String, unknown: [String])
    /// An older schema that needs migrations, which a read-only opening cannot apply.
    case olderSchema(path: String, missing: [String])

    public var description: String { message(version: nil) }

    /// The message a user reads; `version` names this build when the caller knows it.
    public func message(version: String?) -> String {
        switch self {
        case .missing(let path):
            "no database at \(path): run `lifeline ingest --db \(path) PATH…` first, or pass --db with an existing database"
        case .directoryMissing(let path, let directory):
            "cannot create \(path): directory \(directory) does not exist"
        case .notLifeline(let path):
            "\(path) holds no Lifeline data: run `lifeline ingest --db \(path) PATH…` first, or pass --db with a Lifeline database"
        case .notADatabase(let path):
            "\(path) is not a database (it does not begin as a SQLite file does): pass --db a Lifeline database or a new file"
        case .notAFile(let path):
            "\(path) is not a regular file (a pipe, device or socket): pass --db a Lifeline database or a new file"
        case .foreign(let path, let tables):
            "\(path) holds other data (\(tables.count == 1 ? "table" : "tables") \(tables.prefix(5).joined(separator: ", "))\(tables.count > 5 ? ", …" : "")), "
                + "not Lifeline's: pass --db a Lifeline database or a new file"
        case .newerSchema(let path, let unknown):
            "\(path) was written by a newer Lifeline (schema '\(unknown.joined(separator: "', '"))' is unknown to "
                + "\(version.map { "version \($0)" } ?? "this version")): upgrade lifeline"
        case .olderSchema(let path, let missing):
            "\(path) was written by an older Lifeline and needs upgrading (schema '\(missing.joined(separator: "', '"))'), "
                + "which this read-only command does not do: run `lifeline check --db \(path)` once, then try again"
        }
    }
}
