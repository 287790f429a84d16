import Foundation
import Testing

/// A disk that fills up mid-ingest: the ingest stops with exit 2 and one line on standard error,
/// the database stays consistent, and once there is room again a re-run completes it with no
/// duplicates. The disk is a small tmpfs mounted for the test, which needs root (as in CI);
/// elsewhere the test is skipped, and says so.
@Suite(.serialized) struct FullDiskTests {
    /// A scratch mount point, or nil where tmpfs cannot be mounted (not root, or no permission).
    static let mountPoint: URL? = {
        guard let directory = try? CLI.temporaryDirectory().appendingPathComponent("disk"),
              (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)) != nil,
              shell("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", directory.path) == 0
        else { return nil }
        return directory
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

    @Test(.enabled(if: mountPoint != nil, "needs root to mount a small tmpfs as a full disk"))
    func aFullDiskStopsTheIngestCleanlyAndARerunCompletesIt() throws {
        let disk = try #require(Self.mountPoint)
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
}
