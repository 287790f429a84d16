import Foundation
import Testing

/// What check and timeline print: commands that can be followed, counts in good English,
/// seconds since launch that do not depend on a window, and attrs as JSON.
@Suite struct OutputTextTests {
    @Test func theMoreHintNamesTheDatabaseInUse() throws {
        let database = try Mistake.checkedDatabase()
        let result = try CLI.run(["check", "--db", database, "--rule", "nse-overrun"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("more: lifeline check --db \(database) --rule nse-overrun --format jsonl"), "\(result.stdout)")
    }

    @Test func oneFindingIsSingular() throws {
        let database = try Mistake.checkedDatabase()
        let result = try CLI.run(["check", "--db", database, "--rule", "bgtask-processing-overrun"])
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.contains("1 finding"))
        #expect(lines.contains("bgtask-processing-overrun — 1 finding"))
        #expect(!result.stdout.contains("1 findings"))
    }

    @Test(arguments: ["text", "json"])
    func stdinHonoursTheFormat(_ format: String) throws {
        let trace = try String(contentsOfFile: Mistake.plainTrace, encoding: .utf8)
        let result = try CLI.run(["check", "--stdin", "--quiet", "--format", format], stdin: trace)
        #expect(result.status == 0)
        if format == "text" {
            #expect(result.stdout.hasPrefix("Replayed "))
            #expect(result.stdout.contains("from standard input"))
            #expect(result.stdout.contains("nse-overrun"))
        } else {
            let document = try CLI.json(result.stdout)
            #expect(document["source"] as? String == "standard input")
            #expect((document["findings"] as? [[String: Any]])?.contains { $0["rule"] as? String == "nse-overrun" } == true)
        }
    }

    /// The event lines of a timeline, keyed by their time and seq.
    static func eventLines(_ text: String) -> [String: String] {
        var lines: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("  20") {
            let fields = line.split(separator: " ")
            lines["\(fields[0]) \(fields[2])"] = String(line)
        }
        return lines
    }

    @Test func aWindowKeepsTheSecondsSinceTheLaunchBegan() throws {
        let database = try Mistake.checkedDatabase()
        let device = try CLI.sqlite(database, "SELECT device FROM findings WHERE rule = 'background-task-expired' LIMIT 1")
        let ts = try CLI.sqlite(database, "SELECT ts FROM findings WHERE rule = 'background-task-expired' AND device = '\(device)' LIMIT 1")
        let whole = Self.eventLines(try CLI.run(["timeline", "--db", database, device]).stdout)
        let windowed = Self.eventLines(try CLI.run(["timeline", "--db", database, device, "--since", String(Double(ts)! / 1e6 - 30)]).stdout)
        #expect(!windowed.isEmpty)
        for (key, line) in windowed { #expect(whole[key] == line) }
    }

    static func ingestLines(_ lines: [String]) throws -> String {
        let database = try CLI.temporaryDirectory().appendingPathComponent("t.db").path
        let result = try CLI.run(["ingest", "--quiet", "--db", database, "-"], stdin: lines.joined(separator: "\n"))
        #expect(result.status == 0, "\(result.stdout)")
        return database
    }

    @Test func aClockRunningBackwardsPrintsANegativeOffset() throws {
        let database = try Self.ingestLines([
            #"{"ts":1763712000,"device":"D","launch":"L","seq":0,"event":"launch"}"#,
            #"{"ts":1763708400.1,"device":"D","launch":"L","seq":1,"event":"snapshot"}"#,
        ])
        let result = try CLI.run(["timeline", "--db", database, "D"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("  -3599.900s  #1 "), "\(result.stdout)")
        #expect(!result.stdout.contains("+-"))
    }

    @Test func attrsAreAJSONObjectInJSONLines() throws {
        let database = try Self.ingestLines([
            #"{"ts":1763712000,"device":"D","launch":"L","seq":0,"event":"launch","custom":{"a":[1,2]},"n":1.50}"#,
        ])
        let result = try CLI.run(["timeline", "--db", database, "D", "--format", "jsonl"])
        let entry = try CLI.json(result.stdout)
        let attrs = try #require(entry["attrs"] as? [String: Any])
        #expect(attrs["custom"] as? [String: [Int]] == ["a": [1, 2]])
        #expect(entry["event"] as? String == "launch")
    }
}
