import Foundation
import Testing

/// `lifeline query`: canned queries by name, files and inline SQL on a read-only connection,
/// exact output for scripts, and one clear line for each mistake.
@Suite(.serialized) struct QueryCommandTests {
    static let database: String = {
        let directory = (try? CLI.temporaryDirectory()) ?? FileManager.default.temporaryDirectory
        let path = directory.appendingPathComponent("query.db").path
        _ = try? CLI.run(["check", "--quiet", "--db", path, CLI.root.appendingPathComponent("traces").path])
        return path
    }()

    static func query(_ arguments: [String], in directory: URL? = CLI.root) throws -> CLI.Result {
        try CLI.run(["query", "--db", database] + arguments, in: directory)
    }

    @Test func theListNamesEveryCannedQueryWithItsQuestionAndParameters() throws {
        let result = try CLI.run(["query", "--list"], in: CLI.root)
        #expect(result.status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: CLI.root.appendingPathComponent("queries").path)
            .filter { $0.hasSuffix(".sql") }
        for file in files {
            let sql = try String(contentsOf: CLI.root.appendingPathComponent("queries/\(file)"), encoding: .utf8)
            let question = sql.split(separator: "\n")[0].dropFirst(3)
            #expect(result.stdout.contains("\(file.dropLast(4))\n  \(question)"), "\(file)")
        }
        #expect(result.stdout.contains("parameters: --param device=…"))
    }

