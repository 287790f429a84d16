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

    /// The section after the quick start: each ```sh block and the ``` block that follows it.
    static var questions: [(commands: [String], output: String)] {
        guard let start = readme.range(of: "### Then ask it questions") else { return [] }
        var pairs: [(commands: [String], output: String)] = []
        var commands: [String]?
        var block: [String]?
        for line in readme[start.upperBound...].components(separatedBy: "\n") {
            if block == nil, line.hasPrefix("## ") { break }
            if line.hasPrefix("```") {
                if let open = block {
                    // A fence closes the block: a command block waits for its output.
                    if let waiting = commands {
                        pairs.append((waiting, open.map { $0 + "\n" }.joined()))
                        commands = nil
                    } else {
                        commands = open
                    }
                    block = nil
                } else {
                    block = []
                    if line == "```sh" { commands = nil }
                }
                continue
            }
            block?.append(line)
        }
        return pairs
    }

    /// The three commands shown after the quick start, run as written (`swift run lifeline` is
    /// the built executable) from a directory where the quick start has been run on `traces/`,
    /// print what the README shows, but for the time of the check.
    @Test func theCommandsAfterTheQuickStartPrintWhatIsShown() throws {
        let pairs = Self.questions
        #expect(pairs.count == 3, "a query, a report and an export")
        #expect(pairs.map { $0.commands[0].split(separator: " ").dropFirst(3).first ?? "" } == ["query", "report", "export"])
        #expect(pairs.filter { $0.commands.joined().contains("--app") }.count >= 1, "one filter in use")
        let directory = try CLI.temporaryDirectory()
        try FileManager.default.createSymbolicLink(
            at: directory.appendingPathComponent("traces"), withDestinationURL: CLI.root.appendingPathComponent("traces"))
        try FileManager.default.createSymbolicLink(
            at: directory.appendingPathComponent("queries"), withDestinationURL: CLI.root.appendingPathComponent("queries"))
        // The quick start's command.
        _ = try CLI.run(["check", "traces/"], in: directory)
        let checkTime = #"latest check \d{4}-\d\d-\d\dT[0-9:.]+Z"#
        for (commands, shown) in pairs {
            let script = commands.map { $0.replacingOccurrences(of: "swift run lifeline ", with: "'\(CLI.executable.path)' ") }
                .joined(separator: "\n")
            let (status, text) = try Self.shell(script, in: directory)
            #expect(status == 0, "\(commands)")
            let stable = { (text: String) in text.replacingOccurrences(of: checkTime, with: "latest check T", options: .regularExpression) }
            #expect(stable(text) == stable(shown), "\(commands.joined(separator: "; ")) printed:\n\(text)")
        }
    }

    /// Each `sqlite3 … < queries/…` command, run by the shell as printed (with a real device for
    /// DEVICE-ID) in a directory holding lifeline.db, answers a header and at least one row.
    /// The list of subcommands under "Commands" is `lifeline --help`'s, word for word (it had
    /// drifted: `report`'s line left out HTML).
    @Test func theCommandListIsTheHelpsList() throws {
        let help = try CLI.run(["--help"])
        let listed = help.stdout.components(separatedBy: "\n").drop { !$0.hasPrefix("SUBCOMMANDS:") }.prefix { !$0.isEmpty }
        #expect(listed.count > 5)
        #expect(Self.readme.contains(listed.joined(separator: "\n") + "\n"), "README's list differs from:\n\(listed.joined(separator: "\n"))")
    }

    @Test func theQueryCommandsPrintRows() throws {
        let commands = Self.shellLines.filter { $0.hasPrefix("sqlite3 ") && $0.contains("< queries/") }
        #expect(commands.count >= 2)
        let directory = try CLI.temporaryDirectory()
        _ = try CLI.run(["check", "--quiet", CLI.root.appendingPathComponent("traces").path], in: directory)
        try FileManager.default.createSymbolicLink(
            at: directory.appendingPathComponent("queries"), withDestinationURL: CLI.root.appendingPathComponent("queries"))
        let device = try CLI.sqlite(directory.appendingPathComponent("lifeline.db").path, "SELECT name FROM devices LIMIT 1")
        for command in commands {
            let (status, text) = try Self.shell(command.replacingOccurrences(of: "DEVICE-ID", with: device), in: directory)
            #expect(status == 0, "\(command)")
            // -header -column: the header, a rule of dashes, then the rows.
            #expect(text.split(separator: "\n").count >= 3, "\(command) printed: \(text)")
        }
    }

    /// Runs `script` with /bin/sh in `directory`: its exit status and standard output.
    static func shell(_ script: String, in directory: URL) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = directory
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
