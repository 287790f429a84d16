import Foundation
import Testing

/// `LIFELINE_REPLAY_THREADS` sets how many threads `check` replays devices on. Whatever it is, a
/// user gets the same answer: the same findings, lines on standard error, totals, launch rows and
/// recorded tables as from one thread. (This machine's default is one thread; the setting is how
/// the threaded replay is run through the command line here.)
@Suite struct ReplayThreadsTests {
    static func environment(_ threads: Int) -> [String: String] { ["LIFELINE_REPLAY_THREADS": "\(threads)"] }

    @Test func aStreamGivesTheSameAnswerOnAnyNumberOfThreads() throws {
        let directory = try CLI.temporaryDirectory()
        let stream = try CLI.damagedStream(in: directory)
        var answers: [(text: String, totals: NSDictionary)] = []
        for threads in [1, 3] {
            let launches = directory.appendingPathComponent("launches-\(threads).jsonl")
            let summary = directory.appendingPathComponent("summary-\(threads).json")
            let run = try Spark.process(
                CLI.executable.path,
                ["check", "--stdin", "--quiet", "--launches", launches.path, "--summary-json", summary.path],
                environment: Self.environment(threads), stdin: stream)
            #expect(run.status == 1, "rejected and lost lines: exit 1")
            var totals = try CLI.json(String(decoding: try Data(contentsOf: summary), as: UTF8.self))
            totals["seconds"] = nil
            let launchRows = String(decoding: try Data(contentsOf: launches), as: UTF8.self)
            #expect(!run.stdout.isEmpty && run.stderr.contains("rejected") && launchRows.contains("log_cut_short\":true"))
            answers.append(([run.stdout, run.stderr, launchRows].joined(separator: "\n--\n"), totals as NSDictionary))
        }
        #expect(answers[1].text == answers[0].text)
        #expect(answers[1].totals == answers[0].totals)
    }

    @Test func aStoreGivesTheSameFindingsAndTablesOnAnyNumberOfThreads() throws {
        let directory = try CLI.temporaryDirectory()
        var answers: [String] = []
        for threads in [1, 3] {
            let database = directory.appendingPathComponent("lifeline-\(threads).db").path
            _ = try CLI.run(["ingest", "--db", database, "--quiet", "traces"], in: CLI.root)
            let run = try Spark.process(
                CLI.executable.path, ["check", "--db", database, "--quiet", "--format", "jsonl"],
                environment: Self.environment(threads))
            #expect(run.status == 0, "\(run.stderr)")
            var tables = run.stdout
            for table in ["findings", "launches", "intervals", "tasks", "requests"] {
                let rows = try CLI.sqlite(database, "SELECT * FROM \(table) ORDER BY id")
                #expect(!rows.isEmpty, "\(table)")
                tables += "\n--\n" + rows
            }
            answers.append(tables)
        }
        #expect(answers[1] == answers[0])
    }

    /// Zero, too many, words, nothing, fractions, negatives, a number past `Int`, an escape
    /// sequence and 10,000 characters: one line each, the value shown harmlessly.
    @Test(arguments: [
        "0", "65", "two", "", "3.5", "-1", "99999999999999999999999", "\u{1b}[2J3", String(repeating: "7", count: 10_000),
    ])
    func aSettingThatIsNotANumberOfThreadsIsRefused(_ value: String) throws {
        let run = try Spark.process(
            CLI.executable.path, ["check", "--stdin"], environment: ["LIFELINE_REPLAY_THREADS": value])
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("error: LIFELINE_REPLAY_THREADS="), "\(run.stderr)")
        #expect(run.stderr.contains("from 1 to 64; unset it for the default"))
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(!run.stderr.contains("\u{1b}") && run.stderr.utf8.count < 300)
    }
}
