import Foundation
import Testing

/// A database written by a newer Lifeline is refused untouched; commands that only read never
/// create a file and work on a database they may not write.
@Suite struct SchemaAndReadOnlyTests {
    @Test func aNewerSchemaIsRefusedByEveryCommandAndTheFileIsUntouched() throws {
        let database = try Mistake.checkedDatabase()
        _ = try CLI.sqlite(database, "INSERT INTO grdb_migrations VALUES ('v99: from the future')")
        let before = try Mistake.snapshot(database)
        #expect(before.suffix(2) == ["wal false", "shm false"])
        for arguments in [
            ["check", "--db", database], ["check", "--db", database, Mistake.plainTrace],
            ["ingest", "--db", database, Mistake.plainTrace], ["timeline", "--db", database, "D"],
        ] {
            Mistake.expectOneLine(
                try CLI.run(arguments), status: 2,
                containing: "\(database) was written by a newer Lifeline (schema 'v99: from the future' is unknown to version ")
            #expect(try Mistake.snapshot(database) == before, "\(arguments[0])")
        }
    }

    @Test(arguments: [["check"], ["timeline", "D"], ["check", "--db", "other.db"], ["timeline", "--db", "other.db", "D"]])
    func aMissingDatabaseIsOneLineAndNoFileIsCreated(_ arguments: [String]) throws {
        let directory = try CLI.temporaryDirectory()
        let result = try CLI.run(arguments, in: directory)
        let name = arguments.contains("--db") ? "other.db" : "lifeline.db"
        Mistake.expectOneLine(result, status: 2, containing: "no database at \(name): run `lifeline ingest")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }

