import Foundation
import GRDB
import TraceModel

/// What a `lifeline check` run was, for the `runs` table.
public struct RunInfo: Sendable, Hashable {
    public var startedAt: Date
    public var finishedAt: Date
    /// Lifeline's version.
    public var version: String
    /// The budgets used, as JSON (`{"refresh-task":30,…}`).
    public var budgets: String
    /// The devices replayed, as JSON, or nil for all of them.
    public var scope: String?
    public var devices: Int
    public var events: Int

    public init(
        startedAt: Date, finishedAt: Date, version: String, budgets: String, scope: String?, devices: Int,
        events: Int
    ) {
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.version = version
        self.budgets = budgets
        self.scope = scope
        self.devices = devices
        self.events = events
    }
}

extension Store {
    /// Records a run and its findings, replacing the findings earlier runs left for the same
    /// devices (all devices when `devices` is `.all`), in one transaction. `findings` calls its
    /// argument with each of the `count` findings, once, in order, so that they can come from a
    /// file rather than memory; a finding's explanation must come before it (the replay reports
    /// a cause before the termination it explains).
    ///
    /// The derived tables (`launches`, `intervals`, `tasks`, `requests`) are replaced for the same
    /// devices in the same transaction, by the rows `derived` staged (none when it is nil), whose
    /// records name findings by their position in `findings`.
    @discardableResult
    public func saveRun(
        _ run: RunInfo, devices: DeviceSelection, count: Int,
        findings: ((Finding) throws -> Void) throws -> Void, derived: DerivedStage? = nil
    ) throws -> Int64 {
        // A run of every device replaces every finding: its foreign keys are checked once, on the
        // rows it saves, before the commit, rather than row by row. Enforced, they make SQLite
        // delete the findings replaced one at a time, each looked up as a parent (0.12 s of CPU
        // for 27,702), where it otherwise drops the table's pages at once; and with every row
        // gone, none can be left naming one.
        let checksForeignKeysOnce = devices == .all
        if checksForeignKeysOnce {
            try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA foreign_keys = OFF") }
        }
        defer {
            if checksForeignKeysOnce {
                _ = try? pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA foreign_keys = ON") }
            }
        }
        let runID = try write { db in
            switch devices {
            case .all:
                try db.execute(sql: "DELETE FROM findings")
            case .only(let names):
                let delete = try db.makeStatement(sql: "DELETE FROM findings WHERE device = ?")
                for name in names { try ExactStatement.execute(delete, [.text(name)]) }
            }
            try db.execute(
                sql: """
                    INSERT INTO runs (id, started_at, finished_at, version, budgets, scope, devices, events, findings)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    // The id the stage's rows were written with, unless another run took it meanwhile.
                    try derived?.reservedRunID(db),
                    FileRecord.timestamp(run.startedAt), FileRecord.timestamp(run.finishedAt), run.version,
                    run.budgets, run.scope, run.devices, run.events, count,
                ])
            let runID = db.lastInsertedRowID
            // Each row is encoded as the derived rows are and bound from those bytes, a megabyte
            // of rows at a time.
            let writer = try DerivedTables.Writer.findings(db, runID: runID)
            let rows = DerivedRows(chunkBytes: 1 << 20) { try writer.write($0) }
            // Ids follow the largest, one by one (checked below).
            let firstID = try (Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM findings") ?? 0) + 1
            // Found through `findings_by_device` rather than a dictionary of every finding saved,
            // so memory does not grow with the findings; the latest such finding saved, as the
            // replay reports the cause just before the termination it explains.
            let explanation = try db.cachedStatement(sql: """
                SELECT id FROM findings
                WHERE device = ? AND ts = ? AND run_id = ? AND launch = ? AND rule = ?
                ORDER BY id DESC LIMIT 1
                """)
            var saved = 0
            try findings { finding in
                var explainedBy: Int64?
                if let cause = finding.explainedBy {
                    // The findings before it are saved before its cause is looked for among them.
                    try rows.flush()
                    explainedBy = try ExactStatement.integer(explanation, [
                        .text(finding.device), .integer(cause.ts.microseconds), .integer(runID),
                        .text(finding.launch), .text(cause.rule),
                    ])
                }
                try rows.append(finding, explainedBy: explainedBy)
                saved += 1
            }
            try rows.flush()
            var firstFinding: Int64? = saved > 0 ? firstID : nil
            if let derived {
                // Ids follow each other within this transaction; were they ever not to, records
                // would name no finding rather than a wrong one.
                if firstFinding != nil, db.lastInsertedRowID != firstID + Int64(saved - 1) { firstFinding = nil }
                try derived.publish(db, devices: devices, runID: runID, firstFinding: firstFinding, findings: saved)
            } else {
                try DerivedTables.delete(db, devices: devices)
            }
            // What enforcing them row by row would have refused rolls the run back.
            if checksForeignKeysOnce, try Self.savedFindingNamesNothing(db, from: firstID) {
                throw StoreError.writeFailed(
                    what: "save the run", underlying: "a finding saved names a run or a finding that does not exist")
            }
            return runID
        }
        derived?.published()
        return runID
    }

    /// Whether a finding saved (id `first` and after) names a run or an explaining finding that
    /// does not exist: what the table's foreign keys refuse.
    static func savedFindingNamesNothing(_ db: Database, from first: Int64) throws -> Bool {
        try Bool.fetchOne(db, sql: """
            SELECT EXISTS (
                SELECT 1 FROM findings f WHERE f.id >= ?
                AND (NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = f.run_id)
                     OR (f.explained_by IS NOT NULL AND NOT EXISTS (SELECT 1 FROM findings c WHERE c.id = f.explained_by))))
            """, arguments: [first]) ?? false
    }

    /// Records a run and the findings of an array (see the streaming form above).
    @discardableResult
    public func saveRun(
        _ run: RunInfo, devices: DeviceSelection, findings: [Finding], derived: DerivedStage? = nil
    ) throws -> Int64 {
        try saveRun(run, devices: devices, count: findings.count, findings: findings.forEach, derived: derived)
    }

    /// The `factors` column: a JSON array of `{"kind", "share", "event_ids", "event_seqs"}`, or
    /// NULL when there are none (see the v7 migration).
    static func factors(_ factors: [Finding.Factor]) -> String? {
        guard !factors.isEmpty else { return nil }
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        for (index, factor) in factors.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: "{\"kind\":\"\(factor.kind.rawValue)\",\"share\":".utf8)
            bytes.append(contentsOf: (factor.share.isFinite ? "\(factor.share)" : "null").utf8)
            bytes.append(contentsOf: ",\"event_ids\":".utf8)
            appendJSONArray(factor.evidence.lazy.map(\.rowID), to: &bytes)
            bytes.append(contentsOf: ",\"event_seqs\":".utf8)
            appendJSONArray(factor.evidence.lazy.map(\.seq), to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `[1,null,3]`, written as bytes: the `event_ids` and `event_seqs` of a finding (see
    /// ``DerivedRow/Encoder``) and of each of its factors.
    static func appendJSONArray(_ values: some Sequence<Int64?>, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "["))
        var first = true
        for value in values {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            // A small string: written without allocating.
            if let value { bytes.append(contentsOf: String(value).utf8) } else { bytes.append(contentsOf: "null".utf8) }
        }
        bytes.append(UInt8(ascii: "]"))
    }
}
