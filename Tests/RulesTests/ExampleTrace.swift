import Foundation
import Replay
import TraceDecode
import TraceModel

/// A rule example turned into events, with the events marked `↓` where findings must land.
struct ExampleTrace {
    var events: [Event] = []
    /// Indexes into `events` of the marked lines.
    var marked: [Int] = []

    /// Parses an example: one JSON object per line; `device` defaults to "D", `launch` to
    /// "L1", and a leading `↓` marks the line.
    init(_ example: Example) throws {
        var decoder = EventDecoder()
        for rawLine in example.trace.split(separator: "\n") {
            var line = rawLine.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else { continue }
            let isMarked = line.hasPrefix("↓")
            if isMarked { line = String(line.dropFirst()).trimmingCharacters(in: .whitespaces) }
            if !line.contains("\"device\":") { line = "{\"device\":\"D\"," + line.dropFirst() }
            if !line.contains("\"launch\":") { line = "{\"launch\":\"L1\"," + line.dropFirst() }
            var bytes = Array(line.utf8)
            let result = bytes.withUnsafeMutableBytes { decoder.decode(UnsafeRawBufferPointer($0)) }
            guard case .event(let event) = result else {
                throw ExampleError(line: line, result: "\(result)")
            }
            if isMarked { marked.append(events.count) }
            events.append(event)
        }
    }

    struct ExampleError: Error, CustomStringConvertible {
        var line: String
        var result: String
        var description: String { "example line does not decode: \(line) → \(result)" }
    }
}
