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

    /// An output file that is the database read (by name, through a link, or one of its files),
    /// the same file for two options, an empty name, a directory or a file in a missing directory
    /// is refused before any work: one line, exit 2, the database intact.
    @Test func anOutputThatWouldDestroyInputOrAnotherOutputIsRefusedFirst() throws {
        let database = try Mistake.checkedDatabase()
        let directory = URL(fileURLWithPath: database).deletingLastPathComponent()
        let link = directory.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: database)
        let before = try Mistake.content(database)
        for (arguments, message) in [
            (["report", "--db", database, "--output", database], "--output \(database) is the database \(database) (or one of its files)"),
            (["report", "--db", database, "--output", link], "--output \(link) is the database \(database)"),
            (["export", "--db", database, "--output", database + "-wal", "D"], "--output \(database)-wal is the database \(database)"),
            (["report", "--db", database, "--output", ""], "--output needs a file name, not an empty one"),
            (["report", "--db", database, "--output", directory.path], "cannot write \(directory.path): it is a directory; give --output a file name"),
        ] {
            Mistake.expectOneLine(try CLI.run(arguments), status: 2, containing: message)
        }
        #expect(try Mistake.content(database) == before)
        let summary = directory.appendingPathComponent("out.json").path
        for (arguments, message) in [
            (["--summary-json", summary, "--launches", directory.path + "/./out.json"], "--summary-json and --launches both name \(directory.path)/./out.json"),
            (["--summary-json", directory.path + "/none/s.json"], "cannot write \(directory.path)/none/s.json: there is no directory"),
        ] {
            let run = try Spark.process(CLI.executable.path, ["check", "--stdin", "--quiet"] + arguments, stdin: Self.stream)
            #expect(run.status == 2 && run.stdout.isEmpty, "nothing replayed: \(run.stdout.prefix(80))")
            #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains(message), "\(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: summary))
    }

    /// `--summary-json /dev/stdout` reopened the file standard output was redirected to, emptying
    /// the findings written before it (NUL bytes in their place, exit 0), and `--launches
    /// /dev/stdout` on a pipe interleaved with the findings mid-line. An output that is standard
    /// output itself is refused before anything is read.
    @Test func anOutputThatIsStandardOutputIsRefused() throws {
        let directory = try CLI.temporaryDirectory()
        for option in ["--summary-json", "--launches"] {
            let redirected = try CLI.bash(
                #""$LIFELINE" check --stdin --quiet \#(option) /dev/stdout < '\#(Self.stream.path)' > findings.jsonl; echo $?; wc -c < findings.jsonl"#,
                in: directory)
            #expect(redirected.stdout == "2\n0\n", "\(redirected.stdout)")
            #expect(redirected.stderr.contains("\(option) /dev/stdout is standard output, which carries the findings"), "\(redirected.stderr)")
            let piped = try CLI.run(["check", "--stdin", "--quiet", option, "/dev/stdout"], stdin: try String(contentsOf: Self.stream, encoding: .utf8))
            Mistake.expectOneLine(piped, status: 2, containing: "\(option) /dev/stdout is standard output")
        }
        #expect(try CLI.run(["check", "--stdin", "--quiet", "--summary-json", "/dev/stderr"],
                            stdin: try String(contentsOf: Self.stream, encoding: .utf8)).status == 0, "another device is written through")
    }

    /// The launches file appears whole or not at all: a run killed while reading its stream (after
    /// writing launches, before the end) leaves the old file as it was, and a finished run
    /// replaces it, keeping its permissions, with no hidden file left beside it.
    @Test func aKilledRunLeavesTheLaunchesFileAsItWas() throws {
        let directory = try CLI.temporaryDirectory()
        let launches = directory.appendingPathComponent("launches.jsonl")
        try "old\n".write(to: launches, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: launches.path)
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["check", "--stdin", "--grouped", "--quiet", "--launches", launches.path]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Four hundred devices, each finished as the next begins: enough events to pass the
        // stream's batches and launches to pass the writer's buffer. The stream is left open.
        let trace = try String(contentsOf: Self.stream, encoding: .utf8)
        let device = "63778058-2256-F27A-75B5-970435460C66"
        #expect(trace.contains(device))
        for copy in 0 ..< 400 {
            let renamed = trace.replacingOccurrences(of: device, with: String(device.dropLast(4)) + String(format: "%04d", copy))
            input.fileHandleForWriting.write(Data(renamed.utf8))
        }
        let hidden = { try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".launches.jsonl.") } }
        func written() throws -> Int {
            guard let name = try hidden().first else { return 0 }
            return try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.size] as? Int ?? 0
        }
        let deadline = Date().addingTimeInterval(30)
        while try written() == 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(try written() > 0, "the run writes launches beside the file")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(try String(contentsOf: launches, encoding: .utf8) == "old\n")

        let run = try Spark.process(CLI.executable.path, ["check", "--stdin", "--quiet", "--launches", launches.path], stdin: Self.stream)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try String(contentsOf: launches, encoding: .utf8).hasPrefix("{\"device\""))
        #expect(try FileManager.default.attributesOfItem(atPath: launches.path)[.posixPermissions] as? Int == 0o600)
        #expect(try hidden().count == 1, "only the killed run's hidden file is left")
    }

    /// A stream that holds an upload twice gives what it gives once: the repeats dropped and
    /// counted (they were replayed twice: false breaches, and `duplicates` 0).
    @Test func aRepeatedUploadGivesTheAnswerOfOne() throws {
        let directory = try CLI.temporaryDirectory()
        let trace = try String(contentsOf: Self.stream, encoding: .utf8)
        let twice = directory.appendingPathComponent("twice.jsonl")
        try (trace + trace).write(to: twice, atomically: true, encoding: .utf8)
        let once = try Spark.process(CLI.executable.path, ["check", "--stdin", "--quiet"], stdin: Self.stream)
        let summary = directory.appendingPathComponent("s.json")
        let doubled = try Spark.process(CLI.executable.path, ["check", "--stdin", "--quiet", "--summary-json", summary.path], stdin: twice)
        #expect(doubled.status == once.status && doubled.stdout == once.stdout)
        let totals = try CLI.json(String(decoding: try Data(contentsOf: summary), as: UTF8.self))
        let lines = trace.split(separator: "\n").count
        #expect(totals["duplicates"] as? Int == lines && totals["events"] as? Int == lines, "\(totals)")
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
