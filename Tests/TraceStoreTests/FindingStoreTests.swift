import Foundation
import GRDB
import Testing
import TraceModel
@testable import TraceStore

@Suite struct FindingStoreTests {
    private static let run = RunInfo(
        startedAt: Date(), finishedAt: Date(), version: "t", budgets: "{}", scope: nil, devices: 1, events: 1)

    private static func finding(_ rule: String, ts: Int64, device: String = "D", explainedBy: FindingRef? = nil) -> Finding {
        Finding(
            rule: rule, category: .violation, severity: .error, device: device, launch: "L",
            ts: Timestamp(microseconds: ts), events: [], message: rule, explainedBy: explainedBy)
    }

    @Test func aTerminationIsLinkedToTheFindingThatExplainsItInTheSameRun() throws {
        let db = try TemporaryDatabase()
        let cause = Self.finding("background-task-overrun", ts: 10)
        let kill = Self.finding("termination-explained", ts: 20, explainedBy: FindingRef(rule: cause.rule, ts: cause.ts))
        try db.store.saveRun(Self.run, devices: .all, findings: [cause, kill])
        try db.store.saveRun(Self.run, devices: .only(["other"]), findings: [Self.finding(cause.rule, ts: 10, device: "other")])
        try db.store.saveRun(Self.run, devices: .only(["D"]), findings: [cause, kill])
        let rows = try db.store.read {
            try Row.fetchAll($0, sql: """
                SELECT f.rule, c.rule AS cause, f.run_id = c.run_id AS sameRun
                FROM findings f JOIN findings c ON c.id = f.explained_by
                """)
        }
        #expect(rows.count == 1)
        #expect(rows.first?["cause"] == cause.rule)
        #expect(rows.first?["sameRun"] == true)
    }

    /// A finding's `event_ids` and `event_seqs` are written as JSON into the row's bytes:
    /// every integer (zero, negatives, both extremes) and a missing one (`null`) as JSON that SQLite
    /// reads back to the same numbers; no events, `[]`.
    @Test func eventIdsAndSeqsAreJSONArraysOfEveryInteger() throws {
        let db = try TemporaryDatabase()
        let ids: [Int64?] = [0, 7, -1, 10, 99, 100, .max, .min, nil, 1_234_567_890_123, -9]
        let seqs = Array(ids.reversed())
        var finding = Self.finding("illegal-transition", ts: 5)
        finding.events = zip(ids, seqs).map { EventRef(rowID: $0, seq: $1, name: "e", ts: Timestamp(microseconds: 5)) }
        try db.store.saveRun(Self.run, devices: .all, findings: [finding, Self.finding("launch-sequence", ts: 6)])
        let rows = try db.store.read {
            try Row.fetchAll($0, sql: "SELECT event_ids, event_seqs, json_valid(event_ids) AS valid FROM findings ORDER BY id")
        }
        func json(_ values: [Int64?]) -> String { "[" + values.map { $0.map(String.init) ?? "null" }.joined(separator: ",") + "]" }
        #expect(rows.map { $0["event_ids"] as String } == [json(ids), "[]"])
        #expect(rows.map { $0["event_seqs"] as String } == [json(seqs), "[]"])
        #expect(rows.first?["valid"] == true)
        let minimum = try db.store.read { try Int64.fetchOne($0, sql: "SELECT json_extract(event_ids, '$[7]') FROM findings ORDER BY id") }
        #expect(minimum == .min)
    }

