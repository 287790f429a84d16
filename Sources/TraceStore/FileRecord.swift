import Foundation
import GRDB
import TraceModel

/// One row of the `files` table: an input file and what became of it.
///
/// `status` is `ingesting` until the file's last batch commits; `lines` is the number of input
/// lines whose events and rejects are committed, so an ingest killed half way resumes after it.
public struct FileRecord: Codable, Sendable, Hashable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "files"

    public var id: Int64?
    public var path: String
    public var size: Int64?
    public var sha256: String?
    public var compression: String
    public var status: Status
    public var lines: Int
    public var events: Int
    public var rejects: Int
    public var duplicates: Int
    public var truncated: Bool
    public var cutOffset: Int64?
    public var cutAfterLine: Int?
    public var cutReason: String?
    /// Lines lost to damaged frames and cuts (see ``FileEnding``).
    public var lostLines: Int
    public var blankLines: Int
    /// The damage as JSON (see the "v3: damage accounting" migration), NULL when none.
    public var damage: String?
    public var startedAt: String
    public var ingestedAt: String?

    public enum Status: String, Codable, Sendable {
        case ingesting, done
        /// A stream whose ingest died: it cannot be resumed (see `Store.interruptAbandonedStreams`).
        case interrupted
    }

    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    public init(path: String, size: Int64?, sha256: String?, compression: String, startedAt: Date) {
        self.path = path
        self.size = size
        self.sha256 = sha256
        self.compression = compression
        self.status = .ingesting
        self.lines = 0
        self.events = 0
        self.rejects = 0
        self.duplicates = 0
        self.truncated = false
        self.lostLines = 0
        self.blankLines = 0
        self.startedAt = Self.timestamp(startedAt)
    }

    /// The damage list as stored in `files.damage`; nil when there is none.
    static func damageJSON(_ damage: [StreamDamage]) -> String? {
        guard !damage.isEmpty else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(damage)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The damage list of `files.damage`.
    public var damageList: [StreamDamage] {
        guard let damage else { return [] }
        return (try? JSONDecoder().decode([StreamDamage].self, from: Data(damage.utf8))) ?? []
    }

    /// RFC 3339 in UTC, as `files.started_at` and `ingested_at` hold it.
    static func timestamp(_ date: Date) -> String {
        Timestamp(seconds: date.timeIntervalSince1970).description
    }
}
