import Foundation
import Testing

/// The README's own commands, read from README.md so that they cannot drift from what is tested.
@Suite struct ReadmeCommandsTests {
    static let readme = (try? String(contentsOf: CLI.root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

    /// The lines of every ```sh block.
    static var shellLines: [String] {
        var lines: [String] = []
        var inShell = false
        for line in readme.components(separatedBy: "\n") {
            if line.hasPrefix("```") { inShell = line == "```sh"; continue }
            if inShell { lines.append(line) }
        }
        return lines
    }

    static let buildPackages = ["libzstd-dev", "zlib1g-dev", "libsqlite3-dev", "sqlite3", "zstd"]

    @Test func theQuickStartInstallsWhatTheBuildAndTestsNeedAsCIDoes() throws {
        let install = try #require(Self.shellLines.first { $0.contains("apt-get install") })
        let words = Set(install.split(whereSeparator: { " ();|&".contains($0) }).map(String.init))
        for package in Self.buildPackages { #expect(words.contains(package), "the quick start does not install \(package)") }
        let ci = try String(contentsOf: CLI.root.appendingPathComponent(".ci/run"), encoding: .utf8)
        #expect(ci.contains("packages=(\(Self.buildPackages.joined(separator: " ")))"))
    }

    /// Each `sqlite3 … < queries/…` command, run by the shell as printed (with a real device for
    /// DEVICE-ID) in a directory holding lifeline.db, answers a header and at least one row.
    @Test func theQueryCommandsPrintRows() throws {
        let commands = Self.shellLines.filter { $0.hasPrefix("sqlite3 ") && $0.contains("< queries/") }
        #expect(commands.count >= 2)
        let directory = try CLI.temporaryDirectory()
        _ = try CLI.run(["check", "--quiet", CLI.root.appendingPathComponent("traces").path], in: directory)
        try FileManager.default.createSymbolicLink(
            at: directory.appendingPathComponent("queries"), withDestinationURL: CLI.root.appendingPathComponent("queries"))
        let device = try CLI.sqlite(directory.appendingPathComponent("lifeline.db").path, "SELECT name FROM devices LIMIT 1")
        for command in commands {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command.replacingOccurrences(of: "DEVICE-ID", with: device)]
            process.currentDirectoryURL = directory
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(command)")
            // -header -column: the header, a rule of dashes, then the rows.
            #expect(text.split(separator: "\n").count >= 3, "\(command) printed: \(text)")
        }
    }
}
