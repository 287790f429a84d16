import Foundation
import Replay
import TraceDecode
import TraceModel

/// A rule example turned into events, with the events marked `↓` where findings must land.
struct ExampleTrace {
    var events: [Event] = []
    /// Indexes into `events` of the marked lines.
    var marked: [Int] = []

    /// Decodes an example's lines, as ``Example/lines`` spells them out (complete trace lines,
    /// what `lifeline rules` prints and `check --stdin` reads).
    init(_ example: Example) throws {
        var decoder = EventDecoder()
        for line in example.lines {
            var bytes = Array(line.json.utf8)
            let result = bytes.withUnsafeMutableBytes { decoder.decode(UnsafeRawBufferPointer($0)) }
            guard case .event(let event) = result else {
                throw ExampleError(line: line.json, result: "\(result)")
            }
            if line.marked { marked.append(events.count) }
            events.append(event)
        }
    }

    struct ExampleError: Error, CustomStringConvertible {
        var line: String
        var result: String
        var description: String { "example line does not decode: \(line) → \(result)" }
    }
}
