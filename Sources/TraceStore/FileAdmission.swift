import Foundation
import GRDB

/// What to do with an input file, decided from its content hash before reading it.
public enum FileAdmission: Sendable, Hashable {
    /// Never seen: read it from the first line.
    case start(fileID: Int64)
    /// An earlier ingest of the same content stopped part way: read on after `linesDone`.
    case resume(fileID: Int64, linesDone: Int)
    /// The same content is already stored (perhaps under another path): nothing to do.
    case skip(previous: FileRecord)
}

extension Store {
    /// Registers an input file or finds it again by its content hash.
    ///
    /// Two processes admitting the same content at once both get `resume`; their events are
    /// deduplicated by identity, so both finish and nothing is stored twice.
    public func admit(
        path: String, size: Int64?, sha256: String?, compression: String, now: Date = Date()
    ) throws -> FileAdmission {
        try pool.write { db in
            if let sha256, let existing = try FileRecord.filter(Column("sha256") == sha256).fetchOne(db) {
                switch existing.status {
                case .done: return .skip(previous: existing)
                case .ingesting: return .resume(fileID: existing.id!, linesDone: existing.lines)
                }
            }
            var record = FileRecord(
                path: path, size: size, sha256: sha256, compression: compression, startedAt: now)
            try record.insert(db)
            return .start(fileID: record.id!)
        }
    }

    /// All files, newest first.
    public func files() throws -> [FileRecord] {
        try pool.read { db in try FileRecord.order(Column("id").desc).fetchAll(db) }
    }
}
