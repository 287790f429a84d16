import Foundation
import GRDB
import Testing
import TraceModel
@testable import TraceStore

/// A store made before migration v7 gains `findings.factors` when opened: the findings it holds
/// keep their rows, with NULL factors, and a new run records factors next to them.
@Suite struct FactorsMigrationTests {
    @Test func aVersion6StoreGainsTheFactorsColumnWithItsFindingsKept() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-v6-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("old.db").path
        do {
            let old = try DatabaseQueue(path: path)
            try Migrations.migrator.migrate(old, upTo: "v6: findings' explanations indexed")
            try old.write { db in
                try db.execute(sql: """
                    INSERT INTO runs (id, started_at, finished_at, version, budgets, devices, events, findings)
                    VALUES (1, '2026-01-01T00:00:00Z', '2026-01-01T00:00:01Z', 'old', '{}', 1, 10, 1);
                    INSERT INTO findings (run_id, rule, category, severity, device, launch, ts, event_ids, event_seqs, message)
                    VALUES (1, 'bgtask-refresh-overrun', 'overrun', 'error', 'D', 'L', 5, '[]', '[]', 'old finding');
                    """)
                let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(findings)").map { $0["name"] as String }
                #expect(!columns.contains("factors"))
            }
        }
        let store = try Store(path: path)
        let kept = try store.read {
            try Row.fetchAll($0, sql: "SELECT message, factors IS NULL AS none FROM findings")
        }
        #expect(kept.map { $0["message"] as String } == ["old finding"])
        #expect(kept.map { $0["none"] as Bool } == [true])
        let applied = try store.read { try Migrations.migrator.appliedMigrations($0) }
        #expect(applied.contains("v7: findings' factors"))

        // Findings of devices not checked again stay; the new run's factors are recorded.
        let finding = Finding(
            rule: "bgtask-never-ran", category: .advisory, severity: .info, device: "E", launch: "L2",
            ts: Timestamp(microseconds: 9), events: [], message: "waited",
            factors: [Finding.Factor(kind: .refreshDisabled, share: 1, evidence: [])])
        let run = RunInfo(startedAt: Date(), finishedAt: Date(), version: "new", budgets: "{}", scope: nil, devices: 1, events: 1)
        try store.saveRun(run, devices: .only(["E"]), findings: [finding])
        let factors = try store.read { try String.fetchAll($0, sql: "SELECT coalesce(factors, 'NULL') FROM findings ORDER BY id") }
        #expect(factors == ["NULL", #"[{"kind":"refresh-disabled","share":1.0,"event_ids":[],"event_seqs":[]}]"#])
        let integrity = try store.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
        #expect(integrity == "ok")
    }
}