    /// A run of every device replaces every finding with foreign keys checked once, on the rows it
    /// saves: a store that held findings (one explaining another) is saved over with none left
    /// naming a row that is gone, and the connection enforces foreign keys again afterwards.
    @Test func aRunOfEveryDeviceReplacesItsFindingsWithTheirForeignKeysChecked() throws {
        let db = try TemporaryDatabase()
        let cause = Self.finding("background-task-overrun", ts: 10)
        let kill = Self.finding("termination-explained", ts: 20, explainedBy: FindingRef(rule: cause.rule, ts: cause.ts))
        try db.store.saveRun(Self.run, devices: .all, findings: [cause, kill])
        try db.store.saveRun(Self.run, devices: .all, findings: [cause, kill, Self.finding("launch-sequence", ts: 30)])
        let (count, broken, enforced) = try db.store.write { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM findings"),
             try Row.fetchAll(db, sql: "PRAGMA foreign_key_check"),
             try Bool.fetchOne(db, sql: "PRAGMA foreign_keys"))
        }
        #expect(count == 3)
        #expect(broken.isEmpty)
        #expect(enforced == true)
        let explained = try db.store.read {
            try Int.fetchOne($0, sql: "SELECT count(*) FROM findings f JOIN findings c ON c.id = f.explained_by")
        }
        #expect(explained == 1)
    }

    /// The check that stands in for row-by-row enforcement finds a saved finding that names a run,
    /// or an explaining finding, that does not exist — and only among the rows saved.
    @Test func theCheckOnceFindsASavedFindingThatNamesNothing() throws {
        let db = try TemporaryDatabase()
        try db.store.saveRun(Self.run, devices: .all, findings: [Self.finding("launch-sequence", ts: 1)])
        // Rows that break a key, written as a hand in `sqlite3` could (foreign keys off, outside a transaction).
        let verdicts = try db.store.pool.writeWithoutTransaction { db -> [Bool] in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
            let good = try Store.savedFindingNamesNothing(db, from: 1)
            let insert = """
                INSERT INTO findings (id, run_id, rule, category, severity, device, launch, ts, event_ids, event_seqs,
                    message, explained_by)
                VALUES (?, ?, 'r', 'violation', 'error', 'D', 'L', 0, '[]', '[]', 'm', ?)
                """
            try db.execute(sql: insert, arguments: [100, 999, nil])
            let noRun = try Store.savedFindingNamesNothing(db, from: 100)
            let before = try Store.savedFindingNamesNothing(db, from: 101)
            try db.execute(sql: insert, arguments: [200, 1, 555])
            let noCause = try Store.savedFindingNamesNothing(db, from: 200)
            return [good, noRun, before, noCause]
        }
        #expect(verdicts == [false, true, false, true])
    }

    /// Replacing a run deletes its findings; with foreign keys on, SQLite looks up each deleted
    /// finding's dependants by `explained_by`, which must be an index search, not a scan of the
    /// table per row (80 s for 25,581 findings).
    @Test func deletingAFindingFindsWhatItExplainsThroughAnIndex() throws {
        let db = try TemporaryDatabase()
        let plan = try db.store.read {
            try Row.fetchAll($0, sql: "EXPLAIN QUERY PLAN SELECT id FROM findings WHERE explained_by = ?", arguments: [1])
        }.map { $0["detail"] as String }
        #expect(plan.contains { $0.contains("USING COVERING INDEX findings_by_explanation") }, "\(plan)")
    }

    /// Factors are a JSON array SQL can read: kind, share, and the evidence as `event_ids` and
    /// `event_seqs` give a finding's events; NULL for a finding without any.
    @Test func factorsAreStoredAsJSONAndNullWithoutAny() throws {
        let db = try TemporaryDatabase()
        var waited = Self.finding("bgtask-never-ran", ts: 90)
        let evidence = [
            EventRef(rowID: 42, seq: 7, name: "power", ts: Timestamp(microseconds: 5)),
            EventRef(rowID: nil, seq: nil, name: "terminate", ts: Timestamp(microseconds: 6)),
        ]
        waited.factors = [
            Finding.Factor(kind: .lowPowerMode, share: 0.7, evidence: Array(evidence.prefix(1))),
            Finding.Factor(kind: .swipedAway, share: 0.25, evidence: Array(evidence.suffix(1))),
            Finding.Factor(kind: .appUnused, share: 1, evidence: []),
        ]
        try db.store.saveRun(Self.run, devices: .all, findings: [Self.finding("illegal-transition", ts: 10), waited])
        let rows = try db.store.read {
            try Row.fetchAll($0, sql: """
                SELECT f.rule, j.key, json_extract(j.value, '$.kind') AS kind, json_extract(j.value, '$.share') AS share,
                       json_extract(j.value, '$.event_ids') AS ids, json_extract(j.value, '$.event_seqs') AS seqs
                FROM findings f, json_each(f.factors) j ORDER BY f.id, j.key
                """)
        }
        #expect(rows.map { $0["kind"] as String } == ["low-power-mode", "swiped-away", "app-unused"])
        #expect(rows.map { $0["share"] as Double } == [0.7, 0.25, 1])
        #expect(rows.map { $0["ids"] as String } == ["[42]", "[null]", "[]"])
        #expect(rows.map { $0["seqs"] as String } == ["[7]", "[null]", "[]"])
        let none = try db.store.read { try Row.fetchOne($0, sql: "SELECT factors IS NULL AS none FROM findings WHERE rule = 'illegal-transition'") }
        #expect(none?["none"] == true)
    }

    @Test func findingsAreReadOnceInOrderSoTheyCanComeFromAFile() throws {
        let db = try TemporaryDatabase()
        let findings = (0 ..< 50).map { Self.finding("r\($0 % 3)", ts: Int64($0)) }
        var reads = 0
        try db.store.saveRun(Self.run, devices: .all, count: findings.count) { body in
            for finding in findings {
                reads += 1
                try body(finding)
            }
        }
        #expect(reads == findings.count)
        let saved = try db.store.read { try Int64.fetchAll($0, sql: "SELECT ts FROM findings ORDER BY id") }
        #expect(saved == findings.map(\.ts.microseconds))
        let recorded = try db.store.read { try Int.fetchOne($0, sql: "SELECT findings FROM runs") }
        #expect(recorded == 50)
    }
}
