import Foundation
import Testing

/// An ingest killed with SIGKILL at any moment leaves a database that a re-run completes,
/// with no duplicates; two ingests on one database at once both succeed.
@Suite(.serialized) struct CrashAndConcurrencyTests {
    /// A corpus large enough that an ingest is still running when it is killed.
    static func corpus(_ name: String, devices: Int, seed: Int) throws -> URL {
        let directory = try CLI.temporaryDirectory().appendingPathComponent(name)
        let result = try CLI.run([
            "generate", "--output", directory.path, "--devices", "\(devices)", "--days", "2",
            "--events-per-day", "3000", "--seed", "\(seed)",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        return directory
    }

    static func count(_ database: String) throws -> (events: String, distinct: String) {
        (try CLI.sqlite(database, "SELECT count(*) FROM events"),
         try CLI.sqlite(database, "SELECT count(*) FROM (SELECT DISTINCT device, launch, seq FROM events)"))
    }

    @Test func aKilledIngestIsCompletedByARerunWithoutDuplicates() throws {
        let corpus = try Self.corpus("corpus", devices: 20, seed: 7)
        let work = corpus.deletingLastPathComponent()
        let reference = work.appendingPathComponent("reference.db").path
        #expect(try CLI.run(["ingest", "--quiet", "--db", reference, corpus.path]).status == 0)
        let expected = try Self.count(reference)

        let database = work.appendingPathComponent("killed.db").path
        var countsAfterKills: [Int] = []
        for delay in [0.15, 0.4, 0.8] {
            let running = try CLI.start(["ingest", "--quiet", "--db", database, corpus.path])
            Thread.sleep(forTimeInterval: delay)
            running.kill()
            _ = running.finish()
            // What a reader sees right after the kill is a consistent database.
            #expect(try CLI.sqlite(database, "PRAGMA integrity_check") == "ok")
            countsAfterKills.append(Int(try CLI.sqlite(database, "SELECT count(*) FROM events")) ?? -1)
        }
        // At least one kill must have landed mid-ingest, or this test proves nothing.
        #expect(countsAfterKills.contains { $0 < Int(expected.events)! }, "\(countsAfterKills)")
        try Self.expectARerunCompletes(database, corpus: corpus, expected: expected)
        #expect(try CLI.sqlite(database, "SELECT sum(events) FROM files") == expected.events)
    }

    /// The same ingest run again completes the database: every event once, every file done.
    static func expectARerunCompletes(_ database: String, corpus: URL, expected: (events: String, distinct: String)) throws {
        let rerun = try CLI.run(["ingest", "--json", "--db", database, corpus.path])
        #expect(rerun.status == 0, "\(rerun.stdout)\(rerun.stderr)")
        let counted = try count(database)
        #expect(counted.events == expected.events)
        #expect(counted.distinct == expected.events)
        #expect(try CLI.sqlite(database, "SELECT count(*) FROM files WHERE status != 'done'") == "0")
    }

    @Test func twoIngestsOnOneDatabaseAtOnceBothSucceed() throws {
        let first = try Self.corpus("first", devices: 8, seed: 11)
        let second = try Self.corpus("second", devices: 8, seed: 12)
        let database = first.deletingLastPathComponent().appendingPathComponent("shared.db").path
        let a = try CLI.start(["ingest", "--quiet", "--db", database, first.path])
        let b = try CLI.start(["ingest", "--quiet", "--db", database, second.path, first.path])
        let resultA = a.finish()
        let resultB = b.finish()
        #expect(resultA.status == 0, "\(resultA.stdout)\(resultA.stderr)")
        #expect(resultB.status == 0, "\(resultB.stdout)\(resultB.stderr)")
        #expect(!resultA.stderr.contains("locked"))
        let counted = try Self.count(database)
        #expect(counted.events == counted.distinct)
        #expect(try CLI.sqlite(database, "SELECT count(*) FROM files WHERE status = 'done'") == "32")
    }
}
