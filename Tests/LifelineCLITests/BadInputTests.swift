import Foundation
import Testing

/// The bad input of `query`, `report`, `export` and `timeline`: a canned query that does not
/// exist, a missing parameter, SQL that does not parse, a device with no events, an empty store,
/// a store never checked, a window with no data. Each gets one line on standard error and the
/// exit code the README's table gives, never a stack trace, and the store is left as it was,
/// byte for byte (its file and its write-ahead log).
@Suite(.serialized) struct BadInputTests {
    enum Store: String, CaseIterable {
        /// `traces/`, checked.
        case checked
        /// Made by ingesting an empty file: the schema and no event.
        case empty
        /// `traces/` ingested, never checked.
        case unchecked
    }

    static let stores: [Store: String] = {
        var paths: [Store: String] = [:]
        for store in Store.allCases {
            let directory = (try? CLI.temporaryDirectory()) ?? FileManager.default.temporaryDirectory
            let path = directory.appendingPathComponent("\(store.rawValue).db").path
            let traces = CLI.root.appendingPathComponent("traces").path
            switch store {
            case .checked: _ = try? CLI.run(["check", "--quiet", "--db", path, traces])
            case .empty:
                let empty = directory.appendingPathComponent("empty.jsonl")
                FileManager.default.createFile(atPath: empty.path, contents: Data())
                _ = try? CLI.run(["ingest", "--quiet", "--db", path, empty.path])
            case .unchecked: _ = try? CLI.run(["ingest", "--quiet", "--db", path, traces])
            }
            // A first reader leaves an empty log behind; the stores are compared from then on.
            _ = try? CLI.run(["query", "--db", path, "SELECT 1"])
            paths[store] = path
        }
        return paths
    }()

    struct Case: CustomTestStringConvertible, Sendable {
        var store: Store
        var arguments: [String]
        var status: Int32
        /// What the one line on standard error says (`DB` stands for the store's path).
        var message: String
        /// An answer printed even so (a query's header, for an empty answer with a note).
        var stdout = ""
        var testDescription: String { "\(store.rawValue): \(arguments.joined(separator: " "))" }
    }

    static let cases: [Case] = [
        // query
        Case(store: .checked, arguments: ["query", "no-such-query"], status: 64,
             message: "error: no canned query named 'no-such-query'; `lifeline query --list` lists them"),
        Case(store: .checked, arguments: ["query", "device-timeline"], status: 64, message: "error: the query needs --param device=VALUE"),
        // A --param the query does not take, most likely misspelt, is refused rather than ignored.
        Case(store: .checked, arguments: ["query", "device-timeline", "--param", "device=D", "--param", "devce=D"], status: 64,
             message: "error: the canned query device-timeline takes no :devce parameter: check the name given to --param"),
        Case(store: .checked, arguments: ["query", "SELECT :device", "--param", "device=D", "--param", "x\u{1B}=1"], status: 64,
             message: #"error: the SQL given takes no :"x\u{1B}" parameter"#),
        Case(store: .checked, arguments: ["query", "SELEC 1"], status: 2, message: "error: SQLite: near \"SELEC\": syntax error"),
        Case(store: .checked, arguments: ["query", "SELECT * FROM no_such_table"], status: 2, message: "error: SQLite: no such table: no_such_table"),
        Case(store: .checked, arguments: ["query", "device-timeline", "--param", "device=no-such-device", "--format", "csv"], status: 0,
             message: "note: no events for device no-such-device in DB, so the answer is empty; `sqlite3 DB 'SELECT name FROM devices'` lists the devices",
             stdout: "time,launch,seq,event,detail,finding\n"),
        Case(store: .empty, arguments: ["query", "terminations", "--format", "csv"], status: 0,
             message: "note: DB holds no events: ingest logs first with `lifeline ingest --db DB PATH…`",
             stdout: "reason,app_version,os,terminations,devices\n"),
        Case(store: .unchecked, arguments: ["query", "findings-per-day", "--format", "csv"], status: 0,
             message: "note: no check has been run on DB, so `findings` and the derived tables are empty: run `lifeline check --db DB` first",
             stdout: "day,rule,category,findings,devices\n"),
        // report
        Case(store: .empty, arguments: ["report"], status: 3,
             message: "nothing to report: DB holds no events: ingest logs first with `lifeline ingest --db DB PATH…`, then run `lifeline check --db DB`"),
        Case(store: .unchecked, arguments: ["report"], status: 3,
             message: "nothing to report: no check has been run on DB: run `lifeline check --db DB` first"),
        Case(store: .checked, arguments: ["report", "--since", "2030-01-01"], status: 3,
             message: "nothing to report: no events or findings in DB match the window and filters given"),
        Case(store: .checked, arguments: ["report", "--since", "2026-11-22", "--until", "2026-11-21"], status: 64,
             message: "error: --since 2026-11-22 is not before --until 2026-11-21: no time can match; swap them"),
        Case(store: .checked, arguments: ["report", "--output", "/nonexistent/report.html"], status: 2,
             message: "error: cannot write /nonexistent/report.html: there is no directory /nonexistent; create it first"),
        // export
        Case(store: .checked, arguments: ["export", "no-such-device"], status: 3,
             message: "nothing to export: no events for device no-such-device in DB; `sqlite3 DB 'SELECT name FROM devices'` lists the devices"),
        Case(store: .checked, arguments: ["export", GoldenOutputTests.device, "--launch", "no-such-launch"], status: 3,
             message: "nothing to export: no events of launch no-such-launch on device \(GoldenOutputTests.device) in DB"),
        Case(store: .empty, arguments: ["export", "no-such-device"], status: 3,
             message: "nothing to export: no events for device no-such-device in DB"),
        Case(store: .checked, arguments: ["export", GoldenOutputTests.device, "--output", "/nonexistent/device.json"], status: 2,
             message: "error: cannot write /nonexistent/device.json: there is no directory /nonexistent; create it first"),
        // timeline
        Case(store: .checked, arguments: ["timeline", "no-such-device"], status: 3,
             message: "nothing to check: no events for device no-such-device in DB; `sqlite3 DB 'SELECT name FROM devices'` lists the devices"),
        Case(store: .empty, arguments: ["timeline", "no-such-device"], status: 3,
             message: "nothing to check: no events for device no-such-device in DB"),
        Case(store: .checked, arguments: ["timeline", GoldenOutputTests.device, "--since", "2030-01-01"], status: 3,
             message: "nothing to check: no events for device \(GoldenOutputTests.device) in DB in that window"),
        Case(store: .checked, arguments: ["timeline", GoldenOutputTests.device, "--since", "yesterday"], status: 64,
             message: "error: --since: cannot read 'yesterday' as a time"),
    ]

    @Test(arguments: cases)
    func oneLineADocumentedExitAndTheStoreUntouched(_ test: Case) throws {
        let database = try #require(Self.stores[test.store])
        let before = try Mistake.content(database)
        let result = try CLI.run(test.arguments + ["--db", database])
        #expect(result.status == test.status, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(test.message.replacingOccurrences(of: "DB", with: database)), "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Stack dump"))
        #expect(result.stdout == test.stdout, "\(result.stdout)")
        #expect(try Mistake.content(database) == before, "the store changed")
    }
}
