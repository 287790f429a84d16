import Foundation
import GRDB

/// What to do with an input file, decided from its content hash before reading it.
public enum FileAdmission: Sendable, Hashable {
    /// Never seen: read it from the first line and register it (``EventWriter/Transaction/register(_:)``).
    case new
    /// An earlier ingest of the same content stopped part way: read on after `linesDone`.
    case resume(fileID: Int64, linesDone: Int)
    /// The same content is already stored (perhaps under another path): nothing to do.
    case skip(previous: FileRecord)
    /// Another live ingest is reading it, or moved it on: not this ingest's to read.
    case busy(FileSkip)

    /// Why the file is not to be read at all, or nil when it is.
    public var skipReason: String? {
        switch self {
        case .new, .resume: nil
        case .skip(let previous): FileSkip.alreadyStored(previous).description
        case .busy(let reason): reason.description
        }
    }
}

/// A file about to be read for the first time.
public struct FileRegistration: Sendable, Hashable {
    public var path: String
    public var size: Int64?
    public var sha256: String?
    public var compression: String
    public var startedAt: Date

    public init(path: String, size: Int64?, sha256: String?, compression: String, startedAt: Date = Date()) {
        self.path = path
        self.size = size
        self.sha256 = sha256
        self.compression = compression
        self.startedAt = startedAt
    }
}

extension Store {
    /// Looks a file up by its content hash, without taking the write lock (readers never wait
    /// for the writer in WAL mode), so the reading thread can decide while the writer commits.
    public func admission(sha256: String?) throws -> FileAdmission {
        guard let sha256 else { return .new }
        return try pool.read { db in
            let statement = try db.cachedStatement(sql: "SELECT * FROM files WHERE sha256 = ?")
            guard let existing = try FileRecord.fetchOne(statement, arguments: [sha256]) else {
                return .new
            }
            switch existing.status {
            case .done: return .skip(previous: existing)
            // Only streams are interrupted, and they have no content hash while read.
            case .interrupted: return .new
            case .ingesting:
                let id = existing.id ?? 0
                let state = try Row.fetchOne(
                    db, sql: "SELECT \(FileClaimState.columns) FROM files WHERE id = ?", arguments: [id]
                ).map(FileClaimState.init)
                if let state, let busy = state.refusal(readingAfter: existing.lines, record: { existing }) {
                    return .busy(busy)
                }
                return .resume(fileID: id, linesDone: existing.lines)
            }
        }
    }

    /// All files, newest first.
    public func files() throws -> [FileRecord] {
        try pool.read { db in try FileRecord.order(Column("id").desc).fetchAll(db) }
    }
}
