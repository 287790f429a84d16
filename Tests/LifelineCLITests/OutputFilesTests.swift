import Foundation
import Testing

/// The files a command writes besides standard output (`--summary-json`, `--launches`, `--output`):
/// a symbolic link, a device or a pipe is written through, never replaced by a new file (as root,
/// replacing `/dev/stdout` or `/dev/full` would break the machine), and a file that cannot be
/// opened is one line naming the system's reason, exit 2.
@Suite struct OutputFilesTests {
    static let stream = CLI.root.appendingPathComponent("traces/dev-0006-2026-11-21.jsonl")

    @Test(arguments: ["--summary-json", "--launches"])
    func aSymbolicLinkIsWrittenThroughAndKept(_ option: String) throws {
        let directory = try CLI.temporaryDirectory()
        let target = directory.appendingPathComponent("target.txt")
        // Longer than what is written: nothing of it may be left after the new text.
        try String(repeating: "x", count: 100_000).write(to: target, atomically: true, encoding: .utf8)
        let link = directory.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let run = try Spark.process(CLI.executable.path, ["check", "--stdin", "--quiet", option, link.path], stdin: Self.stream)
        #expect(run.status == 0, "\(run.stderr)")
        let kind = try FileManager.default.attributesOfItem(atPath: link.path)[.type] as? FileAttributeType
        #expect(kind == .typeSymbolicLink, "the link is still a link")
        let written = try String(contentsOf: target, encoding: .utf8)
        #expect(written.hasPrefix("{\""), "the target holds what was written: \(written.prefix(80))")
        #expect(!written.contains("xxx"), "the old content is gone")
    }

    @Test(arguments: ["--summary-json", "--launches"])
    func aFileInAMissingDirectoryIsOneLineWithTheReason(_ option: String) throws {
        let directory = try CLI.temporaryDirectory()
        let path = directory.appendingPathComponent("missing/out.json").path
        let run = try Spark.process(CLI.executable.path, ["check", "--stdin", "--quiet", option, path], stdin: Self.stream)
        #expect(run.status == 2)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("error: cannot write \(path): "), "\(run.stderr)")
    }

    /// A FIFO with a reader at its other end is written as a pipe is, and stays a FIFO.
    @Test(arguments: ["--summary-json", "--launches"])
    func aFIFOIsWrittenThroughAndKept(_ option: String) throws {
        let directory = try CLI.temporaryDirectory()
        let fifo = directory.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo]
        let received = Pipe()
        reader.standardOutput = received
        try reader.run()
        let run = try Spark.process(CLI.executable.path, ["check", "--stdin", "--quiet", option, fifo], stdin: Self.stream)
        let text = String(decoding: received.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        reader.waitUntilExit()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(text.hasPrefix("{\""), "\(text.prefix(80))")
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "still a FIFO")
    }

    /// A stream with a cut zstd frame and bad lines still gives the launches it replayed, each a
    /// line of JSON, and exits 1 as any bad input does.
    @Test func aDamagedStreamGivesTheLaunchesItReplayed() throws {
        let directory = try CLI.temporaryDirectory()
        let stream = try CLI.damagedStream(in: directory)
        let launches = directory.appendingPathComponent("launches.jsonl")
        let summary = directory.appendingPathComponent("summary.json")
        let run = try Spark.process(
            CLI.executable.path, ["check", "--stdin", "--quiet", "--launches", launches.path, "--summary-json", summary.path],
            stdin: stream)
        #expect(run.status == 1, "rejected and lost lines: exit 1")
        let lines = try String(contentsOf: launches, encoding: .utf8).split(separator: "\n")
        let devices = Set(try lines.map { try CLI.json(String($0))["device"] as? String ?? "" })
        let totals = try CLI.json(String(decoding: try Data(contentsOf: summary), as: UTF8.self))
        #expect(devices.count == totals["devices"] as? Int, "a launch of every device replayed: \(devices)")
        #expect(lines.contains { $0.contains(#""log_cut_short":true"#) }, "the launch in the cut frame says so")
    }
}
