import Foundation
import Testing

/// Damaged and unusual input through the CLI: damage is reported and sets the exit code,
/// process substitution is read once, and a directory that cannot be listed fails.
@Suite(.serialized) struct DamagedInputTests {
    /// Runs `script` with bash, `$LIFELINE` naming the built executable.
    private func bash(_ script: String, in directory: URL) throws -> CLI.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(["LIFELINE": CLI.executable.path]) { $1 }
        let out = directory.appendingPathComponent("out-\(UUID().uuidString)")
        let err = directory.appendingPathComponent("err-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        return CLI.Result(
            status: process.terminationStatus, stdout: try String(contentsOf: out, encoding: .utf8),
            stderr: try String(contentsOf: err, encoding: .utf8))
    }

    private var sample: String { CLI.root.appendingPathComponent("traces/dev-0006-2026-11-21.jsonl").path }

    @Test func processSubstitutionIsReadOnceAndTheSameFileIsSkippedAfter() throws {
        let directory = try CLI.temporaryDirectory()
        let first = try bash("\"$LIFELINE\" ingest --json --db t.db <(cat '\(sample)')", in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        let summary = try CLI.json(first.stdout)
        let events = try #require(summary["events"] as? Int)
        #expect(events > 0)
        let again = try bash("\"$LIFELINE\" ingest --json --db t.db '\(sample)'", in: directory)
        #expect(try CLI.json(again.stdout)["filesSkipped"] as? Int == 1)
    }

    @Test func checkStdinReportsACutStreamOnStandardErrorAndExitsOne() throws {
        let directory = try CLI.temporaryDirectory()
        let result = try bash("""
            zstd -q -c '\(sample)' > s.zst && head -c $(( $(stat -c %s s.zst) - 40 )) s.zst > cut.zst \
            && "$LIFELINE" check --stdin --quiet < cut.zst
            """, in: directory)
        #expect(result.status == 1)
        #expect(result.stderr.contains("stdin: bytes 0-"))
        #expect(result.stderr.contains("cut short"))
        #expect(result.stderr.contains("lost lines (bytes 0-"))
        // The findings on standard output are JSON lines, untouched.
        for line in result.stdout.split(separator: "\n") { #expect(line.hasPrefix("{")) }
    }

    @Test func checkStdinReportsACorruptStreamAndExitsOne() throws {
        let directory = try CLI.temporaryDirectory()
        let result = try bash("""
            gzip -c '\(sample)' > s.gz && size=$(stat -c %s s.gz) \
            && { head -c $(( size - 8 )) s.gz; printf '\\x00\\x00\\x00\\x00'; tail -c 4 s.gz; } > bad.gz \
            && "$LIFELINE" check --stdin < bad.gz
            """, in: directory)
        #expect(result.status == 1)
        #expect(result.stderr.contains("is damaged: incorrect data check"))
        #expect(result.stderr.contains("replayed 0 events"))
        #expect(result.stdout.isEmpty)
    }

    @Test func aFIFOInAnInputDirectoryDoesNotHangTheIngest() throws {
        let directory = try CLI.temporaryDirectory()
        let result = try bash("""
            mkdir logs && cp '\(sample)' logs/a.jsonl && mkfifo logs/b.jsonl \
            && timeout 60 "$LIFELINE" ingest --db t.db logs
            """, in: directory)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("logs/b.jsonl: ignored: not a regular file (a FIFO)"))
    }

    /// Root lists any directory, so this runs only for other users (the injected failure of
    /// `DamageAccountingTests` covers root).
    @Test(.enabled(if: getuid() != 0)) func anUnreadableSubdirectoryFailsWithExitTwo() throws {
        let directory = try CLI.temporaryDirectory()
        let result = try bash("""
            mkdir -p logs/locked && cp '\(sample)' logs/a.jsonl && cp '\(sample)' logs/locked/b.jsonl \
            && chmod 000 logs/locked; "$LIFELINE" ingest --db t.db logs; status=$?; chmod 755 logs/locked; exit $status
            """, in: directory)
        #expect(result.status == 2)
        #expect(result.stdout.contains("cannot list the directory: Permission denied"))
        #expect(result.stdout.contains("1 failed"))
    }
}
