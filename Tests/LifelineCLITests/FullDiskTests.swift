import Foundation
import Testing

/// A disk that fills up mid-ingest: the ingest stops with exit 2 and one line on standard error,
/// the database stays consistent, and once there is room again a re-run completes it with no
/// duplicates. A `TMPDIR` that fills up under `check --stdin`'s spill: exit 2 and one line saying
/// what to do. The disk is a small tmpfs mounted for each test, which needs root (as in CI);
/// elsewhere the tests are skipped, and say so.
@Suite(.serialized) struct FullDiskTests {
    /// A fresh 2 MB tmpfs, or nil where tmpfs cannot be mounted (not root, or no permission).
    static func smallDisk() -> URL? {
        guard let directory = try? CLI.temporaryDirectory().appendingPathComponent("disk"),
              (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)) != nil,
              shell("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", directory.path) == 0
        else { return nil }
        return directory
    }

    static let canMount: Bool = {
        guard let disk = smallDisk() else { return false }
        shell("umount", disk.path)
        return true
    }()

    @discardableResult
    static func shell(_ arguments: String...) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test(.enabled(if: canMount, "needs root to mount a small tmpfs as a full disk"))
    func aFullDiskStopsTheIngestCleanlyAndARerunCompletesIt() throws {
        let disk = try #require(Self.smallDisk())
        defer { Self.shell("umount", disk.path) }
        let corpus = try CrashAndConcurrencyTests.corpus("full-disk-corpus", devices: 12, seed: 5)
        let reference = corpus.deletingLastPathComponent().appendingPathComponent("reference.db").path
        #expect(try CLI.run(["ingest", "--quiet", "--db", reference, corpus.path]).status == 0)
        let expected = try CrashAndConcurrencyTests.count(reference)

        let database = disk.appendingPathComponent("fleet.db").path
        let full = try CLI.run(["ingest", "--quiet", "--db", database, corpus.path])
        #expect(full.status == 2, "\(full.stdout)\(full.stderr)")
        #expect(full.stderr.contains("full"), "the error names the cause: \(full.stderr)")
        #expect(!full.stdout.contains("full"), "errors belong on standard error: \(full.stdout)")
        #expect(try CLI.sqlite(database, "PRAGMA integrity_check") == "ok")
        let partial = try CrashAndConcurrencyTests.count(database)
        #expect(partial.events == partial.distinct)
        #expect((Int(partial.events) ?? .max) < (Int(expected.events) ?? 0), "the disk must fill mid-ingest")

        #expect(Self.shell("mount", "-o", "remount,size=256m", disk.path) == 0)
        try CrashAndConcurrencyTests.expectARerunCompletes(database, corpus: corpus, expected: expected)
    }

    /// More devices' events to spill than the temporary directory holds.
    @Test(.enabled(if: canMount, "needs root to mount a small tmpfs as a full disk"))
    func aFullTemporaryDirectoryStopsTheSpillWithOneLine() throws {
        let disk = try #require(Self.smallDisk())
        defer { Self.shell("umount", disk.path) }
        let corpus = try CrashAndConcurrencyTests.corpus("full-spill-corpus", devices: 12, seed: 6)
        let errors = disk.deletingLastPathComponent().appendingPathComponent("errors.txt").path
        let result = try CLI.shell(
            #"cat "\#(corpus.path)"/* | TMPDIR=\#(disk.path) "$LIFELINE" check --stdin --quiet --devices-in-memory 1 > /dev/null 2> \#(errors)"#)
        #expect(result.status == 2)
        #expect(try String(contentsOfFile: errors, encoding: .utf8)
            == "error: standard input: could not write the events of devices beyond --devices-in-memory to a temporary file "
            + "(No space left on device): free space in \(disk.path), set TMPDIR, or raise --devices-in-memory\n")
        // Held in memory, the same stream needs no room there.
        let held = try CLI.shell(#"cat "\#(corpus.path)"/* | TMPDIR=\#(disk.path) "$LIFELINE" check --stdin --quiet > /dev/null"#)
        #expect(held.status == 0)
    }
}
