import Foundation
import Testing

/// Real processes: two ingests of one directory at once count each file once between them,
/// the same stream twice stores its bad lines once, and a killed stdin ingest does not leave
/// its row `ingesting`.
@Suite(.serialized) struct IngestBookkeepingCLITests {
    @Test func twoIngestsOfTheSameDirectoryAtOnceAddUpExactly() throws {
        let corpus = try CrashAndConcurrencyTests.corpus("same", devices: 8, seed: 21)
        let database = corpus.deletingLastPathComponent().appendingPathComponent("same.db").path
        let a = try CLI.start(["ingest", "--json", "--db", database, corpus.path])
        let b = try CLI.start(["ingest", "--json", "--db", database, corpus.path])
        let results = [a.finish(), b.finish()]
        for result in results { #expect(result.status == 0, "\(result.stderr)") }
        let summaries = try results.map { try CLI.json($0.stdout) }
        let stored = Int(try CLI.sqlite(database, "SELECT count(*) FROM events")) ?? -1
        let events = summaries.map { $0["events"] as? Int ?? -1 }
        let duplicates = summaries.map { $0["duplicates"] as? Int ?? -1 }
        #expect(events.reduce(0, +) == stored)
        #expect(String(duplicates.reduce(0, +)) == (try CLI.sqlite(database, "SELECT sum(duplicates) FROM files")))
        #expect(try CLI.sqlite(database, "SELECT sum(events) FROM files") == String(stored))
        // Every file's lines were counted by exactly one of the two processes.
        let files = summaries.flatMap { $0["files"] as? [[String: Any]] ?? [] }
        var readers: [String: Int] = [:]
        for file in files where (file["lines"] as? Int ?? 0) > 0 {
            readers[file["path"] as? String ?? "", default: 0] += 1
        }
        #expect(readers.count == 16)
        #expect(readers.values.allSatisfy { $0 == 1 }, "\(readers)")
        #expect(try CLI.sqlite(database, "SELECT count(*) FROM files WHERE status = 'done'") == "16")
    }

    /// A file given twice, or two files of the same content, in one run: the later is skipped as
    /// a copy of the earlier (it was "left to another running ingest", naming this very process).
    @Test func aCopyInTheSameRunIsSkippedAsACopy() throws {
        let directory = try CLI.temporaryDirectory()
        let first = directory.appendingPathComponent("a.jsonl").path
        try FileManager.default.copyItem(atPath: Mistake.plainTrace, toPath: first)
        try FileManager.default.copyItem(atPath: Mistake.plainTrace, toPath: directory.appendingPathComponent("b.jsonl").path)
        for arguments in [[directory.path], [first, first]] {
            let database = try CLI.temporaryDirectory().appendingPathComponent("c.db").path
            let result = try CLI.run(["ingest", "--json", "--db", database] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            let files = try CLI.json(result.stdout)["files"] as? [[String: Any]] ?? []
            #expect(files.map { $0["outcome"] as? String } == ["ingested", "skipped"])
            #expect(files.last?["message"] as? String == "the same content as \(first), read earlier in this run")
        }
    }

    @Test func theSameStreamTwiceThroughStandardInputStoresItsBadLinesOnce() throws {
        let directory = try CLI.temporaryDirectory()
        let database = directory.appendingPathComponent("stdin.db").path
        let stream = """
            {"ts":1763712000,"device":"D","launch":"L","seq":0,"event":"launch"}
            {"ts":
            not json
            {"ts":1763712001,"device":"D","launch":"L","seq":1,"event":"snapshot"}

            """
        for run in 1...2 {
            let result = try CLI.run(["ingest", "--json", "--db", database, "-"], stdin: stream)
            #expect(result.status == 1, "bad input both times (run \(run)): \(result.stderr)")
            #expect(try CLI.json(result.stdout)["rejects"] as? Int == 2)
        }
        #expect(try CLI.sqlite(database, "SELECT count(*) FROM rejects") == "2")
        #expect(try CLI.sqlite(database, "SELECT count(*) FROM events") == "2")
    }

    @Test func aKilledStandardInputIngestIsMarkedInterruptedAndKeepsItsEvents() throws {
        let directory = try CLI.temporaryDirectory()
        let database = directory.appendingPathComponent("killed-stdin.db").path
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["ingest", "--quiet", "--db", database, "-"]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // More than one batch (8,192 events), and the pipe left open: the ingest waits for more.
        let lines = (0..<10_000).map { #"{"ts":\#(1_763_712_000 + $0),"device":"D","launch":"L","seq":\#($0),"event":"snapshot"}"# }
        input.fileHandleForWriting.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        let deadline = Date().addingTimeInterval(60)
        while (Int(try CLI.sqlite(database, "SELECT count(*) FROM event_rows")) ?? 0) == 0, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let committed = try CLI.sqlite(database, "SELECT count(*) FROM events")
        #expect(committed == "8192")
        #expect(try CLI.sqlite(database, "SELECT status FROM files") == "ingesting")

        let file = directory.appendingPathComponent("other.jsonl")
        try Data(#"{"ts":1,"device":"E","launch":"L","seq":0,"event":"launch"}"#.utf8 + [0x0A]).write(to: file)
        #expect(try CLI.run(["ingest", "--quiet", "--db", database, file.path]).status == 0)
        #expect(try CLI.sqlite(database, "SELECT status FROM files WHERE path = '-'") == "interrupted")
        #expect(try CLI.sqlite(database, "SELECT count(*) FROM events WHERE device = 'D'") == committed)
    }
}
