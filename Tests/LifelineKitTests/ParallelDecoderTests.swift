import Foundation
import Testing
import TraceDecode
import TraceModel
import TraceRead
@testable import LifelineKit

/// The parallel decoder must deliver exactly what one thread reading and decoding in turn
/// delivers — every line, in order, with the same number and result — whatever the number of
/// workers, however the lines fall into blocks, and however the input ends.
@Suite struct ParallelDecoderTests {
    /// A line as delivered, comparable.
    private enum Seen: Hashable {
        case decoded(Int, DecodeResult)
        case tooLong(Int, Int)
        /// Damaged input before the next line.
        case damaged
    }

    /// Several blocks' worth of lines: events, blank lines, lines that are not JSON, a line too
    /// long for the reader's cap, and a block-sized run of events between them.
    private static func mixedLines() -> [String] {
        var lines: [String] = []
        for index in 0 ..< 3 * ParallelDecoder.blockLines + 77 {
            switch index % 97 {
            case 5: lines.append("")
            case 11: lines.append("   ")
            case 23: lines.append("{\"ts\": not json")
            case 31: lines.append(#"{"device":"D","launch":"L","event":"snapshot"}"#)
            default:
                lines.append(#"{"ts":\#(1_763_712_000 + index),"device":"D\#(index % 7)","launch":"L","seq":\#(index),"event":"snapshot"}"#)
            }
        }
        lines[1000] = "{\"pad\":\"" + String(repeating: "x", count: 5000) + "\"}"
        return lines
    }

    private static let maxLineBytes = 4096

    private func serial(_ path: String) throws -> (lines: [Seen], cut: StreamDamage?) {
        let reader = try LineReader(path: path, maxLineBytes: Self.maxLineBytes)
        var decoder = EventDecoder()
        var seen: [Seen] = []
        var damage = 0
        try reader.forEachLine { line in
            if reader.damage.count > damage {
                damage = reader.damage.count
                seen.append(.damaged)
            }
            switch line.kind {
            case .complete: seen.append(.decoded(line.number, decoder.decode(line.bytes)))
            case .tooLong(let bytes): seen.append(.tooLong(line.number, bytes))
            }
            return true
        }
        return (seen, reader.cut)
    }

    private func parallel(_ path: String, workers: Int, stopAfter limit: Int = .max) throws -> (lines: [Seen], cut: StreamDamage?) {
        let reader = try LineReader(path: path, maxLineBytes: Self.maxLineBytes)
        var seen: [Seen] = []
        try ParallelDecoder.forEachLine(of: reader, workers: workers) { line in
            switch line {
            case .decoded(let number, let result): seen.append(.decoded(number, result))
            case .tooLong(let number, let bytes): seen.append(.tooLong(number, bytes))
            case .damaged: seen.append(.damaged)
            }
            return seen.count < limit
        }
        return (seen, reader.cut)
    }

    @Test(arguments: [1, 2, 5])
    func deliversWhatOneThreadDelivers(workers: Int) throws {
        let workspace = try Workspace()
        let path = try workspace.write("mixed.jsonl", lines: Self.mixedLines())
        let expected = try serial(path)
        let got = try parallel(path, workers: workers)
        #expect(expected.lines.count == Self.mixedLines().count)
        #expect(expected.lines.contains { if case .tooLong = $0 { true } else { false } })
        #expect(got.lines == expected.lines)
        #expect(got.cut == nil)
    }

    @Test func aCutFileEndsWhereOneThreadEnds() throws {
        let workspace = try Workspace()
        let path = try workspace.write("cut.jsonl", lines: Self.mixedLines())
        try shell("zstd -q -f '\(path)' -o '\(path).zst'")
        let data = try Data(contentsOf: URL(fileURLWithPath: path + ".zst"))
        try data.prefix(data.count * 2 / 3).write(to: URL(fileURLWithPath: path + ".zst"))
        let expected = try serial(path + ".zst")
        let got = try parallel(path + ".zst", workers: 2)
        #expect(expected.cut != nil)
        #expect(got.cut == expected.cut)
        #expect(got.lines == expected.lines)
    }

    /// A damaged frame between two good ones: the marker comes where one thread would see the
    /// damage, before the first line read after it.
    @Test func damageInsideTheStreamIsMarkedBeforeTheNextLine() throws {
        let workspace = try Workspace()
        let first = try workspace.write("a.jsonl", lines: Array(Self.mixedLines().prefix(300)))
        let second = try workspace.write("b.jsonl", lines: Array(Self.mixedLines().suffix(200)))
        try shell("zstd -q -f '\(first)' -o '\(first).zst' && zstd -q -f '\(second)' -o '\(second).zst'")
        let whole = try Data(contentsOf: URL(fileURLWithPath: first + ".zst"))
        var bytes = whole + whole + (try Data(contentsOf: URL(fileURLWithPath: second + ".zst")))
        bytes[whole.count + whole.count / 2] ^= 0xFF
        let path = workspace.path("damaged.jsonl.zst")
        try bytes.write(to: URL(fileURLWithPath: path))
        let expected = try serial(path)
        #expect(expected.lines.filter { $0 == .damaged }.count == 1)
        #expect(expected.lines.firstIndex(of: .damaged) == 300)
        #expect(try parallel(path, workers: 2).lines == expected.lines)
    }

    @Test func stopsWhenAskedAndReturns() throws {
        let workspace = try Workspace()
        let path = try workspace.write("mixed.jsonl", lines: Self.mixedLines())
        let expected = try serial(path)
        let got = try parallel(path, workers: 2, stopAfter: 5000)
        #expect(got.lines == Array(expected.lines.prefix(5000)))
    }

    @Test func anEmptyInputDeliversNothing() throws {
        let workspace = try Workspace()
        let path = try workspace.write("empty.jsonl", lines: [], trailingNewline: false)
        #expect(try parallel(path, workers: 2).lines.isEmpty)
    }
}
