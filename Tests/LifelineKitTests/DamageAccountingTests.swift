import Foundation
import GRDB
@testable import LifelineKit
import Testing
import TraceRead
import TraceStore

/// Damaged input is never stored, every line is accounted for in the summary and in `files`,
/// and paths that can be read only once are read once.
@Suite struct DamageAccountingTests {
    /// events + duplicates + rejects + blank + lost = lines, for a report and for its row.
    private func expectEveryLineAccounted(_ summary: IngestSummary, _ store: Store, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for file in summary.files where file.outcome == .ingested {
            #expect(file.lines == file.events + file.duplicates + file.rejectCount + file.blankLines + file.lostLines,
                    "\(file)", sourceLocation: sourceLocation)
        }
        for row in try store.files() {
            #expect(row.lines == row.events + row.duplicates + row.rejects + row.blankLines + row.lostLines,
                    "\(row)", sourceLocation: sourceLocation)
        }
    }

    @Test func aGzipMemberFailingItsCRCStoresNothingAndTheGoodCopyIsStoredLater() throws {
        let workspace = try Workspace()
        let source = try workspace.write("a.jsonl", lines: launchLines(count: 40))
        try shell("gzip -k -q \(source)")
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: source + ".gz")))
        bytes[bytes.count - 8] ^= 0x01  // the stored CRC32
        let damaged = workspace.path("damaged.jsonl.gz")
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        let store = try workspace.store()

        let first = Ingestor(store: store).ingest([damaged])
        #expect(first.events == 0)
        #expect(first.lostLines == 40)
        #expect(first.damagedFiles == 1)
        #expect(first.status == .badInput)
        #expect(first.files[0].damage.map { [$0.from, $0.to] } == [[0, bytes.count]])
        try expectEveryLineAccounted(first, store)

        let good = Ingestor(store: store).ingest([source + ".gz"])
        #expect(good.events == 40)
        #expect(good.duplicates == 0)
        try expectEveryLineAccounted(good, store)
    }

    @Test func aZstdFileWithOneBadFrameKeepsTheFramesAfterItAndRecordsTheDamage() throws {
        let workspace = try Workspace()
        let lines = launchLines(count: 30)
        var bytes: [UInt8] = []
        var starts: [Int] = []
        for part in 0..<3 {
            let name = "part\(part).jsonl"
            try workspace.write(name, lines: Array(lines[(part * 10)..<(part * 10 + 10)]))
            try shell("zstd -q \(workspace.path(name))")
            starts.append(bytes.count)
            bytes += Array(try Data(contentsOf: URL(fileURLWithPath: workspace.path(name + ".zst"))))
        }
        bytes[starts[2] - 1] ^= 0x01  // frame 1's checksum
        let path = workspace.path("frames.jsonl.zst")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let store = try workspace.store()

        let summary = Ingestor(store: store).ingest([path])
        #expect(summary.events == 20)
        #expect(summary.lostLines == 10)
        #expect(summary.truncatedFiles == 0)
        #expect(summary.status == .badInput)
        try expectEveryLineAccounted(summary, store)
        let row = try #require(try store.files().first)
        #expect(row.lostLines == 10)
        #expect(row.damageList.map { [$0.from, $0.to, $0.lines, $0.afterLine] } == [[starts[1], starts[2], 10, 10]])
        let storedLines = try store.read { try Int.fetchAll($0, sql: "SELECT line FROM events ORDER BY line") }
        #expect(storedLines == Array(1...10) + Array(21...30))
        #expect(summary.text().contains("damaged: zstd frame starting at byte \(starts[1]) is damaged"))
        // No line was rejected: the summary does not send the user to an empty table.
        #expect(!summary.text().contains("rejects r JOIN"))
        #expect(summary.text().hasSuffix("Some compressed input was damaged or cut short (where: above); every line that could be read was stored."))
    }

    @Test func aFIFOIsReadOnceAndItsHashRecordedSoTheSameFileIsSkippedAfter() throws {
        let workspace = try Workspace()
        let file = try workspace.write("a.jsonl", lines: launchLines(count: 25) + [""])
        let fifo = workspace.path("pipe.jsonl")
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread { _ = try? shell("cat \(file) > \(fifo)") }
        writer.start()
        let store = try workspace.store()

        let summary = Ingestor(store: store).ingest([fifo])
        #expect(summary.events == 25)
        #expect(summary.files[0].blankLines == 1)
        try expectEveryLineAccounted(summary, store)
        let recorded = try store.files().first?.sha256
        #expect(recorded == (try FileFingerprint.sha256(path: file)))

        let again = Ingestor(store: store).ingest([file])
        #expect(again.count(.skipped) == 1)
    }

    @Test func aFIFOInsideADirectoryIsIgnoredNotOpened() throws {
        let workspace = try Workspace()
        try workspace.write("logs/a.jsonl", lines: launchLines(count: 3))
        #expect(mkfifo(workspace.path("logs/b.jsonl"), 0o600) == 0)
        let summary = Ingestor(store: try workspace.store()).ingest([workspace.path("logs")])
        #expect(summary.events == 3)
        let ignored = try #require(summary.files.first { $0.outcome == .ignored })
        #expect(ignored.path.hasSuffix("logs/b.jsonl"))
        #expect(ignored.message?.contains("not a regular file (a FIFO)") == true)
        #expect(summary.status == .clean)
        #expect(summary.text().contains("1 ignored (why: below)"))
    }

    /// Root reads any directory whatever its mode, so the listing failure is injected.
    @Test func aSubdirectoryThatCannotBeListedIsAFailedInput() throws {
        let workspace = try Workspace()
        try workspace.write("logs/a.jsonl", lines: launchLines(count: 3))
        try workspace.write("logs/locked/b.jsonl", lines: launchLines(count: 3))
        let locked = workspace.path("logs/locked")
        var fileSystem = InputPaths.FileSystem.system
        let list = fileSystem.list
        fileSystem.list = { $0 == locked ? .failure(.cannotOpen(path: $0, reason: "Permission denied")) : list($0) }
        let inputs = InputPaths.expand([workspace.path("logs")], in: fileSystem)
        #expect(inputs == [
            .file(workspace.path("logs/a.jsonl")),
            .missing(locked, reason: "cannot list the directory: Permission denied"),
        ])
    }

    /// A directory's logs are found by their names in any case, the other files left alone; a
    /// directory with files but none named like a log fails, naming one, instead of adding up to
    /// an ingest of nothing.
    @Test func aDirectoryWithNoFileNamedLikeALogIsAFailedInput() throws {
        let workspace = try Workspace()
        try workspace.write("mixed/A.JSONL", lines: launchLines(count: 2))
        try workspace.write("mixed/README.md", lines: ["notes"])
        try workspace.write("mixed/.hidden", lines: ["x"])
        try workspace.write("renamed/app.log", lines: launchLines(count: 2))
        try workspace.write("renamed/app.jsonl.1", lines: launchLines(count: 2))
        try workspace.write("hidden-only/.DS_Store", lines: ["x"])
        try FileManager.default.createDirectory(atPath: workspace.path("empty"), withIntermediateDirectories: true)
        #expect(InputPaths.expand([workspace.path("mixed")]) == [.file(workspace.path("mixed/A.JSONL"))])
        #expect(InputPaths.expand([workspace.path("empty"), workspace.path("hidden-only")]).isEmpty)
        let renamed = workspace.path("renamed")
        #expect(InputPaths.expand([renamed]) == [
            .missing(renamed, reason: "no file in it is named like a log (.jsonl, .jsonl.zst, .jsonl.gz, .ndjson and the "
                + "like): 2 files left alone, such as \(renamed)/app.jsonl.1; name a file on its own to read it whatever its name"),
        ])
        #expect(InputPaths.expand([workspace.path("renamed/app.log")]) == [.file(workspace.path("renamed/app.log"))])
        // A FIFO not named like a log is left alone unopened (opening it would wait for a writer).
        try FileManager.default.createDirectory(atPath: workspace.path("fifo"), withIntermediateDirectories: true)
        #expect(mkfifo(workspace.path("fifo/pipe"), 0o600) == 0)
        guard case .missing(_, let reason)? = InputPaths.expand([workspace.path("fifo")]).first else {
            Issue.record("a directory holding only a FIFO is a failed input")
            return
        }
        #expect(reason.contains("1 file left alone, such as \(workspace.path("fifo/pipe"))"))
        let summary = try Ingestor(store: workspace.store()).ingest([renamed])
        #expect(summary.status == .failed)
    }
}
