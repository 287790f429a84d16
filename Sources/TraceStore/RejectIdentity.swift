import Crypto
import Foundation
import GRDB
import TraceModel

/// What makes two rejected lines the same line, so that `rejects` holds each bad line once
/// however often its input is ingested (`rejects.identity`, unique).
///
/// The identity is a 63-bit prefix of the SHA-256 of the line's number in its input, its
/// reason, its full length and its bytes (the first ``RejectedLine/rawCap`` of them, all that
/// is kept). That is exact for the ways one input comes back:
/// - the same stream twice through `-`, or the same file under another name: every line has
///   the same number and bytes, so every reject matches the one stored the first time;
/// - a file that grew (a new upload whose first part is an older one): its first part has the
///   same numbers and bytes; lines after it are new;
/// - a resumed file: its lines keep their numbers.
///
/// And two different bad lines never merge: lines that differ in their bytes, or that sit at
/// different lines of their inputs, hash differently (up to a 2⁻⁶³ collision per pair).
/// The line number stands in for "its ordinal among identical bad lines of the input": the
/// same bytes twice in one input are two rejects, at two numbers. What does merge is the same
/// bad line at the same line of two inputs that agree there — a re-upload, or two files with
/// the same broken first line — which is still one line of bad input, counted in each run's
/// summary and each file's `files.rejects`, and stored once. A line longer than the kept
/// bytes is known by those bytes and its length.
enum RejectIdentity {
    static func of(_ reject: RejectedLine) -> Int64 {
        identity(line: Int64(reject.line), reason: reject.issue.reason.rawValue, rawBytes: Int64(reject.rawBytes),
                 raw: reject.raw)
    }

    private static func identity(line: Int64, reason: String, rawBytes: Int64, raw: [UInt8]) -> Int64 {
        var hasher = SHA256()
        hasher.update(data: Array("\(line)\u{0}\(reason)\u{0}\(rawBytes)\u{0}".utf8))
        hasher.update(data: raw)
        let value = Array(hasher.finalize()).prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int64(bitPattern: value & UInt64(Int64.max))
    }

    /// Gives rows stored before migration v4 their identity. Copies already stored twice (what
    /// v4 stops) keep the first one's identity and NULL on the others: nothing is deleted.
    static func backfill(_ db: Database) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT id, line, reason, raw_bytes, CAST(raw AS BLOB) FROM rejects ORDER BY id")
        let update = try db.makeStatement(sql: "UPDATE OR IGNORE rejects SET identity = ? WHERE id = ?")
        for row in rows {
            let raw: Data = row[4] ?? Data()
            let identity = identity(line: row[1], reason: row[2], rawBytes: row[3], raw: Array(raw))
            try update.execute(arguments: [identity, row[0] as Int64])
        }
    }
}
