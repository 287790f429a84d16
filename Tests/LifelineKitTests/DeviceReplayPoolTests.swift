import Foundation
import GRDB
@testable import LifelineKit
import Testing
import TraceModel
import TraceStore
import TraceSynth

/// `check` over a store can replay its devices on several threads: what it finds and records —
/// every finding, in order, and every row of the derived tables, with its numbers and the
/// finding it names — must be what one thread records.
@Suite struct DeviceReplayPoolTests {
    /// The same field-like v1.1 corpus (breaches, devices without `seq`, bad lines, a cut file)
    /// ingested into a store of its own, then checked on `workers` threads.
    static func check(corpus: String, workers: Int, in workspace: Workspace) throws -> (findings: [Finding], tables: [String: [String]]) {
        let store = try Store(path: workspace.path("store-\(workers).db"))
        _ = Ingestor(store: store).ingest([corpus])
        var devicesSeen = 0
        let report = try Analyzer().check(store: store, options: CheckOptions(), version: "test", replayWorkers: workers) { _ in
            devicesSeen += 1
        }
        var findings: [Finding] = []
        try report.findings.forEach { findings.append($0) }
        #expect(devicesSeen == report.devices)
        var tables: [String: [String]] = [:]
        try store.read { db in
            for table in ["findings", "launches", "intervals", "tasks", "requests"] {
                let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String }
                    .filter { $0 != "run_id" }
                tables[table] = try Row.fetchAll(db, sql: "SELECT \(columns.joined(separator: ", ")) FROM \(table) ORDER BY id")
                    .map { $0.description }
            }
        }
        return (findings, tables)
    }

    @Test func anyNumberOfWorkersFindsAndRecordsWhatOneDoes() throws {
        let workspace = try Workspace()
        let corpus = try workspace.fieldCorpus(devices: 30, seed: 41)
        let one = try Self.check(corpus: corpus, workers: 1, in: workspace)
        #expect(one.findings.count > 100)
        #expect(one.tables["tasks"]?.contains { $0.contains("finding_id:") && !$0.contains("finding_id:NULL") } == true)
        // The cut file's launch is told to its worker: the launch's row says its log was cut short.
        #expect(one.tables["launches"]?.contains { $0.contains("log_cut_short:1") } == true)
        for workers in [2, 3] {
            let many = try Self.check(corpus: corpus, workers: workers, in: workspace)
            #expect(many.findings == one.findings, "\(workers) workers")
            for (table, rows) in one.tables {
                #expect(rows.count > 0, "\(table)")
                #expect(many.tables[table] == rows, "\(table), \(workers) workers")
            }
        }
    }

    /// More devices than the pool keeps in its list of devices handed out (1,024), so that the
    /// list is trimmed as devices are delivered, and more than it lets out at once.
    @Test func aStoreOfManyDevicesIsDeliveredWholeAndInOrder() throws {
        let workspace = try Workspace()
        let spec = CorpusSpec(devices: 1_100, days: 1, seed: 3, breachRate: 0.3, approxEventsPerDeviceDay: 12)
        try CorpusWriter.write(spec: spec, to: workspace.path("corpus"))
        let one = try Self.check(corpus: workspace.path("corpus"), workers: 1, in: workspace)
        let two = try Self.check(corpus: workspace.path("corpus"), workers: 2, in: workspace)
        #expect(Set(one.findings.map(\.device)).count > 100)
        #expect(two.findings == one.findings)
        #expect(two.tables == one.tables)
    }
}
