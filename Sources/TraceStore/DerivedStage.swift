import Foundation
import GRDB
import TraceModel

/// The derived rows of one `check` while its replay runs: written a chunk at a time (from a thread
/// of the caller's, beside the replay) into tables of their own in the store — a stage — and
/// published with the run's findings in one transaction by
/// ``Store/saveRun(_:devices:count:findings:derived:)``. A check of every device publishes by
/// swapping names: the stage's tables become the public ones, and the public ones are retired
/// under the stage's name, to be dropped by the next stage begun (beside its replay: dropping 60 MB
/// of tables took a tenth of a second, and the commit after it another). A check of some devices
/// copies its rows in.
///
/// Writing millions of rows costs SQLite about a microsecond each: done inside the findings'
/// transaction, after the replay, it was a third of a `check`'s time; written beside the replay,
/// on the core the replay leaves idle, it costs the publication a rename. Until published, the
/// stage's tables are not public and a reader never sees half a run. While a stage is written, the
/// writer connection does not checkpoint the WAL after each commit: the replay's own read
/// transaction keeps it from copying anything, and every attempt synced the WAL — the staging
/// thread spent more time waiting on the disk than writing (`check` of the tidy benchmark store
/// took twice as long). The WAL is checkpointed as usual once the stage is published or dropped.
/// Each stage is listed in
/// `derived_stages` with the claim of the process writing it (``IngestClaim``: pid and start
/// time), and the next stage begun drops the stage of a check that died.
public final class DerivedStage: @unchecked Sendable {
    struct Tables {
        let launches, intervals, tasks, requests: String

        var all: [String] { [launches, intervals, tasks, requests] }
    }

    private let store: Store
    let name: String
    let tables: Tables
    private let claim: IngestClaim
    /// Published or discarded: its tables are gone (or public).
    private var finished = false
    /// The writer connection's `wal_autocheckpoint` before the stage began, restored when it ends.
    private let autocheckpoint: Int
    /// The id its run will have, unless another run is saved first: the launches are written with
    /// it, so that publishing need not rewrite every launch's row.
    let runID: Int64
    /// What a finding's number is written plus: 1 for a run of every device, whose findings, saved
    /// into an emptied table, get the ids 1, 2, … (so publishing need not rewrite the tasks that
    /// name one); 0, the number itself, for a run of some devices, mapped when its rows are copied.
    let findingOffset: Int64
    /// Rows written so far.
    public private(set) var rows = 0
    /// The WAL the rows go to, written to disk as they come (see ``WriteAheadLogWriteback``).
    private let writeback: WriteAheadLogWriteback

