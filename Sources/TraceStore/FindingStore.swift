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
            let insert = try db.cachedStatement(sql: """
                INSERT INTO findings (run_id, rule, category, severity, device, launch, ts, event_ids, event_seqs,
                    budget, budget_seconds, measured, unit, message, explained_by, factors)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            // Found through `findings_by_device` rather than a dictionary of every finding saved,
            // so memory does not grow with the findings; the latest such finding saved, as the
            // replay reports the cause just before the termination it explains.
            let explanation = try db.cachedStatement(sql: """
                SELECT id FROM findings
                WHERE device = ? AND ts = ? AND run_id = ? AND launch = ? AND rule = ?
                ORDER BY id DESC LIMIT 1
                """)
            var firstFinding: Int64?
            var saved = 0
            try findings { finding in
                var explainedBy: Int64?
                if let cause = finding.explainedBy {
                    explainedBy = try ExactStatement.integer(explanation, [
                        .text(finding.device), .integer(cause.ts.microseconds), .integer(runID),
                        .text(finding.launch), .text(cause.rule),
                    ])
                }
                // Device, launch and message carry input text, which may hold a NUL (see `ExactStatement`).
                try ExactStatement.execute(insert, [
                    .integer(runID), .text(finding.rule), .text(finding.category.rawValue),
                    .text(finding.severity.rawValue), .text(finding.device), .text(finding.launch),
                    .integer(finding.ts.microseconds), .text(Self.jsonArray(finding.events.lazy.map(\.rowID))),
                    .text(Self.jsonArray(finding.events.lazy.map(\.seq))), .text(finding.budget),
                    .real(finding.budgetSeconds), .real(finding.measured), .text(finding.unit),
                    .text(finding.message), .integer(explainedBy), .text(Self.factors(finding.factors)),
                ])
                if saved == 0 { firstFinding = db.lastInsertedRowID }
                saved += 1
            }
            if let derived {
                // Ids follow each other within this transaction; were they ever not to, records
                // would name no finding rather than a wrong one.
                if let first = firstFinding, db.lastInsertedRowID != first + Int64(saved - 1) { firstFinding = nil }
                try derived.publish(db, devices: devices, runID: runID, firstFinding: firstFinding, findings: saved)
            } else {
                try DerivedTables.delete(db, devices: devices)
            }
            return runID
        }
        derived?.published()
        return runID
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
            appendArray(factor.evidence.lazy.map(\.rowID), to: &bytes)
            bytes.append(contentsOf: ",\"event_seqs\":".utf8)
            appendArray(factor.evidence.lazy.map(\.seq), to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `[1,null,3]`, written as bytes: made twice for each of a check's findings, in the
    /// transaction that saves them, it took a tenth of that transaction's time as strings joined.
    private static func jsonArray(_ values: some Sequence<Int64?>) -> String {
        var bytes: [UInt8] = []
        appendArray(values, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func appendArray(_ values: some Sequence<Int64?>, to bytes: inout [UInt8]) {
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
