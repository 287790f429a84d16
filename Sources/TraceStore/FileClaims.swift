import Foundation
import GRDB

/// Why a file is not read in this ingest.
public enum FileSkip: Sendable, Hashable, CustomStringConvertible {
    /// The same content is already stored (perhaps under another path).
    case alreadyStored(FileRecord)
    /// Another live ingest is reading it now (see ``IngestClaim``). Skipped, not waited for:
    /// that ingest stores it, a wait would tie a nightly job to another run's length (or to a
    /// run stuck on a full disk), and the next run skips or resumes it by its content anyway.
    case beingIngested(pid: Int32, since: String)
    /// An ingest that died left it part-read, and yet another ingest took it over and moved
    /// on between this one's look and its claim: the next run resumes it where it is then.
    case movedOnMeanwhile(pid: Int32)

    public var description: String {
        switch self {
        case .alreadyStored(let previous):
            "already ingested as \(previous.path) at \(previous.ingestedAt ?? previous.startedAt)"
        case .beingIngested(let pid, let since):
            "being ingested by process \(pid) since \(since)"
        case .movedOnMeanwhile(let pid):
            "taken over by process \(pid) while this ingest looked at it; run the ingest again to resume it"
        }
    }
}

/// What registering or resuming a file gave: the row to write to, or why not.
public enum FileClaimOutcome: Sendable, Hashable {
    case claimed(fileID: Int64)
    case refused(FileSkip)

    /// The claimed row, if it was claimed.
    public var fileID: Int64? {
        if case .claimed(let fileID) = self { fileID } else { nil }
    }
}

/// The claim columns of one `files` row.
struct FileClaimState {
    var id: Int64
    var status: FileRecord.Status
    var lines: Int
    var owner: IngestClaim?
    var since: String

    static let columns = "id, status, lines, claim_pid, claim_start, claim_run, coalesce(claimed_at, started_at)"

    init(_ row: Row) {
        id = row[0]
        status = FileRecord.Status(rawValue: row[1]) ?? .ingesting
        lines = row[2]
        let run: Int64? = row[5]
        owner = (row[3] as Int32?).map { IngestClaim(pid: $0, start: row[4], run: run ?? 0) }
        since = row[6]
    }

    /// Why a reader that would go on after `linesDone` may not, or nil if it may.
    func refusal(readingAfter linesDone: Int, record: () throws -> FileRecord?) rethrows -> FileSkip? {
        switch status {
        case .done, .interrupted:
            // An interrupted row is a stream's (no content hash), so it is never looked up here.
            return try record().map { .alreadyStored($0) } ?? .movedOnMeanwhile(pid: owner?.pid ?? 0)
        case .ingesting:
            if let owner, owner.ownerIsAlive { return .beingIngested(pid: owner.pid, since: since) }
            return lines == linesDone ? nil : .movedOnMeanwhile(pid: owner?.pid ?? 0)
        }
    }
}

extension EventWriter.Transaction {
    /// Adds a file's row, claimed by this writer's ingest, to be read from its first line. When
    /// another process registered the same content meanwhile, its row is taken over only if
    /// that ingest died before committing a line; otherwise the file is not this ingest's to read.
    public func register(_ file: FileRegistration) throws -> FileClaimOutcome {
        if let sha256 = file.sha256, let existing = try claimState(sql: "sha256 = ?", sha256) {
            return try takeOver(existing, readingAfter: 0)
        }
        try db.cachedStatement(sql: """
            INSERT INTO files (path, size, sha256, compression, status, started_at, claim_pid, claim_start, claim_run,
                claimed_at)
            VALUES (?, ?, ?, ?, 'ingesting', ?, ?, ?, ?, ?)
            """).execute(arguments: [
                file.path, file.size, file.sha256, file.compression, FileRecord.timestamp(file.startedAt),
                writer.claim.pid, writer.claim.start, writer.claim.run, FileRecord.timestamp(Date()),
            ])
        return .claimed(fileID: db.lastInsertedRowID)
    }

    /// Takes over a file an ingest that died left part-read, if it still is: committed through
    /// `linesDone` (what the reader skips) and its owner dead.
    public func resume(fileID: Int64, linesDone: Int) throws -> FileClaimOutcome {
        guard let existing = try claimState(sql: "id = ?", fileID) else {
            return .refused(.movedOnMeanwhile(pid: 0))
        }
        return try takeOver(existing, readingAfter: linesDone)
    }

    private func takeOver(_ existing: FileClaimState, readingAfter linesDone: Int) throws -> FileClaimOutcome {
        if let refusal = try existing.refusal(readingAfter: linesDone, record: {
            try FileRecord.fetchOne(db, key: existing.id)
        }) {
            return .refused(refusal)
        }
        try db.cachedStatement(sql: """
            UPDATE files SET claim_pid = ?, claim_start = ?, claim_run = ?, claimed_at = ? WHERE id = ?
            """).execute(arguments: [
                writer.claim.pid, writer.claim.start, writer.claim.run, FileRecord.timestamp(Date()), existing.id,
            ])
        return .claimed(fileID: existing.id)
    }

    private func claimState(sql condition: String, _ value: some DatabaseValueConvertible) throws -> FileClaimState? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT \(FileClaimState.columns) FROM files WHERE \(condition)"),
            arguments: [value]
        ).map(FileClaimState.init)
    }
}

extension Store {
    /// Marks `interrupted` the rows of streams (standard input, pipes: no content hash until
    /// their end) whose ingest died: a stream cannot be read again, so such a row would
    /// otherwise say `ingesting` forever. Its committed events and rejects stay. A file read
    /// by path keeps `ingesting`: the next ingest of it resumes it.
    @discardableResult
    public func interruptAbandonedStreams() throws -> Int {
        let sql = "SELECT \(FileClaimState.columns) FROM files WHERE status = 'ingesting' AND sha256 IS NULL"
        let abandoned = { (db: Database) in
            try Row.fetchAll(db, sql: sql).map(FileClaimState.init).filter { !($0.owner?.ownerIsAlive ?? false) }
        }
        guard try !pool.read(abandoned).isEmpty else { return 0 }
        return try write { db in
            let ids = try abandoned(db).map(\.id)
            for id in ids {
                try db.execute(sql: "UPDATE files SET status = 'interrupted' WHERE id = ?", arguments: [id])
            }
            return ids.count
        }
    }
}
