import Foundation
import GRDB
import Testing
import TraceModel
@testable import TraceStore

/// The derived tables: written with a run's findings in one transaction, replaced per device as
/// findings are, their launches named by row id and their findings by the run's own ids.
@Suite struct DerivedTablesTests {
    static func run(devices: Int = 1) -> RunInfo {
        RunInfo(startedAt: Date(), finishedAt: Date(), version: "test", budgets: "{}", scope: nil, devices: devices, events: 1)
    }

    static func finding(_ rule: String, device: String, launch: String, at seconds: Double, explainedBy: FindingRef? = nil) -> Finding {
        Finding(
            rule: rule, category: .missedCompletion, severity: .error, device: device, launch: launch,
            ts: Timestamp(seconds: seconds), events: [], message: rule, explainedBy: explainedBy)
    }

    static func launch(_ number: Int, device: String, launch: String, ended: LaunchRecord.Ending = .terminated) -> DerivedRecord {
        .launch(LaunchRecord(
            number: number, device: device, launch: launch, app: "com.example.news", appVersion: "5.12.0", os: "18.0",
            model: nil, process: nil, firstTS: Timestamp(seconds: 0), lastTS: Timestamp(seconds: 10), started: "user",
            cause: nil, ended: ended, endReason: ended == .terminated ? "watchdog" : nil, endState: "background",
            foregroundSeconds: 1, backgroundSeconds: 9, suspendedSeconds: 0, logCutShort: false))
    }

    static func task(launch: Int, task: Int64, finding: Int?, rule: String?) -> DerivedRecord {
        .task(TaskRecord(
            launch: launch, kind: .backgroundTask, task: task, call: nil, identifier: "sync", opened: Timestamp(seconds: 1),
            closed: nil, expired: nil, outcome: .neverCompleted, seconds: 9, budget: "background-time",
            budgetSeconds: 30, measured: 9, overBudget: false, findingNumber: finding, findingRule: rule))
    }

    static func interval(launch: Int, seconds: Double) -> DerivedRecord {
        .interval(IntervalRecord(
            launch: launch, callback: "didEnterBackground", scene: nil, begin: Timestamp(seconds: 1),
            end: Timestamp(seconds: 1 + seconds), outcome: .returned, seconds: seconds, budget: "did-enter-background",
            budgetSeconds: 5, overBudget: seconds > 5))
    }

    static func request(launch: Int, ranIn: Int?) -> DerivedRecord {
        .request(RequestRecord(
            launch: launch, identifier: "com.example.refresh", type: "refresh", submitted: Timestamp(seconds: 1),
            earliestBegin: nil, requiresPower: nil, requiresNetwork: nil, outcome: ranIn == nil ? .pending : .launched,
            error: nil, ended: ranIn.map { _ in Timestamp(seconds: 5) }, ranIn: ranIn, task: ranIn.map { _ in 1 },
            waitSeconds: ranIn.map { _ in 4 }))
    }

    /// Two devices: D1 with two launches (its first killed, explained by a task never ended: two
    /// tasks whose findings share rule, launch and time), D2 with one.
    static func firstRun(_ store: Store) throws -> (findings: [Finding], stage: DerivedStage) {
        let findings = [
            finding("background-task-not-ended", device: "D1", launch: "A", at: 10),
            finding("background-task-not-ended", device: "D1", launch: "A", at: 10),
            finding("termination-explained", device: "D1", launch: "A", at: 10,
                    explainedBy: FindingRef(rule: "background-task-not-ended", ts: Timestamp(seconds: 10))),
            finding("background-task-not-ended", device: "D2", launch: "C", at: 10),
        ]
        let stage = try DerivedStage(store: store)
        try stage.write([
            interval(launch: 0, seconds: 6), task(launch: 0, task: 1, finding: 0, rule: "background-task-not-ended"),
            task(launch: 0, task: 2, finding: 1, rule: "background-task-not-ended"), request(launch: 0, ranIn: 1),
            launch(0, device: "D1", launch: "A"), launch(1, device: "D1", launch: "B", ended: .logEnded),
            task(launch: 2, task: 1, finding: 3, rule: "background-task-not-ended"), launch(2, device: "D2", launch: "C"),
            request(launch: 2, ranIn: nil),
        ], findings: findings)
        return (findings, stage)
    }

