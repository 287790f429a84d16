import Foundation
import Testing

/// Each mistake in a flag or configuration file: one line naming it and what to do, the
/// documented exit code, and no database created.
@Suite struct FlagMistakesTests {
    static func run(_ arguments: [String]) throws -> (CLI.Result, URL) {
        let directory = try CLI.temporaryDirectory()
        return (try CLI.run(arguments, in: directory), directory)
    }

    @Test(arguments: [
        (["check", "--budget", "foo=bar"], "--budget foo=bar: unknown budget 'foo' (known: "),
        (["check", "--budget", "nse-completion=bar"], "--budget nse-completion=bar: 'bar' is not a number of seconds"),
        (["check", "--budget", "nse-completion=-1"], "must be a positive number of seconds, not -1.0"),
        (["check", "--severity", "no-such-rule=info"], "--severity no-such-rule=info: unknown rule 'no-such-rule'"),
        (["check", "--severity", "nse-overrun=loud"], "must be info, warning or error, not 'loud'"),
        (["timeline", "D", "--severity", "no-such-rule=info"], "unknown rule 'no-such-rule'"),
        (["check", "--rule", "no-such-rule"], "unknown rule 'no-such-rule'; `lifeline rules` lists them"),
        (["check", "--since", "2026-11-22T00:00:00Z", "--until", "2026-11-21T00:00:00Z"], "is not before --until"),
        (["timeline", "D", "--since", "1763800000", "--until", "1763700000"], "is not before --until"),
        (["check", "--since", "2026-11-22", "--until", "2026-11-21"], "is not before --until"),
        (["check", "--since", "2026-11-22", "--until", "2026-11-22"], "no time can match; give --until a later time (it is excluded"),
        (["check", "--since", "yesterday"], "--since: cannot read 'yesterday' as a time"),
        (["check", "--stdin", "--db", "x.db"], "--stdin reads standard input and uses no database: drop --db x.db"),
        (["check", "--grouped"], "--grouped describes standard input: give --stdin with it"),
        (["check", "--stdin", "--keyed", "--grouped"], "--keyed records come grouped by device already: drop --grouped"),
        (["check", "--devices-in-memory", "5"], "--devices-in-memory bounds the replay of standard input: give --stdin with it"),
        (["check", "--stdin", "--grouped", "--devices-in-memory", "5"],
         "--grouped input holds one device at a time already: drop --devices-in-memory"),
        (["check", "--stdin", "--keyed", "--devices-in-memory", "5"],
         "--keyed input holds one device at a time already: drop --devices-in-memory"),
        (["check", "--stdin", "--devices-in-memory", "0"], "--devices-in-memory must be at least 1, not 0"),
        (["check", "--stdin", "--devices-in-memory=-3"], "--devices-in-memory must be at least 1, not -3"),
        (["rules", "no-such-rule"], "unknown rule 'no-such-rule'"),
        (["rules", "nse-overrun", "--budgets"], "--budgets lists every budget: drop the rule id nse-overrun, or --budgets"),
        (["rules", "--sections"], "--sections needs --format markdown"),
        (["rules", "--budgets", "--sections", "--format", "markdown"], "--sections is for the list of rules: drop it with --budgets"),
        // Numbers that trapped (an arithmetic overflow, an allocation too large to make).
        (["generate", "--output", "g", "--events-per-day", "100000000000000000"], "--events-per-day must be at most 100000"),
        (["generate", "--output", "g", "--devices", "9223372036854775807"], "--devices must be at most 1000000"),
        (["generate", "--output", "g", "--days", "100000"], "--days must be at most 3650"),
        (["key-by-device", "x.jsonl", "--first-index", "9223372036854775807"], "--first-index must be between 0 and 9007199254740991"),
    ])
    func usageMistakesExit64(_ arguments: [String], _ message: String) throws {
        let (result, directory) = try Self.run(arguments)
        Mistake.expectOneLine(result, status: 64, containing: message)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }

    @Test func aConfigurationFileWithAnUnknownKeyIsNamed() throws {
        let database = try Mistake.checkedDatabase()
        let config = URL(fileURLWithPath: database).deletingLastPathComponent().appendingPathComponent("c.json").path
        try #"{"budgets":{"nse-completion":40},"severites":{"nse-overrun":"info"}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        let result = try CLI.run(["check", "--db", database, "--config", config])
        Mistake.expectOneLine(result, status: 2, containing: "\(config): unknown key 'severites' (known: budgets, severities)")
    }

    /// A file that does not parse says why (a number out of range was "not a JSON object"), and a
    /// key given twice is named rather than one of its values dropped.
    @Test func aConfigurationFileThatIsNotJSONSaysWhy() throws {
        let database = try Mistake.checkedDatabase()
        let config = URL(fileURLWithPath: database).deletingLastPathComponent().appendingPathComponent("c.json").path
        try #"{"budgets":{"processing-task":1e999}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        Mistake.expectOneLine(
            try CLI.run(["check", "--db", database, "--config", config]), status: 2,
            containing: "\(config) is not valid JSON: Number 1e999 is not representable")
        // Foundation's parser keeps one of two values of a key without a word.
        try #"{"budgets":{"processing-task":900},"budgets":{"refresh-task":1}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        Mistake.expectOneLine(
            try CLI.run(["check", "--db", database, "--config", config]), status: 2, containing: "\(config): 'budgets' is given twice: give each key once")
        try #"{"budgets":{"processing-task":900,"processing-task":1}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        Mistake.expectOneLine(
            try CLI.run(["check", "--db", database, "--config", config]), status: 2, containing: "'processing-task' is given twice in budgets")
        try "[1]".write(toFile: config, atomically: true, encoding: .utf8)
        Mistake.expectOneLine(try CLI.run(["check", "--db", database, "--config", config]), status: 2, containing: "\(config) is not a JSON object")
    }

    @Test func aConfigurationDirectoryIsNotReadAsAFile() throws {
        let database = try Mistake.checkedDatabase()
        let directory = URL(fileURLWithPath: database).deletingLastPathComponent().path
        let result = try CLI.run(["check", "--db", database, "--config", directory])
        Mistake.expectOneLine(result, status: 2, containing: "cannot read \(directory): is a directory")
    }

    @Test func ingestErrorsGoToStandardError() throws {
        let database = try CLI.temporaryDirectory().appendingPathComponent("t.db").path
        for json in [false, true] {
            let result = try CLI.run(["ingest", "--db", database, "/no/such/file.jsonl.zst"] + (json ? ["--json"] : []))
            #expect(result.status == 2)
            #expect(result.stderr.hasPrefix("error: "), "\(result.stderr)")
            #expect(result.stderr.contains("/no/such/file.jsonl.zst"))
        }
    }

    @Test func versionIsPrinted() throws {
        let result = try CLI.run(["--version"])
        #expect(result.status == 0)
        let version = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(version.split(separator: ".").count == 3 && version.allSatisfy { $0.isNumber || $0 == "." }, "\(version)")
    }
}
