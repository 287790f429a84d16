import Foundation
import GRDB
@testable import LifelineKit
import Testing
import TraceModel
import TraceStore
import TraceSynth

/// `check` writes the derived tables from the replay that finds the findings: they agree with
/// the findings of the same run, with the stored launches and events, and a second check (of all
/// devices or of some) replaces them as it replaces findings.
@Suite(.serialized) struct DerivedTablesCheckTests {
    /// A field-like v1.1 store with injected breaches, checked once.
    static let checked: (workspace: Workspace, store: Store) = {
        let workspace = try! Workspace()
        let corpus = try! workspace.fieldCorpus(devices: 24, seed: 11)
        let store = try! workspace.store()
        _ = Ingestor(store: store).ingest([corpus])
        _ = try! Analyzer().check(store: store, options: CheckOptions(), version: "test")
        return (workspace, store)
    }()

    /// Launches whose count of findings is not that of their device and launch id.
    static let launchesMiscounted = """
        SELECT count(*) FROM launches l
        WHERE l.findings != (SELECT count(*) FROM findings f WHERE f.device = l.device AND f.launch = l.launch)
        """

    static func integer(_ sql: String, in store: Store = checked.store) throws -> Int {
        try store.read { try Int.fetchOne($0, sql: sql) ?? -1 }
    }

    @Test func everyStoredLaunchHasOneRowAndEveryFindingItsLaunch() throws {
        #expect(try Self.integer("SELECT count(*) FROM launches") == (try Self.integer("SELECT count(*) FROM launch_rows")))
        #expect(try Self.integer("SELECT count(*) FROM (SELECT device, launch FROM launches GROUP BY 1, 2 HAVING count(*) > 1)") == 0)
        // Every finding landed on a launch the table holds, and each launch counts its own.
        #expect(try Self.integer("SELECT sum(findings) FROM launches") == (try Self.integer("SELECT count(*) FROM findings")))
        #expect(try Self.integer(Self.launchesMiscounted) == 0)
        #expect(try Self.integer("""
            SELECT count(*) FROM findings f WHERE NOT EXISTS (SELECT 1 FROM launches l WHERE l.device = f.device AND l.launch = f.launch)
            """) == 0)
        // The launch's envelope and time span are those of its stored events.
        #expect(try Self.integer("""
            SELECT count(*) FROM launches l JOIN devices d ON d.name = l.device JOIN launch_rows r ON r.device_id = d.id AND r.name = l.launch
            JOIN event_rows e ON e.id = (SELECT min(id) FROM event_rows WHERE id >= (r.id << 32) AND id < ((r.id + 1) << 32))
            JOIN contexts c ON c.id = e.context_id
            WHERE c.app_version IS NOT l.app_version OR c.os IS NOT l.os OR l.first_ts < r.first_ts OR l.last_ts > r.last_ts
            """) == 0)
        // Every row of the other tables names a launch of the run.
        for table in ["intervals", "tasks", "requests"] {
            #expect(try Self.integer("SELECT count(*) FROM \(table) WHERE launch_id NOT IN (SELECT id FROM launches)") == 0, "\(table)")
        }
        #expect(try Self.integer("SELECT count(*) FROM requests WHERE ran_in IS NOT NULL AND ran_in NOT IN (SELECT id FROM launches)") == 0)
    }

    @Test func theTablesAgreeWithTheFindings() throws {
        // Each task names a finding of its launch with the rule it says.
        #expect(try Self.integer("SELECT count(*) FROM tasks WHERE finding_id IS NOT NULL") > 10)
        #expect(try Self.integer("""
            SELECT count(*) FROM tasks t JOIN launches l ON l.id = t.launch_id LEFT JOIN findings f ON f.id = t.finding_id
            WHERE t.finding_id IS NOT NULL AND (f.id IS NULL OR f.rule != t.finding_rule OR f.device != l.device OR f.launch != l.launch)
            """) == 0)
        // Every missed completion is a task never completed that names it (and the reverse).
        #expect(try Self.integer("""
            SELECT count(*) FROM findings f WHERE f.category = 'missed-completion'
            AND NOT EXISTS (SELECT 1 FROM tasks t WHERE t.finding_id = f.id AND t.outcome IN ('never-completed', 'expired'))
            """) == 0)
        // didEnterBackground over its budget exactly where the overrun rule found it.
        #expect(try Self.integer("SELECT count(*) FROM intervals WHERE callback IN ('didEnterBackground', 'scene.didEnterBackground') AND over_budget")
                == (try Self.integer("SELECT count(*) FROM findings WHERE rule = 'did-enter-background-overrun'")))
        // A kill the termination rule explains names the finding it explains it by.
        #expect(try Self.integer("SELECT count(*) FROM launches WHERE explained_by IS NOT NULL")
                == (try Self.integer("SELECT count(*) FROM findings WHERE rule = 'termination-explained'")))
        // Work still open when a log ended is what log-ended-with-open-work reports.
        #expect(try Self.integer("""
            SELECT count(DISTINCT t.launch_id) FROM tasks t WHERE t.outcome = 'log-ended'
            """) <= (try Self.integer("SELECT count(*) FROM findings WHERE rule = 'log-ended-with-open-work'")))
        // The requests of an identifier that never ran are among those still pending.
        #expect(try Self.integer("SELECT count(*) FROM requests") > 0)
        #expect(try Self.integer("SELECT count(*) FROM requests WHERE outcome = 'launched' AND (ran_in IS NULL OR wait_seconds IS NULL)") == 0)
    }

    @Test func aSecondCheckReplacesTheRows() throws {
        let workspace = try Workspace()
        let corpus = try workspace.fieldCorpus(devices: 6, seed: 3)
        let store = try workspace.store()
        _ = Ingestor(store: store).ingest([corpus])
        _ = try Analyzer().check(store: store, options: CheckOptions(), version: "test")
        let tables = ["launches", "intervals", "tasks", "requests", "findings"]
        func counts() throws -> [Int] { try tables.map { try Self.integer("SELECT count(*) FROM \($0)", in: store) } }
        let first = try counts()
        #expect(first.allSatisfy { $0 > 0 }, "\(first)")
        _ = try Analyzer().check(store: store, options: CheckOptions(), version: "test")
        #expect(try counts() == first)
        // A check of one device replaces that device's rows only, and keeps the links whole.
        let device = try store.read { try String.fetchOne($0, sql: "SELECT device FROM launches ORDER BY device LIMIT 1") ?? "" }
        var options = CheckOptions()
        options.devices = .only([device])
        _ = try Analyzer().check(store: store, options: options, version: "test")
        #expect(try counts() == first)
        #expect(try Self.integer("SELECT count(DISTINCT run_id) FROM launches", in: store) == 2)
        #expect(try Self.integer("SELECT count(*) FROM tasks WHERE launch_id NOT IN (SELECT id FROM launches)", in: store) == 0)
        #expect(try Self.integer("""
            SELECT count(*) FROM tasks t LEFT JOIN findings f ON f.id = t.finding_id
            WHERE t.finding_id IS NOT NULL AND (f.id IS NULL OR f.rule != t.finding_rule)
            """, in: store) == 0)
        #expect(try Self.integer("SELECT sum(findings) FROM launches", in: store) == (try Self.integer("SELECT count(*) FROM findings", in: store)))
        #expect(try Self.integer(Self.launchesMiscounted, in: store) == 0)
        // Without recording, nothing is written, and what was derived stays.
        var dry = CheckOptions()
        dry.record = false
        _ = try Analyzer().check(store: store, options: dry, version: "test")
        #expect(try counts() == first)
    }
}