    @Test func rowsNameTheirLaunchAndFindingByRowID() throws {
        let db = try TemporaryDatabase()
        let (findings, stage) = try Self.firstRun(db.store)
        try db.store.saveRun(Self.run(devices: 2), devices: .all, findings: findings, derived: stage)
        try db.store.read { database in
            let launches = try Row.fetchAll(database, sql: """
                SELECT id, device, launch, app_version, ended, findings, explained_by, explained_by_rule FROM launches ORDER BY id
                """)
            #expect(launches.map { $0["launch"] as String } == ["A", "B", "C"])
            #expect(launches.map { $0["findings"] as Int } == [3, 0, 1])
            #expect(launches.map { $0["ended"] as String } == ["terminated", "log-ended", "terminated"])
            #expect(launches.map { $0["app_version"] as String } == ["5.12.0", "5.12.0", "5.12.0"])
            let ids = launches.map { $0["id"] as Int64 }
            let findingIDs = try Int64.fetchAll(database, sql: "SELECT id FROM findings ORDER BY id")
            // The kill of A is explained by the finding the termination finding names.
            #expect(launches[0]["explained_by"] as Int64? == findingIDs[1])
            #expect(launches[0]["explained_by_rule"] as String? == "background-task-not-ended")
            #expect(launches[1]["explained_by"] as Int64? == nil)
            // Each task names its own finding, though two share rule, launch and time.
            let tasks = try Row.fetchAll(database, sql: "SELECT launch_id, task, finding_id FROM tasks ORDER BY id")
            #expect(tasks.map { $0["launch_id"] as Int64 } == [ids[0], ids[0], ids[2]])
            #expect(tasks.map { $0["finding_id"] as Int64 } == [findingIDs[0], findingIDs[1], findingIDs[3]])
            let intervals = try Row.fetchAll(database, sql: "SELECT launch_id, over_budget FROM intervals")
            #expect(intervals.map { $0["launch_id"] as Int64 } == [ids[0]])
            #expect(intervals.map { $0["over_budget"] as Bool } == [true])
            let requests = try Row.fetchAll(database, sql: "SELECT launch_id, ran_in, outcome FROM requests ORDER BY id")
            #expect(requests.map { $0["launch_id"] as Int64 } == [ids[0], ids[2]])
            #expect(requests.map { $0["ran_in"] as Int64? } == [ids[1], nil])
            let runIDs = try Int64.fetchAll(database, sql: "SELECT DISTINCT run_id FROM launches")
            #expect(runIDs == (try Int64.fetchAll(database, sql: "SELECT id FROM runs")))
        }
    }

