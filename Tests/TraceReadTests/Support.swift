import Foundation
@testable import TraceRead

/// A directory of test inputs, removed when the test ends.
final class Scratch {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("traceread-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    @discardableResult
    func write(_ name: String, _ bytes: some Sequence<UInt8>) throws -> String {
        let path = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String { try write(name, Array(text.utf8)) }

    func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path(name)))) }

    /// Compresses `text` with a command-line tool (`zstd` or `gzip`) and returns the output file's bytes.
    func compress(_ text: String, with tool: String, name: String) throws -> [UInt8] {
        try write(name, text)
        try run(tool, ["-q", "-f", path(name)])
        let suffix = tool == "zstd" ? ".zst" : ".gz"
        return try bytes(name + suffix)
    }
}

/// Runs a command-line tool found on PATH, returning its standard output. The output goes
/// through a file because reading a pipe with corelibs Foundation traps on EINTR.
@discardableResult
func run(_ tool: String, _ arguments: [String]) throws -> String {
    let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("traceread-out-\(UUID().uuidString)")
    guard FileManager.default.createFile(atPath: outputURL.path, contents: nil) else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot create \(outputURL.path)"])
    }
    defer { try? FileManager.default.removeItem(at: outputURL) }
    let output = try FileHandle(forWritingTo: outputURL)
    defer { try? output.close() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [tool] + arguments
    process.standardOutput = output
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "\(tool) \(arguments) failed"])
    }
    return String(decoding: try Data(contentsOf: outputURL), as: UTF8.self)
}

/// A delivered line, copied out of the reader's buffer.
struct Got: Equatable, CustomStringConvertible {
    var number: Int
    var text: String
    var totalBytes: Int
    var kind: Line.Kind

    /// `totalBytes` defaults to what the kind implies: the text's length, or `.tooLong`'s count.
    init(_ number: Int, _ text: String, _ kind: Line.Kind = .complete, totalBytes: Int? = nil) {
        self.number = number
        self.text = text
        self.kind = kind
        if case let .tooLong(total) = kind {
            self.totalBytes = totalBytes ?? total
        } else {
            self.totalBytes = totalBytes ?? text.utf8.count
        }
    }

    var description: String { "\(number):\(kind):\(totalBytes):\(text.prefix(40))" }
}

/// Reads every line of `path`, returning the lines and the reader for its counters.
func readAll(
    _ path: String, maxLineBytes: Int = 1 << 20, hashing: Bool = false, chunkSize: Int = 1 << 20,
    frameMemory: Int = 16 << 20
) throws -> (lines: [Got], reader: LineReader) {
    let reader = try LineReader(
        path: path, maxLineBytes: maxLineBytes, hashing: hashing, chunkSize: chunkSize, frameMemory: frameMemory)
    var lines: [Got] = []
    try reader.forEachLine { line in
        lines.append(Got(line.number, String(decoding: line.bytes, as: UTF8.self), line.kind, totalBytes: line.totalBytes))
        return true
    }
    return (lines, reader)
}

/// Numbered complete lines for `texts`, starting at line 1.
func complete(_ texts: [String]) -> [Got] {
    texts.enumerated().map { Got($0.offset + 1, $0.element) }
}

/// JSON-ish log lines of varying length, so line ends fall all over compressed blocks and chunks.
func sampleLines(_ count: Int, from first: Int = 1) -> [String] {
    (first..<(first + count)).map { i in
        #"{"seq":\#(i),"event":"didEnterBackground","task":"refresh-\#(i % 7)","pad":"\#(String(repeating: "x", count: i % 23))"}"#
    }
}

func joined(_ lines: [String]) -> String { lines.map { $0 + "\n" }.joined() }
