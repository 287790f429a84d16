import Foundation
import Testing

/// Helpers for the tests of what a user's mistake does: one line on standard error, the
/// documented exit code, and no file created or changed.
enum Mistake {
    static let plainTrace = CLI.root.appendingPathComponent("traces/dev-0006-2026-11-21.jsonl").path

    /// A database of the sample traces, checked once (findings recorded), in its own directory.
    static func checkedDatabase() throws -> String {
        let database = try CLI.temporaryDirectory().appendingPathComponent("m.db").path
        _ = try CLI.run(["check", "--quiet", "--db", database, CLI.root.appendingPathComponent("traces").path])
        return database
    }

    /// Expects the run to have failed with `status` and exactly one line on standard error that
    /// contains `text`, and nothing on standard output.
    static func expectOneLine(
        _ result: CLI.Result, status: Int32, containing text: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == status, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count == 1, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(text), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "stdout: \(result.stdout)", sourceLocation: sourceLocation)
    }

    /// A file's content, modification time and -wal/-shm companions, to show it was not touched.
    static func snapshot(_ path: String) throws -> [String] {
        let manager = FileManager.default
        let modified = try manager.attributesOfItem(atPath: path)[.modificationDate] as? Date
        let content = try Data(contentsOf: URL(fileURLWithPath: path))
        return [
            content.base64EncodedString(), "\(modified?.timeIntervalSince1970 ?? 0)",
            "wal \(manager.fileExists(atPath: path + "-wal"))", "shm \(manager.fileExists(atPath: path + "-shm"))",
        ]
    }

    /// What a store holds: its file and its write-ahead log, where a write lands first (an
    /// absent log and an empty one alike: a reader may leave an empty one). Equal before and
    /// after a command: the command changed nothing in the store.
    static func content(_ path: String) throws -> [Data] {
        let log = (try? Data(contentsOf: URL(fileURLWithPath: path + "-wal"))) ?? Data()
        return [try Data(contentsOf: URL(fileURLWithPath: path)), log]
    }

    /// What a store holds, row by row (`sqlite3 .dump`): for a command that opens the store to
    /// write and then finds nothing to write, which may leave SQLite's pages laid out anew.
    static func rows(_ path: String) throws -> String {
        try CLI.sqlite(path, ".dump")
    }

    /// Runs `lifeline` as a user who may not write the files the test made (nobody, when the tests
    /// run as root, who may write anything).
    static func runUnprivileged(_ arguments: [String]) throws -> CLI.Result {
        guard getuid() == 0 else { return try CLI.run(arguments) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", CLI.executable.path] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLI.Result(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }
}