    @Test func aCannedQueryRunsByNameFromAnyDirectory() throws {
        // From elsewhere, the queries/ of the checkout the executable was built in are found.
        let elsewhere = try CLI.temporaryDirectory()
        let result = try Self.query(["terminations", "--format", "csv"], in: elsewhere)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "reason,app_version,os,terminations,devices")
        #expect(lines.count > 2)
    }

    @Test func valuesKeepTheirTypesInJSONAndAreQuotedInCSV() throws {
        let sql = #"SELECT 1 AS i, 1.5 AS r, 'a"b,c' AS t, NULL AS n, x'00ff' AS b, 2 AS i"#
        let json = try Self.query([sql, "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout == #"[\#n  {"i":1,"r":1.5,"t":"a\"b,c","n":null,"b":"x'00ff'","i:2":2}\#n]\#n"#)
        let csv = try Self.query([sql, "--format", "csv"])
        #expect(csv.stdout == "i,r,t,n,b,i\n1,1.5,\"a\"\"b,c\",,x'00ff',2\n")
        let jsonl = try Self.query(["SELECT 'x' AS a UNION ALL SELECT 'y'", "--format", "jsonl"])
        #expect(jsonl.stdout == "{\"a\":\"x\"}\n{\"a\":\"y\"}\n")
    }

    /// Values are bound as typed, as text: a version `5.10` and a device `0042` find their rows
    /// (read as numbers they were 5.1 and 42, equal to nothing stored, and the answers came back
    /// empty), while a numeric column and LIMIT still take a value as a number.
    /// A name given twice took its second value without a word.
    @Test func aParameterGivenTwiceIsRefused() throws {
        let result = try Self.query(["device-timeline", "--param", "device=A", "--param", ":device=B"])
        #expect(result.status == 64 && result.stderr == "error: --param device is given twice: a parameter takes one value\n", "\(result.stderr)")
    }

    @Test func parametersAreBoundAsTyped() throws {
        let directory = try CLI.temporaryDirectory()
        let log = directory.appendingPathComponent("v.jsonl")
        try """
            {"ts":"2026-11-21T01:00:00Z","device":"0042","launch":"L1","seq":0,"event":"launch","reason":"user","app":"com.x","app_version":"5.10"}
            {"ts":"2026-11-21T01:00:01Z","device":"0042","launch":"L1","seq":1,"event":"terminate","reason":"quiet","app":"com.x","app_version":"5.10"}

            """.write(to: log, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("v.db").path
        #expect(try CLI.run(["check", "--quiet", "--db", database, log.path]).status == 0)
        func csv(_ arguments: [String]) throws -> String {
            let result = try CLI.run(["query", "--db", database, "--format", "csv"] + arguments, in: CLI.root)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout
        }
        #expect(try csv(["terminations", "--app-version", "5.10"]) == "reason,app_version,os,terminations,devices\nquiet,5.10,,1,1\n")
        #expect(try csv(["device-timeline", "--param", "device=0042"]).split(separator: "\n").count == 3)
        #expect(try csv(["SELECT :x AS v, typeof(:x) AS t", "--param", "x=0042"]) == "v,t\n0042,text\n")
        #expect(try csv(["SELECT count(*) AS n FROM events WHERE seq >= :s LIMIT :n", "--param", "s=1", "--param", "n=1"]) == "n\n1\n")
        let report = try CLI.run(["report", "--db", database, "--app-version", "5.10", "--format", "json"])
        #expect(report.status == 0, "\(report.stderr)")
    }

    /// Comments and semicolons after the statement are not a second statement (a file's closing
    /// `-- end` was refused); a second statement still is.
    @Test func aCommentAfterTheStatementIsNotAnother() throws {
        let directory = try CLI.temporaryDirectory()
        let file = directory.appendingPathComponent("q.sql")
        try "SELECT 1 AS one;\n-- end\n/* note */ ;\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try Self.query([file.path, "--format", "csv"])
        #expect(result.status == 0 && result.stdout == "one\n1\n", "\(result.stderr)")
        Mistake.expectOneLine(try Self.query(["SELECT 1; -- one\nSELECT 2"]), status: 2, containing: "the query holds more than one statement")
    }

    @Test func aTableAlignsNumbersAndMarksCutCells() throws {
        let result = try Self.query(["SELECT 'abcdefghijklmnop' AS long, 7 AS n UNION ALL SELECT 'x', 1234", "--width", "8"])
        #expect(result.stdout == "long         n\n--------  ----\nabcdefg…     7\nx         1234\n(2 rows)\n")
        let whole = try Self.query(["SELECT 'abcdefghijklmnop' AS long", "--width", "0"])
        #expect(whole.stdout == "long\n----------------\nabcdefghijklmnop\n(1 row)\n", "\(whole.stderr)")
        let negative = try Self.query(["SELECT 1", "--width=-1"])
        #expect(negative.status == 64)
        #expect(negative.stderr == "error: --width -1: give 0 (never cut) or a number of characters, at least 4\n")
        // 2 was taken as 4 without a word, though the help says at least 4.
        let narrow = try Self.query(["SELECT 1", "--width", "2"])
        #expect(narrow.status == 64 && narrow.stderr.contains("--width 2: give 0 (never cut) or a number of characters, at least 4"))
    }

    /// SQL that divides has a `/` but is SQL, not a path; a `.sql` file is read wherever it is.
    @Test func sqlWithASlashIsSQLAndAFileIsAFile() throws {
        let divided = try Self.query(["SELECT 6 / 2 AS n", "--format", "csv"])
        #expect(divided.stdout == "n\n3\n", "\(divided.stderr)")
        let directory = try CLI.temporaryDirectory()
        let file = directory.appendingPathComponent("half of six.sql")
        try "SELECT 6 / 2 AS half".write(to: file, atomically: true, encoding: .utf8)
        #expect(try Self.query([file.path, "--format", "csv"]).stdout == "half\n3\n")
        let missing = try Self.query([directory.appendingPathComponent("none.sql").path])
        #expect(missing.status == 2 && missing.stderr.contains("cannot read the query file"))
    }

    @Test func parametersAreBound() throws {
        let device = try CLI.sqlite(Self.database, "SELECT name FROM devices ORDER BY name LIMIT 1")
        let named = try Self.query(["device-timeline", "--param", "device=\(device)", "--format", "csv"])
        #expect(named.status == 0, "\(named.stderr)")
        let events = try CLI.sqlite(Self.database, "SELECT count(*) FROM events WHERE device = '\(device)'")
        #expect(named.stdout.split(separator: "\n").count == (Int(events) ?? 0) + 1)
        let number = try Self.query(["SELECT :n + 1 AS next", "--param", ":n=41", "--format", "csv"])
        #expect(number.stdout == "next\n42\n")
    }

    @Test(arguments: [
        (["DELETE FROM files"], 2, "would change the database"),
        (["SELECT 1; SELECT 2"], 2, "more than one statement"),
        (["SELEC 1"], 2, "syntax error"),
        (["device-timeline"], 64, "needs --param device=VALUE"),
        (["no-such-query"], 64, "no canned query named 'no-such-query'"),
        (["--param", "x", "SELECT 1"], 64, "--param x: write it as NAME=VALUE"),
    ])
    func mistakesGetOneLineAndLeaveTheStoreUntouched(_ arguments: [String], status: Int32, message: String) throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: Self.database))
        let result = try Self.query(arguments)
        #expect(result.status == status)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(message), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: Self.database)) == before)
    }

    @Test func aMissingDatabaseIsNotCreated() throws {
        let directory = try CLI.temporaryDirectory()
        let result = try CLI.run(["query", "--db", "none.db", "SELECT 1"], in: directory)
        #expect(result.status == 2)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("none.db").path))
    }
}
