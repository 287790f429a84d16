import ArgumentParser
import Foundation
import LifelineKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct KeyByDeviceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key-by-device",
        abstract: "Write every event line of log files keyed by its device, for a shuffle by device (the Spark job's first pass).",
        discussion: """
            Reads files and directories as `ingest` does (any compression, damaged or cut-short \
            files, bad lines counted by reason) and writes one record a line on standard output, \
            fields separated by tabs: `E DEVICE FILE LINE TEXT` for each event line (DEVICE as a \
            JSON string, FILE the input's number from --first-index, LINE its line number, TEXT \
            the line as read), `C DEVICE FILE` for each device of a file that was cut short, and \
            `F FILE REPORT` after each file (its counts as JSON, as `ingest --json` reports a \
            file). Bad lines are counted in the report, not written. Group the records by device \
            and pipe them to `lifeline check --stdin --keyed` to replay each device once and whole.

            Exit codes: 0 every line was an event; 1 some input was bad (rejected lines, a \
            damaged or cut-short file); 2 a path could not be read (its F record says why) or \
            the output could not be written; 64 the command line is wrong.
            """)

    @Argument(help: "Files or directories to read (directories as `ingest` reads them).")
    var paths: [String] = []

    @Option(help: ArgumentHelp("Read the paths to read from this file, one a line (- for standard input).", valueName: "file"))
    var pathsFrom: String?

    @Option(help: ArgumentHelp("The number of the first file in the records.", valueName: "n"))
    var firstIndex = 0

    /// 2⁵³ − 1: the largest whole number a double holds exactly.
    static let largestIndex = (1 << 53) - 1

    func validate() throws {
        try CommandFailure.reporting {
            if paths.isEmpty && pathsFrom == nil { throw CommandFailure.usage("give PATHs or --paths-from FILE") }
            if pathsFrom == "-" && paths.contains("-") {
                throw CommandFailure.usage("standard input holds the list of paths (--paths-from -): it cannot be read as a log too")
            }
            // A record's file number must stay exact as a JSON number read into a double (Spark).
            if !(0 ... Self.largestIndex).contains(firstIndex) {
                throw CommandFailure.usage("--first-index must be between 0 and \(Self.largestIndex)")
            }
        }
    }

    func run() throws {
        try CommandFailure.reporting {
            var files: [String] = []
            var failed = false
            for input in InputPaths.expand(paths) {
                switch input {
                case .file(let path): files.append(path)
                case .standardInput: files.append("-")
                case .missing(let path, _) where !FileManager.default.fileExists(atPath: path):
                    // Keyed like any file, so that its failure is a record (`F`) the replay counts
                    // too, and not only a line here, lost in the pipe.
                    files.append(path)
                case .missing(let path, let reason):
                    Terminal.printError("\(path): \(reason)")
                    failed = true
                case .notRegular(let path, let kind): Terminal.printError("\(path): ignored: not a regular file (\(kind))")
                }
            }
            if let pathsFrom { files += try Self.list(pathsFrom) }
            let reports: [FileReport]
            do {
                reports = try DeviceKeyer().key(paths: files, firstIndex: firstIndex, output: Self.writeOut)
            } catch {
                throw CommandFailure.unreadable("cannot write the records: \(error)")
            }
            for report in reports where report.rejectCount > 0 || !report.damage.isEmpty || report.outcome == .failed {
                Terminal.printError(CheckCommand.describe(report))
            }
            if failed || reports.contains(where: { $0.outcome == .failed }) { throw ExitCode(ExitStatus.unreadable.rawValue) }
            if reports.contains(where: { $0.rejectCount > 0 || !$0.damage.isEmpty || $0.truncated }) {
                throw ExitCode(ExitStatus.findingsOrBadInput.rawValue)
            }
        }
    }

    /// The paths listed in a file (or standard input), one a line; blank lines are skipped.
    private static func list(_ source: String) throws -> [String] {
        let data: Data
        if source == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let read = FileManager.default.contents(atPath: source) else {
                throw CommandFailure.unreadable("cannot read the list of paths \(source)")
            }
            data = read
        }
        // Split as bytes: in a String, "\r\n" is one character, which "\n" does not match.
        return data.split(separator: 0x0A, omittingEmptySubsequences: true)
            .map { $0.last == 0x0D ? $0.dropLast() : $0 }
            .filter { !$0.isEmpty }
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// Writes bytes to standard output whole, or throws with the OS's reason.
    private static func writeOut(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress.map { $0 + offset }, bytes.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw CommandFailure.unreadable("standard output: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }
}
