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
}
