import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `lifeline report` for scheduled jobs: JUnit XML a CI dashboard can parse, filters that
/// narrow what is counted, and a clear refusal when there is nothing to report.
@Suite(.serialized) struct ReportCommandTests {
    static let database = GoldenOutputTests.sample.database

    @Test func junitIsWellFormedWithOneTestCasePerRule() throws {
        let result = try CLI.run(["report", "--db", Self.database, "--format", "junit"])
        #expect(result.status == 0, "\(result.stderr)")
        final class Counter: NSObject, XMLParserDelegate {
            var testcases = 0
            var failures = 0
            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                        attributes: [String: String] = [:]) {
                if name == "testcase" { testcases += 1 }
                if name == "failure" { failures += 1 }
            }
        }
        let counter = Counter()
        let parser = XMLParser(data: Data(result.stdout.utf8))
        parser.delegate = counter
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        let rules = try CLI.run(["rules", "--format", "json"])
        let ruleCount = (try JSONSerialization.jsonObject(with: Data(rules.stdout.utf8)) as? [Any])?.count
        #expect(counter.testcases == ruleCount)
        #expect(counter.failures > 0)
    }

    @Test func anAppVersionNarrowsTheFindingsToItsLaunches() throws {
        func findings(_ extra: [String]) throws -> Int {
            let result = try CLI.run(["report", "--db", Self.database, "--format", "json"] + extra)
            #expect(result.status == 0, "\(result.stderr)")
            return try CLI.json(result.stdout)["findings"] as? Int ?? -1
        }
        let all = try findings([])
        let versions = try CLI.sqlite(Self.database, "SELECT DISTINCT app_version FROM events WHERE app_version IS NOT NULL")
            .split(separator: "\n").map(String.init)
        #expect(versions.count > 1)
        let perVersion = try versions.map { try findings(["--app-version", $0]) }
        #expect(perVersion.allSatisfy { $0 < all })
        #expect(perVersion.reduce(0, +) == all, "every finding belongs to one version's launches")
    }

    @Test func nothingToReportIsExitThree() throws {
        let directory = try CLI.temporaryDirectory()
        let unchecked = directory.appendingPathComponent("unchecked.db").path
        _ = try CLI.run(["ingest", "--quiet", "--db", unchecked, CLI.root.appendingPathComponent("traces/dev-0006-2026-11-21.jsonl").path])
        let never = try CLI.run(["report", "--db", unchecked])
        #expect(never.status == 3)
        #expect(never.stderr.contains("no check has been run"))
        let empty = try CLI.run(["report", "--db", Self.database, "--since", "2030-01-01"])
        #expect(empty.status == 3)
        #expect(empty.stdout.isEmpty)
    }

    /// A nightly job that ingests and reports with no check between is told that the report leaves
    /// the new events out; after a check, no note.
    @Test func aReportAfterAnIngestWithNoCheckSaysSo() throws {
        let directory = try CLI.temporaryDirectory()
        let database = directory.appendingPathComponent("stale.db").path
        let traces = CLI.root.appendingPathComponent("traces")
        _ = try CLI.run(["check", "--quiet", "--db", database, traces.appendingPathComponent("dev-0006-2026-11-21.jsonl").path])
        _ = try CLI.run(["ingest", "--quiet", "--db", database, traces.appendingPathComponent("dev-0001-2026-11-21.jsonl.zst").path])
        let stale = try CLI.run(["report", "--db", database, "--format", "markdown"])
        #expect(stale.status == 0)
        #expect(stale.stderr == "note: 1 file with events was ingested into \(database) after its latest check, so this report's "
            + "findings leave their events out: run `lifeline check --db \(database)` first\n")
        _ = try CLI.run(["check", "--quiet", "--db", database])
        let fresh = try CLI.run(["report", "--db", database, "--format", "markdown"])
        #expect(fresh.status == 0 && fresh.stderr.isEmpty, "\(fresh.stderr)")
    }

    /// The change since the run before compares checks of every device: a check of one device
    /// counts only its findings, and is said to be of that device, not read as the store's change.
    @Test func theChangeComparesOnlyChecksOfEveryDevice() throws {
        let database = try CLI.temporaryDirectory().appendingPathComponent("runs.db").path
        let traces = CLI.root.appendingPathComponent("traces").path
        _ = try CLI.run(["check", "--quiet", "--db", database, traces])
        _ = try CLI.run(["check", "--quiet", "--db", database])
        let total = try CLI.sqlite(database, "SELECT count(*) FROM findings")
        let again = try CLI.run(["report", "--db", database, "--format", "markdown"])
        #expect(again.stdout.contains("\(total) findings in "), "\(again.stdout.prefix(300))")
        #expect(again.stdout.contains("; as many as the run before."), "\(again.stdout.prefix(300))")

        let device = try CLI.sqlite(database, "SELECT device FROM findings ORDER BY device LIMIT 1")
        _ = try CLI.run(["check", "--quiet", "--db", database, "--device", device])
        let narrowed = try CLI.run(["report", "--db", database, "--format", "markdown"])
        #expect(narrowed.stdout.contains("\(total) findings in "), "\(narrowed.stdout.prefix(300))")
        #expect(narrowed.stdout.contains(", of 1 device only, Lifeline "), "\(narrowed.stdout.prefix(300))")
        #expect(!narrowed.stdout.contains("than the run before") && !narrowed.stdout.contains("as many as"))
        let json = try CLI.json(try CLI.run(["report", "--db", database, "--format", "json"]).stdout)
        #expect((json["latestRun"] as? [String: Any])?["wholeStore"] as? Bool == false)
        #expect(json["previousRun"] == nil || json["previousRun"] is NSNull)
    }
}
