import Foundation
import TestScratch

/// Runs the built `lifeline` executable as a user would.
enum CLI {
    /// The package root (for `traces/` and `queries/`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `lifeline`, built beside the test bundle (the test target depends on it).
    static let executable: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("lifeline")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return root.appendingPathComponent(".build/debug/lifeline")
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String], stdin: String? = nil, in directory: URL? = nil) throws -> Result {
        let process = try start(arguments, stdin: stdin, in: directory)
        return process.finish()
    }

    /// A running `lifeline`, for tests that kill it or run two at once. Its two pipe buffers
    /// are each written by one reader thread and read only after `group.wait()`.
    final class Running: @unchecked Sendable {
        let process: Process
        private let out = Pipe()
        private let err = Pipe()
        private var output = Data()
        private var errors = Data()
        private let group = DispatchGroup()

        init(_ arguments: [String], stdin: String?, in directory: URL?) throws {
            process = Process()
            process.executableURL = CLI.executable
            process.arguments = arguments
            process.currentDirectoryURL = directory
            process.standardOutput = out
            process.standardError = err
            let input = Pipe()
            process.standardInput = input
            try process.run()
            if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
            try input.fileHandleForWriting.close()
            // Drain both pipes while it runs, so a chatty process never blocks on a full pipe.
            group.enter()
            DispatchQueue.global().async { [self] in
                output = out.fileHandleForReading.readDataToEndOfFile()
                group.leave()
            }
            group.enter()
            DispatchQueue.global().async { [self] in
                errors = err.fileHandleForReading.readDataToEndOfFile()
                group.leave()
            }
        }

        func finish() -> Result {
            process.waitUntilExit()
            group.wait()
            return Result(
                status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
                stderr: String(decoding: errors, as: UTF8.self))
        }

        func kill() {
            Foundation.kill(process.processIdentifier, SIGKILL)
        }

        /// The result if the process ends within `seconds`; otherwise it is killed and nil is
        /// returned, so that a test of a hang fails instead of hanging.
        func finish(within seconds: TimeInterval) -> Result? {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            guard !process.isRunning else {
                kill()
                _ = finish()
                return nil
            }
            return finish()
        }
    }

    static func start(_ arguments: [String], stdin: String? = nil, in directory: URL? = nil) throws -> Running {
        try Running(arguments, stdin: stdin, in: directory)
    }

    static func temporaryDirectory() throws -> URL { try ScratchDirectory.make("cli") }

    /// A stream as bad as the field sends: a good file, a file of bad lines and a zstd file cut
    /// mid-frame, one after another, written to `stream` in `directory`.
    static func damagedStream(in directory: URL) throws -> URL {
        let stream = directory.appendingPathComponent("stream")
        var bytes = Data()
        for name in ["traces/dev-0006-2026-11-21.jsonl", "traces/bad/malformed.jsonl", "traces/bad/dev-0007-2026-11-21.jsonl.zst"] {
            bytes += try Data(contentsOf: root.appendingPathComponent(name))
        }
        try bytes.write(to: stream)
        return stream
    }

    static func json(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }

    /// Runs `command` with `sh -c`, `LIFELINE` naming the executable; returns its standard output.
    static func shell(_ command: String, environment: [String: String] = [:]) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["LIFELINE": CLI.executable.path].merging(environment) { $1 }) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Runs `script` with bash in `directory`, `LIFELINE` naming the executable, its standard
    /// output and error each a regular file (as a cron job's redirection makes them).
    static func bash(_ script: String, in directory: URL) throws -> CLI.Result {
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

    /// Runs SQL with the stock sqlite3 CLI, as an engineer would.
    static func sqlite(_ database: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [database, sql]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