    @Test func aRunOfSomeDevicesReplacesOnlyTheirRows() throws {
        let db = try TemporaryDatabase()
        let (findings, stage) = try Self.firstRun(db.store)
        try db.store.saveRun(Self.run(devices: 2), devices: .all, findings: findings, derived: stage)
        // D1 again: one launch, no finding.
        let again = try DerivedStage(store: db.store)
        try again.write([Self.interval(launch: 0, seconds: 1), Self.launch(0, device: "D1", launch: "A")])
        try db.store.saveRun(Self.run(), devices: .only(["D1"]), findings: [], derived: again)
        try db.store.read { database in
            let launches = try Row.fetchAll(database, sql: "SELECT id, device, launch, findings, run_id FROM launches ORDER BY id")
            #expect(launches.map { $0["device"] as String } == ["D2", "D1"])
            #expect(launches.map { $0["findings"] as Int } == [1, 0])
            let d1 = launches[1]["id"] as Int64
            let d2 = launches[0]["id"] as Int64
            #expect(launches[1]["run_id"] as Int64 == 2 && launches[0]["run_id"] as Int64 == 1)
            #expect(try Int64.fetchAll(database, sql: "SELECT launch_id FROM intervals") == [d1])
            #expect(try Int64.fetchAll(database, sql: "SELECT launch_id FROM tasks") == [d2])
            #expect(try Int64.fetchAll(database, sql: "SELECT launch_id FROM requests") == [d2])
            // D2's task still names D2's finding, the only one left.
            #expect(try Int64.fetchOne(database, sql: "SELECT finding_id FROM tasks")
                    == (try Int64.fetchOne(database, sql: "SELECT id FROM findings")))
        }
        // A run that derived nothing (an old caller) still clears what earlier runs derived.
        try db.store.saveRun(Self.run(), devices: .all, findings: [])
        let left = try db.store.read { database in
            try ["launches", "intervals", "tasks", "requests"].map { try Int.fetchOne(database, sql: "SELECT count(*) FROM \($0)") }
        }
        #expect(left == [0, 0, 0, 0])
    }

    /// A launch's row counts the findings of its device and launch id, as a `GROUP BY` of the
    /// findings would, whenever they come: before the row is written, after it (in the same chunk
    /// or a later one), or when two rows share the id. A finding of a launch with no row counts
    /// nowhere, and the next device starts from nothing.
    @Test func eachLaunchCountsItsFindingsWhenTheyCome() throws {
        let db = try TemporaryDatabase()
        let stage = try DerivedStage(store: db.store)
        let rows = DerivedRows(chunkBytes: 64) { try stage.write($0) }
        var findings: [Finding] = []
        func found(_ device: String, _ launch: String) throws {
            findings.append(Self.finding("background-task-not-ended", device: device, launch: launch, at: 5))
            try rows.found(device: device, launch: launch)
        }
        try found("D1", "A")
        try rows.append(Self.launch(0, device: "D1", launch: "A"))
        try found("D1", "A")
        try rows.append(Self.launch(1, device: "D1", launch: "B", ended: .superseded))
        try rows.append(Self.launch(2, device: "D1", launch: "A", ended: .logEnded))
        try found("D1", "A")
        try found("D1", "gone")
        try found("D2", "A")
        try rows.append(Self.launch(3, device: "D2", launch: "A"))
        try rows.append(Self.launch(4, device: "D3", launch: "C"))
        try rows.flush()
        try db.store.saveRun(Self.run(devices: 3), devices: .all, findings: findings, derived: stage)
        try db.store.read { database in
            let counts = try Int.fetchAll(database, sql: "SELECT findings FROM launches ORDER BY id")
            #expect(counts == [3, 0, 3, 1, 0])
            let grouped = try Int.fetchAll(database, sql: """
                SELECT (SELECT count(*) FROM findings f WHERE f.device = l.device AND f.launch = l.launch)
                FROM launches l ORDER BY l.id
                """)
            #expect(counts == grouped)
        }
    }

    /// Ids from input are counted by all their bytes: a NUL does not end one, and an id that
    /// only begins like another is another.
    @Test func launchIdsAreCountedByAllTheirBytes() throws {
        let db = try TemporaryDatabase()
        let stage = try DerivedStage(store: db.store)
        let rows = DerivedRows(chunkBytes: 64) { try stage.write($0) }
        let long = String(repeating: "L", count: 100_000)
        let ids = ["A\u{0}B", "A", long, long + "x"]
        var findings: [Finding] = []
        for (number, id) in ids.enumerated() {
            try rows.append(Self.launch(number, device: "D\u{0}", launch: id))
            for _ in 0 ... number {
                findings.append(Self.finding("background-task-not-ended", device: "D\u{0}", launch: id, at: 5))
                try rows.found(device: "D\u{0}", launch: id)
            }
        }
        try rows.flush()
        try db.store.saveRun(Self.run(), devices: .all, findings: findings, derived: stage)
        let counts = try db.store.read { try Int.fetchAll($0, sql: "SELECT findings FROM launches ORDER BY id") }
        #expect(counts == [1, 2, 3, 4])
    }

    /// Rows go to the stage a few at a time (one larger than a chunk) and come back whole, in
    /// order, texts byte for byte (a NUL, a long id).
    @Test func rowsComeBackExactly() throws {
        let db = try TemporaryDatabase()
        let stage = try DerivedStage(store: db.store)
        var chunks = 0
        let rows = DerivedRows(chunkBytes: 64) { chunk in
            chunks += 1
            try stage.write(chunk)
        }
        let long = String(repeating: "é", count: 100_000)
        let odd = "D\u{0}1"
        for index in 0 ..< 500 {
            try rows.append(Self.launch(index, device: index == 7 ? odd : "D", launch: index == 9 ? long : "L\(index)"))
            try rows.append(Self.interval(launch: index, seconds: Double(index)))
        }
        try rows.flush()
        #expect(rows.count == 1000 && stage.rows == 1000 && chunks > 100)
        try db.store.saveRun(Self.run(), devices: .all, findings: [], derived: stage)
        try db.store.read { database in
            #expect(try Int.fetchOne(database, sql: "SELECT count(*) FROM launches") == 500)
            #expect(try Int.fetchOne(database, sql: "SELECT count(*) FROM intervals") == 500)
            let names = try Row.fetchAll(database, sql: "SELECT launch FROM launches ORDER BY id").map { $0["launch"] as String }
            #expect(names[9] == long && names[499] == "L499")
            #expect(try Int.fetchOne(database, sql: "SELECT length(CAST(device AS BLOB)) FROM launches WHERE id = (SELECT min(id) + 7 FROM launches)") == 3)
            let seconds = try Double.fetchAll(database, sql: "SELECT i.seconds FROM intervals i JOIN launches l ON l.id = i.launch_id ORDER BY l.id")
            #expect(seconds == (0 ..< 500).map(Double.init))
        }
    }

    /// A launch's background periods are a JSON array of `[seconds, how it ended]`, seconds to the
    /// millisecond.
    @Test func backgroundPeriodsAreJSON() throws {
        let db = try TemporaryDatabase()
        let stage = try DerivedStage(store: db.store)
        let seconds = [5.0, 0.25, 1.999, 0.05, 0.005, 12_345.5, 0.0004, 1e300]
        let endings: [BackgroundPeriod.Ending] = [.suspended, .foreground, .terminated, .logEnded, .suspended, .foreground, .terminated, .logEnded]
        guard case .launch(var launch) = Self.launch(0, device: "D1", launch: "A") else { return }
        launch.backgroundPeriods = zip(seconds, endings).map { BackgroundPeriod(seconds: $0, ended: $1) }
        try stage.write([.launch(launch), Self.launch(1, device: "D1", launch: "B")])
        try db.store.saveRun(Self.run(), devices: .all, findings: [], derived: stage)
        let json = try db.store.read { try String.fetchAll($0, sql: "SELECT background_periods FROM launches ORDER BY id") }
        #expect(json == [
            #"[[5.0,"suspended"],[0.25,"foreground"],[1.999,"terminated"],[0.05,"log-ended"],[0.005,"suspended"],"#
                + #"[12345.5,"foreground"],[0.0,"terminated"],[null,"log-ended"]]"#,
            "[]",
        ])
        let parsed = try db.store.read {
            try Row.fetchAll($0, sql: "SELECT json_extract(p.value, '$[0]') AS s FROM launches, json_each(background_periods) p")
        }
        #expect(parsed.count == 8)
    }

    static func tables(_ store: Store) throws -> [String] {
        try store.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") }
    }

    /// A stage is not public until published, and leaves nothing behind: published (the tables it
    /// retired dropped by the next stage), copied in, discarded, or left by a check that died and
    /// dropped by the next stage.
    @Test func aStageLeavesNothingBehind() throws {
        let db = try TemporaryDatabase()
        let before = try Self.tables(db.store)
        let stage = try DerivedStage(store: db.store)
        try stage.write([Self.launch(0, device: "D1", launch: "A")])
        #expect(try Self.tables(db.store).count == before.count + 4)
        #expect(try db.store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM launches") } == 0)
        try stage.discard()
        #expect(try Self.tables(db.store) == before)
        // Published by swapping names: the public tables have the migration's columns and an index
        // on device; the old ones are retired until the next stage begins.
        let columns = { (store: Store) in
            try store.read { db in
                try ["launches", "intervals", "tasks", "requests"].map { table in
                    try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { "\($0["name"] as String) \($0["type"] as String)" }
                }
            }
        }
        let migrated = try columns(db.store)
        let (findings, published) = try Self.firstRun(db.store)
        try db.store.saveRun(Self.run(devices: 2), devices: .all, findings: findings, derived: published)
        #expect(try Self.tables(db.store).count == before.count + 4)
        #expect(try columns(db.store) == migrated)
        let indexed = try db.store.read { db in
            try Row.fetchAll(db, sql: "SELECT name FROM pragma_index_list('launches')").map { (index: Row) -> [String] in
                try Row.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?)", arguments: [index["name"] as String])
                    .map { $0["name"] as String }
            }
        }
        #expect(indexed == [["device"]])
        #expect(try db.store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM derived_stages WHERE retired") } == 1)
        // A stage whose process is gone (an impossible pid) is dropped when the next one begins.
        try db.store.write { database in
            try database.execute(sql: DerivedTables.schema(
                launches: "derived_stage_dead_launches", intervals: "derived_stage_dead_intervals",
                tasks: "derived_stage_dead_tasks", requests: "derived_stage_dead_requests"))
            try database.execute(sql: """
                INSERT INTO derived_stages (stage, claim_pid, claim_start, claim_run, started_at)
                VALUES ('derived_stage_dead', 2147483647, 'gone', 1, '2026-01-01T00:00:00Z')
                """)
        }
        #expect(try Self.tables(db.store).count == before.count + 8)
        let next = try DerivedStage(store: db.store)
        #expect(try Self.tables(db.store).count == before.count + 4)
        #expect(try db.store.read { try String.fetchAll($0, sql: "SELECT stage FROM derived_stages") } == [next.name])
        // Copied in for some devices: nothing retired.
        try next.write([Self.launch(0, device: "D1", launch: "A")])
        try db.store.saveRun(Self.run(), devices: .only(["D1"]), findings: [], derived: next)
        #expect(try Self.tables(db.store) == before)
        #expect(try db.store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM derived_stages") } == 0)
        #expect(try db.store.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
    }

    /// A store made before migration v8 keeps its ingest table of launch ids under a new name,
    /// the `events` view follows it, and the derived tables start empty.
    @Test func aVersion7StoreKeepsItsEventsUnderTheRenamedLaunchTable() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-v7-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("old.db").path
        do {
            let old = try DatabaseQueue(path: path)
            try Migrations.migrator.migrate(old, upTo: "v7: findings' factors")
            try old.write { db in
                try db.execute(sql: """
                    INSERT INTO files (id, path, sha256, compression, status, started_at)
                    VALUES (1, 'a.jsonl', 'abc', 'none', 'done', '2026-01-01T00:00:00Z');
                    INSERT INTO devices (id, name) VALUES (1, 'D1');
                    INSERT INTO launches (id, device_id, name, first_ts, last_ts, events) VALUES (1, 1, 'L1', 5, 6, 2);
                    INSERT INTO contexts (id, app, app_version, os) VALUES (1, 'com.example.news', '5.12.0', '18.0');
                    INSERT INTO event_rows (id, ts, seq, event, context_id, file_id, line) VALUES ((1 << 32) | 0, 5, 0, 'launch', 1, 1, 1);
                    INSERT INTO event_rows (id, ts, seq, event, context_id, file_id, line) VALUES ((1 << 32) | 1, 6, 1, 'suspend', 1, 1, 2);
                    """)
            }
        }
        let store = try Store(path: path)
        try store.read { db in
            let events = try Row.fetchAll(db, sql: "SELECT device, launch, event, app_version FROM events ORDER BY id")
            #expect(events.map { $0["event"] as String } == ["launch", "suspend"])
            #expect(events.allSatisfy { $0["device"] as String == "D1" && $0["launch"] as String == "L1" })
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM launch_rows") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM launches") == 0)
            let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(launches)").map { $0["name"] as String }
            #expect(columns.contains("ended") && columns.contains("explained_by"))
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM derived_stages") == 0)
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
        }
    }
}
