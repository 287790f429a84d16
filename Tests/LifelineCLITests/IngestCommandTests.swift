import Foundation
import Testing

@Suite(.serialized) struct IngestCommandTests {
    @Test func theBundledTracesIngestWithBadInputKeptAside() throws {
        let directory = try CLI.temporaryDirectory()
        let database = directory.appendingPathComponent("t.db").path
        let first = try CLI.run(["ingest", "--db", database, CLI.root.appendingPathComponent("traces").path])
        #expect(first.status == 1, "bad/ holds a truncated file and malformed lines: \(first.stdout)")
        #expect(first.stdout.contains("1 truncated"))
        #expect(first.stdout.contains("rejects"))
        #expect(first.stdout.contains("malformed.jsonl"))
        // Standard error names the bad input: the first five bad lines of a file one by one, then how
        // many more the rejects table holds, and the cut with its byte range.
        let errors = first.stderr.split(separator: "\n").map(String.init)
        let malformed = CLI.root.appendingPathComponent("traces/bad/malformed.jsonl").path
        #expect(errors.filter { $0.hasPrefix(malformed + ":") }.map { $0.dropFirst(malformed.count + 1).prefix { $0 != ":" } }
            == ["5", "10", "15", "20", "25", " 2 more rejected lines, in the rejects table of \(database)"])
        #expect(errors.contains("\(malformed):20: bad-ts: ts \"21/11/2026 10:00\" is not an RFC 3339 date and time"))
        #expect(errors.contains { $0.hasSuffix("dev-0007-2026-11-21.jsonl.zst: bytes 6522-7092: an unknown number of lines lost: "
            + "zstd frame starting at byte 6522 cut short at byte 7092: input ended mid-frame") })
        #expect(errors.count == 7)

        let again = try CLI.run(["ingest", "--json", "--db", database, CLI.root.appendingPathComponent("traces").path])
        #expect(again.status == 0)
        let summary = try CLI.json(again.stdout)
        #expect(summary["filesSkipped"] as? Int == 29)
        #expect(summary["events"] as? Int == 0)
        let rejects = try CLI.sqlite(database, "SELECT count(*) FROM rejects")
        #expect(rejects == "7")
    }

    /// A glob over the upload directory that names the database too: the database is left alone.
    @Test func theDatabaseItselfIsNotIngested() throws {
        let directory = try CLI.temporaryDirectory()
        let database = directory.appendingPathComponent("em.db").path
        let log = CLI.root.appendingPathComponent("traces/dev-0006-2026-11-21.jsonl").path
        _ = try CLI.run(["ingest", "--quiet", "--db", database, log])
        let again = try CLI.run(["ingest", "--db", database, database, log])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("em.db: ignored: the database this ingest writes into (or one of its files), not a log"))
        #expect(try CLI.sqlite(database, "SELECT count(*) FROM rejects") == "0")
    }

    /// An upload directory a failed sync left empty is a clean run, with a note saying nothing was there.
    @Test func anEmptyDirectoryIsSaidToHoldNothing() throws {
        let directory = try CLI.temporaryDirectory()
        let uploads = directory.appendingPathComponent("uploads")
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
        let result = try CLI.run(["ingest", "--quiet", "--db", directory.appendingPathComponent("t.db").path, uploads.path])
        #expect(result.status == 0)
        #expect(result.stderr == "note: \(uploads.path) held no files: nothing was ingested\n")
    }

    @Test func cleanInputExitsZeroAndDuplicatesAcrossFilesAreStoredOnce() throws {
        let directory = try CLI.temporaryDirectory()
        let database = directory.appendingPathComponent("t.db").path
        let plain = CLI.root.appendingPathComponent("traces/dev-0006-2026-11-21.jsonl").path
        let copy = directory.appendingPathComponent("reupload.jsonl").path
        try (String(contentsOfFile: plain, encoding: .utf8) + "\n").write(toFile: copy, atomically: true, encoding: .utf8)
        let result = try CLI.run(["ingest", "--json", "--db", database, plain, copy])
        #expect(result.status == 0)
        let summary = try CLI.json(result.stdout)
        let events = summary["events"] as? Int ?? -1
        #expect(events > 0)
        #expect(summary["duplicates"] as? Int == events)
        #expect(try CLI.sqlite(database, "SELECT count(*) FROM events") == String(events))
        // The copy's added blank line is counted, and the run's lines add up as each file's do.
        #expect(summary["blankLines"] as? Int == 1)
        let parts = ["events", "duplicates", "rejects", "blankLines", "lostLines"].map { summary[$0] as? Int ?? -1 }
        #expect(summary["lines"] as? Int == parts.reduce(0, +))
    }

    @Test func standardInputIsAnInput() throws {
        let directory = try CLI.temporaryDirectory()
        let database = directory.appendingPathComponent("t.db").path
        let lines = (0..<5).map { #"{"ts":\#(1_763_712_000 + $0),"device":"D","launch":"L","seq":\#($0),"event":"snapshot"}"# }
        let result = try CLI.run(["ingest", "--db", database, "-"], stdin: lines.joined(separator: "\n"))
        #expect(result.status == 0)
        #expect(try CLI.sqlite(database, "SELECT count(*), min(seq), max(seq) FROM events") == "5|0|4")
    }

    @Test func aMissingPathExitsTwoNamingItAndTheRestIsStored() throws {
        let directory = try CLI.temporaryDirectory()
        let database = directory.appendingPathComponent("t.db").path
        let plain = CLI.root.appendingPathComponent("traces/dev-0006-2026-11-21.jsonl").path
        let result = try CLI.run(["ingest", "--db", database, "/no/such/file.jsonl.zst", plain])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/no/such/file.jsonl.zst"))
        #expect(!result.stdout.contains("/no/such/file.jsonl.zst"), "errors belong on standard error")
        #expect(try CLI.sqlite(database, "SELECT count(*) > 0 FROM events") == "1")
        // With no path that exists, a new database is not made for nothing.
        let typo = directory.appendingPathComponent("new.db").path
        let mistyped = try CLI.run(["ingest", "--db", typo, "/no/such/file.jsonl.zst"])
        #expect(mistyped.status == 2 && mistyped.stdout.isEmpty)
        #expect(mistyped.stderr == "error: /no/such/file.jsonl.zst: no such file or directory; nothing was read, and \(typo) was not created\n")
        #expect(!FileManager.default.fileExists(atPath: typo))
    }

    @Test func aWrongCommandLineIsAUsageError() throws {
        let result = try CLI.run(["ingest"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("Missing expected argument"))
    }

    @Test func theDefaultDatabaseIsLifelineDbInTheCurrentDirectory() throws {
        let directory = try CLI.temporaryDirectory()
        let plain = CLI.root.appendingPathComponent("traces/dev-0006-2026-11-21.jsonl").path
        let result = try CLI.run(["ingest", "--quiet", plain], in: directory)
        #expect(result.status == 0)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("lifeline.db").path))
    }
}