    /// Begins a stage in `store` for a run of `devices`: creates its tables (dropping those of
    /// stages whose check died, and those a publication retired).
    public init(store: Store, devices: Store.DeviceSelection = .all) throws {
        self.store = store
        findingOffset = devices == .all ? 1 : 0
        writeback = WriteAheadLogWriteback(databasePath: store.path)
        claim = IngestClaim.begin()
        let token = String(UInt64.random(in: 0 ... UInt64.max), radix: 36)
        name = "derived_stage_\(claim.pid)_\(claim.run)_\(token)"
        tables = Tables(
            launches: "\(name)_launches", intervals: "\(name)_intervals", tasks: "\(name)_tasks",
            requests: "\(name)_requests")
        let (name, tables, claim) = (name, tables, claim)
        do {
            autocheckpoint = try store.automaticCheckpoint(pages: 0)
            runID = try store.write { db in
                try Self.dropAbandoned(db)
                try db.execute(sql: DerivedTables.schema(
                    launches: tables.launches, intervals: tables.intervals, tasks: tables.tasks, requests: tables.requests))
                try db.execute(sql: DerivedTables.launchIndex("\(name)_launches_by_device", on: tables.launches))
                try db.execute(
                    sql: """
                        INSERT INTO derived_stages (stage, claim_pid, claim_start, claim_run, started_at)
                        VALUES (?, ?, ?, ?, ?)
                        """,
                    arguments: [name, claim.pid, claim.start, claim.run, FileRecord.timestamp(Date())])
                return try Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) + 1 FROM runs") ?? 1
            }
        } catch {
            claim.end()
            throw error
        }
    }

    /// Gives the writer connection back its checkpoints (the next commit copies the WAL).
    private func ended() {
        finished = true
        claim.end()
        _ = try? store.automaticCheckpoint(pages: autocheckpoint)
    }

    deinit {
        // A stage never published (the check failed): its tables go.
        if !finished { try? discard() }
    }

    /// Writes a chunk of rows in one transaction. A launch numbered n is the stage's row n + 1.
    public func write(_ chunk: DerivedChunk) throws {
        let (tables, runID, findingOffset) = (tables, runID, findingOffset)
        try store.write { db in
            try DerivedTables.Writer(db, tables: tables, launchOffset: 1, findingOffset: findingOffset, runID: runID)
                .write(chunk)
        }
        rows += chunk.rows
        writeback.start()
    }

    /// Writes `records` (for a caller with few, and tests), each launch's row counting the
    /// run's `findings` of its launch (handed over, as a replay would, with its device's).
    public func write(_ records: [DerivedRecord], findings: [Finding] = []) throws {
        var chunks: [DerivedChunk] = []
        let encoder = DerivedRows { chunks.append($0) }
        var unsent = Dictionary(grouping: findings, by: \.device)
        for record in records {
            if case .launch(let launch) = record, let found = unsent.removeValue(forKey: launch.device) {
                for finding in found { try encoder.found(device: finding.device, launch: finding.launch) }
            }
            try encoder.append(record)
        }
        try encoder.flush()
        for chunk in chunks { try write(chunk) }
    }

    /// Drops the stage's tables: a check that will not publish them.
    public func discard() throws {
        guard !finished else { return }
        let (name, tables) = (name, tables)
        try store.write { db in
            for table in tables.all { try db.execute(sql: "DROP TABLE IF EXISTS \(table)") }
            try db.execute(sql: "DELETE FROM derived_stages WHERE stage = ?", arguments: [name])
        }
        ended()
    }

    /// The id for the run's row, if still free (nil: let SQLite pick one).
    func reservedRunID(_ db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM runs WHERE id = ?", arguments: [runID]) == nil ? runID : nil
    }

    /// Publishes the stage as run `runID`'s derived tables for `devices`, inside the caller's
    /// transaction; finding number n becomes finding `firstFinding + n` (of `findings` saved, with
    /// consecutive ids), or none when `firstFinding` is nil.
    func publish(
        _ db: Database, devices: Store.DeviceSelection, runID: Int64, firstFinding: Int64?, findings: Int
    ) throws {
        // Finding number n is written n + findingOffset; it is finding `firstFinding + n`.
        let finding = firstFinding.map {
            "CASE WHEN finding_id >= \(findingOffset) AND finding_id < \(Int64(findings) + findingOffset) "
                + "THEN finding_id - \(findingOffset) + \($0) END"
        } ?? "NULL"
        switch devices {
        case .all:
            // The names swapped: the stage's tables (rows numbered from 1) become the public ones,
            // and the public ones are retired, listed for the next stage to drop.
            let retired = "\(name)_retired"
            for (suffix, stage) in [("launches", tables.launches), ("intervals", tables.intervals), ("tasks", tables.tasks), ("requests", tables.requests)] {
                try db.execute(sql: "ALTER TABLE \(suffix) RENAME TO \(retired)_\(suffix)")
                try db.execute(sql: "ALTER TABLE \(stage) RENAME TO \(suffix)")
            }
            // Findings saved into the emptied table got the ids 1, 2, …, as the stage wrote them.
            if firstFinding != findingOffset {
                try db.execute(sql: "UPDATE tasks SET finding_id = \(finding) WHERE finding_id IS NOT NULL")
            }
            if runID != self.runID { try db.execute(sql: "UPDATE launches SET run_id = ?", arguments: [runID]) }
            try db.execute(
                sql: "UPDATE derived_stages SET stage = ?, retired = 1 WHERE stage = ?", arguments: [retired, name])
        case .only:
            // Copied in after the devices' old rows go, their launches numbered after the others'.
            try DerivedTables.delete(db, devices: devices)
            let offset = try Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM launches") ?? 0
            try db.execute(
                sql: """
                    INSERT INTO launches (id, run_id, \(Self.launchColumns))
                    SELECT id + ?1, ?2, \(Self.launchColumns) FROM \(tables.launches);
                    """,
                arguments: [offset, runID])
            try db.execute(
                sql: """
                    INSERT INTO intervals (launch_id, \(Self.intervalColumns))
                    SELECT launch_id + ?1, \(Self.intervalColumns) FROM \(tables.intervals)
                    """,
                arguments: [offset])
            try db.execute(
                sql: """
                    INSERT INTO tasks (launch_id, finding_id, \(Self.taskColumns))
                    SELECT launch_id + ?1, \(finding), \(Self.taskColumns) FROM \(tables.tasks)
                    """,
                arguments: [offset])
            try db.execute(
                sql: """
                    INSERT INTO requests (launch_id, ran_in, \(Self.requestColumns))
                    SELECT launch_id + ?1, ran_in + ?1, \(Self.requestColumns) FROM \(tables.requests)
                    """,
                arguments: [offset])
            for table in tables.all { try db.execute(sql: "DROP TABLE \(table)") }
            try db.execute(sql: "DELETE FROM derived_stages WHERE stage = ?", arguments: [name])
        }
        try DerivedTables.linkExplanations(db, runID: runID)
    }

    /// The transaction that published the stage committed.
    func published() {
        ended()
    }

    // The columns copied as they are (ids, runs, findings and launches are mapped).
    private static let launchColumns = """
        device, launch, app, app_version, os, model, process, first_ts, last_ts, started, cause, ended, end_reason,
        end_state, foreground_seconds, background_seconds, suspended_seconds, background_periods, log_cut_short,
        findings
        """
    private static let intervalColumns = """
        callback, scene, begin_ts, end_ts, outcome, seconds, budget, budget_seconds, over_budget
        """
    private static let taskColumns = """
        kind, task, call, identifier, opened_ts, closed_ts, expired_ts, outcome, seconds, budget, budget_seconds,
        measured, over_budget, finding_rule
        """
    private static let requestColumns = """
        identifier, type, submitted_ts, earliest_begin_ts, requires_power, requires_network, outcome, error, ended_ts,
        task, wait_seconds
        """

    /// Drops the tables a publication retired, and those of every stage whose check is no longer running.
    private static func dropAbandoned(_ db: Database) throws {
        let stages = try Row.fetchAll(db, sql: "SELECT stage, claim_pid, claim_start, claim_run, retired FROM derived_stages")
        for stage in stages {
            let claim = IngestClaim(pid: stage["claim_pid"], start: stage["claim_start"], run: stage["claim_run"])
            guard stage["retired"] as Bool || !claim.ownerIsAlive else { continue }
            let name: String = stage["stage"]
            for suffix in ["launches", "intervals", "tasks", "requests"] {
                try db.execute(sql: "DROP TABLE IF EXISTS \(name)_\(suffix)")
            }
            try db.execute(sql: "DELETE FROM derived_stages WHERE stage = ?", arguments: [name])
        }
    }
}
