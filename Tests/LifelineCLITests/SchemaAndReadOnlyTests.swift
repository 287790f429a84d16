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

    @Test func aDatabaseInAMissingDirectoryNamesTheDirectory() throws {
        let directory = try CLI.temporaryDirectory().appendingPathComponent("nope")
        let database = directory.appendingPathComponent("x.db").path
        let result = try CLI.run(["ingest", "--db", database, Mistake.plainTrace])
        Mistake.expectOneLine(result, status: 2, containing: "cannot create \(database): directory \(directory.path) does not exist")
    }

    /// As a user who cannot write the file or its directory: the timeline is printed, and check
    /// reports the findings and says it did not record them.
    @Test func timelineAndCheckWorkOnADatabaseTheUserCannotWrite() throws {
        let database = try Mistake.checkedDatabase()
        let device = try CLI.sqlite(database, "SELECT device FROM findings ORDER BY device LIMIT 1")
        let expected = try CLI.run(["timeline", "--db", database, device])
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
        #expect(try Mistake.snapshot(database) == before)
    }
}