    /// A directory given as --db, and a database the user cannot write given to a command that
    /// records, are named as such before SQLite meets them (it said "SQLite error 14", or named
    /// the statement it failed on), and nothing is written.
    @Test func aDirectoryOrAReadOnlyDatabaseIsNamed() throws {
        let directory = try CLI.temporaryDirectory()
        // A copy the unprivileged user can read (the checkout may be in a directory only its owner can).
        let trace = directory.appendingPathComponent("trace.jsonl").path
        try FileManager.default.copyItem(atPath: CLI.root.appendingPathComponent("traces/dev-0006-2026-11-21.jsonl").path, toPath: trace)
        Mistake.expectOneLine(
            try CLI.run(["ingest", "--db", directory.path, trace]), status: 2,
            containing: "\(directory.path) is a directory: --db takes a database file, such as \(directory.path)/lifeline.db")
        let database = try Mistake.checkedDatabase()
        let folder = URL(fileURLWithPath: database).deletingLastPathComponent().path
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: database)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder) }
        let before = try Mistake.snapshot(database)
        for command in [["ingest", "--db", database, trace], ["check", "--db", database, trace], ["import-findings", trace, "--db", database]] {
            Mistake.expectOneLine(
                try Mistake.runUnprivileged(command), status: 2,
                containing: "cannot write \(database): the file or its directory is read-only to this user")
        }
        #expect(try Mistake.snapshot(database) == before)
    }

    /// A --db naming another program's database, a file that is not a database, or (for a command
    /// given no logs) an empty file, is refused by every command in one line, exit 2, the file
    /// untouched: `check` wrote Lifeline's seventeen tables into them, and a file of text met
    /// "SQLite error 26" and the statement that failed.
    @Test func aForeignEmptyOrNonDatabaseFileIsLeftAlone() throws {
        let directory = try CLI.temporaryDirectory()
        let foreign = directory.appendingPathComponent("app.sqlite").path
        _ = try CLI.sqlite(foreign, "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE events (x)")
        let text = directory.appendingPathComponent("notes.db").path
        try "these are notes, not a database\n".write(toFile: text, atomically: true, encoding: .utf8)
        let empty = directory.appendingPathComponent("empty.db").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let (foreignBefore, textBefore) = (try Mistake.content(foreign), try Mistake.content(text))
        for command in [["check"], ["ingest", Mistake.plainTrace], ["query", "SELECT 1"], ["timeline", "D"], ["report"]] {
            Mistake.expectOneLine(
                try CLI.run(command + ["--db", foreign]), status: 2,
                containing: "\(foreign) holds other data (tables customers, events), not Lifeline's: pass --db a Lifeline database or a new file")
            Mistake.expectOneLine(
                try CLI.run(command + ["--db", text]), status: 2,
                containing: "\(text) is not a database (it does not begin as a SQLite file does)")
        }
        Mistake.expectOneLine(try CLI.run(["check", "--db", empty]), status: 2, containing: "\(empty) holds no Lifeline data")
        for command in [["ingest", Mistake.plainTrace], ["check"], ["query", "SELECT 1"]] {
            Mistake.expectOneLine(
                try CLI.run(command + ["--db", ":memory:"], in: directory), status: 2,
                containing: "--db :memory: would keep nothing once the command ends: give a database file")
        }
        #expect(try Mistake.content(foreign) == foreignBefore && Mistake.content(text) == textBefore)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["app.sqlite", "empty.db", "notes.db"])
        #expect(try CLI.run(["ingest", "--db", empty, Mistake.plainTrace]).status == 0, "an empty file may become a store")
    }

    /// A named pipe given as --db used to leave every command waiting for a writer (SQLite's
    /// first read of it blocks); a device is no database either. Each is refused at once.
    @Test func aPipeOrDeviceGivenAsTheDatabaseIsRefusedAtOnce() throws {
        let directory = try CLI.temporaryDirectory()
        let pipe = directory.appendingPathComponent("lifeline.db").path
        #expect(mkfifo(pipe, 0o600) == 0)
        for database in [pipe, "/dev/null"] {
            for command in [["check"], ["ingest", Mistake.plainTrace], ["query", "SELECT 1"], ["timeline", "D"], ["report"]] {
                let result = try #require(
                    try CLI.start(command + ["--db", database]).finish(within: 30), "\(command) --db \(database) did not end")
                Mistake.expectOneLine(
                    result, status: 2,
                    containing: "\(database) is not a regular file (a pipe, device or socket): pass --db a Lifeline database or a new file")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["lifeline.db"])
    }

    /// SQLite reads a name beginning with `file:` as a URI (on in Lifeline, for immutable reads):
    /// `--db file:x.db` still names the file `file:x.db` for every command, not `x.db`, and the
    /// `sqlite3` command a hint prints opens the same file.
    @Test func aDatabaseNamedLikeAURIIsTheFileOfThatName() throws {
        let directory = try CLI.temporaryDirectory()
        let malformed = CLI.root.appendingPathComponent("traces/bad/malformed.jsonl").path
        let ingested = try CLI.run(["ingest", "--db", "file:x.db", Mistake.plainTrace, malformed], in: directory)
        #expect(ingested.status == 1)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names.first == "file:x.db" && !names.contains("x.db"), "\(names)")
        let hint = try #require(ingested.stdout.split(separator: "\n").first { $0.hasPrefix("  sqlite3 ") })
        #expect(hint.hasPrefix("  sqlite3 ./file:x.db \"SELECT f.path"))
        let rejects = try CLI.sqlite(directory.appendingPathComponent("file:x.db").path, "SELECT count(*) FROM rejects")
        #expect(rejects == "7")
        for arguments in [["check", "--db", "file:x.db"], ["query", "--db", "file:x.db", "SELECT count(*) FROM findings"],
                          ["report", "--db", "file:x.db"]] {
            let result = try CLI.run(arguments, in: directory)
            #expect(result.status != 2, "\(arguments[0]): \(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { $0.hasPrefix("file:x.db") })
    }

    @Test func aDatabaseInAMissingDirectoryNamesTheDirectory() throws {
        let directory = try CLI.temporaryDirectory().appendingPathComponent("nope")
        let database = directory.appendingPathComponent("x.db").path
        let result = try CLI.run(["ingest", "--db", database, Mistake.plainTrace])
        Mistake.expectOneLine(result, status: 2, containing: "cannot create \(database): directory \(directory.path) does not exist")
    }

    /// As a user who cannot write the file or its directory: the timeline is printed, check
    /// reports the findings and says it did not record them, query and report answer — both with
    /// the -wal and -shm files a reader left beside the file, and without them, when SQLite cannot
    /// make its -shm and the file is read as immutable.
    @Test(arguments: [true, false])
    func everyReaderWorksOnADatabaseTheUserCannotWrite(withCompanions: Bool) throws {
        let database = try Mistake.checkedDatabase()
        let device = try CLI.sqlite(database, "SELECT device FROM findings ORDER BY device LIMIT 1")
        let findings = try CLI.sqlite(database, "SELECT count(*) FROM findings")
        let expected = try CLI.run(["timeline", "--db", database, device])
        if !withCompanions {
            // A reader's: an empty log (the checkpointed store is all in the file) and its index.
            let log = try FileManager.default.attributesOfItem(atPath: database + "-wal")[.size] as? Int
            #expect(log == 0)
            for companion in ["-wal", "-shm"] { try FileManager.default.removeItem(atPath: database + companion) }
        }
        let directory = URL(fileURLWithPath: database).deletingLastPathComponent().path
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: database)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory) }
        let before = try Mistake.snapshot(database)

        let timeline = try Mistake.runUnprivileged(["timeline", "--db", database, device])
        #expect(timeline.status == 0, "\(timeline.stderr)")
        #expect(timeline.stdout == expected.stdout)

        let check = try Mistake.runUnprivileged(["check", "--db", database, "--format", "jsonl"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(!check.stdout.isEmpty)
        #expect(check.stderr.contains("\(database) is read-only: the findings were reported, not recorded"))

        let query = try Mistake.runUnprivileged(["query", "--db", database, "--format", "csv", "SELECT count(*) AS n FROM findings"])
        #expect(query.status == 0, "\(query.stderr)")
        #expect(query.stdout == "n\n\(findings)\n")
        let report = try Mistake.runUnprivileged(["report", "--db", database, "--format", "json"])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(try CLI.json(report.stdout)["findings"] as? Int == Int(findings))
        #expect(try Mistake.snapshot(database) == before)
    }
}
