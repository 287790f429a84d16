import Foundation
import Testing
@testable import TraceRead
import TraceModel

/// What the gzip and zstd reading tests check alike, on one stream (a gzip member, a zstd frame)
/// of sample lines compressed by the command-line tool of the same name: read whole, cut short,
/// or damaged. The format's own wording of a cut is left to each test.
enum CompressedStream {
    /// The file name suffix of the tool's output.
    static func suffix(_ compression: Compression) -> String { compression == .zstd ? "zst" : "gz" }

    /// `count` sample lines and their compressed bytes.
    static func sample(_ scratch: Scratch, lines count: Int, as compression: Compression) throws -> (texts: [String], bytes: [UInt8]) {
        let texts = sampleLines(count)
        return (texts, try scratch.compress(joined(texts), with: compression.rawValue, name: "a.jsonl"))
    }

    /// A stream of 1000 lines reads whole: every line, as `compression`, no cut, all its bytes.
    static func expectReadsWhole(
        _ compression: Compression, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let scratch = try Scratch()
        let (texts, bytes) = try sample(scratch, lines: 1000, as: compression)
        let (lines, reader) = try readAll(try scratch.write("a.\(suffix(compression))", bytes))
        #expect(reader.compression == compression, sourceLocation: sourceLocation)
        #expect(lines == complete(texts), sourceLocation: sourceLocation)
        #expect(reader.cut == nil, sourceLocation: sourceLocation)
        #expect(reader.decompressedBytes == joined(texts).utf8.count, sourceLocation: sourceLocation)
    }

    /// A stream of `count` lines (over 100 kB compressed) cut at `percent` % of its bytes, but
    /// not before `minimumEnd`, keeps exactly the complete lines before the cut (more than
    /// `wholeLinesPastHalf` from half the bytes on), delivers a line cut short only as a prefix
    /// of the next, and reports the cut at the end offset after the last whole line.
    /// Returns the cut and its offset.
    static func readTruncated(
        _ compression: Compression, lines count: Int, percent: Int, minimumEnd: Int, wholeLinesPastHalf: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (cut: StreamCut, end: Int) {
        let scratch = try Scratch()
        let (texts, compressed) = try sample(scratch, lines: count, as: compression)
        #expect(compressed.count > 100_000, sourceLocation: sourceLocation)
        let end = max(minimumEnd, compressed.count * percent / 100)
        let (lines, reader) = try readAll(try scratch.write("cut.\(suffix(compression))", compressed[..<end]))
        let whole = lines.filter { $0.kind == .complete }
        #expect(whole == complete(Array(texts.prefix(whole.count))), sourceLocation: sourceLocation)
        if percent >= 50 { #expect(whole.count > wholeLinesPastHalf, sourceLocation: sourceLocation) }
        #expect(whole.count < texts.count, sourceLocation: sourceLocation)
        if let last = lines.last, last.kind == .cutShort {
            #expect(last.number == whole.count + 1, sourceLocation: sourceLocation)
            #expect(texts[whole.count].hasPrefix(last.text), sourceLocation: sourceLocation)
        }
        let cut = try #require(reader.cut, sourceLocation: sourceLocation)
        #expect(cut.compressedOffset == end, sourceLocation: sourceLocation)
        #expect(cut.afterLine == whole.count, sourceLocation: sourceLocation)
        return (cut, end)
    }

    /// A stream of `count` lines with bytes flipped over 64 bytes from its middle keeps its first
    /// 1000 lines and reports a cut. Returns the lines, the cut and the stream's size.
    static func readCorrupted(
        _ compression: Compression, lines count: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (lines: [Got], cut: StreamCut, size: Int) {
        let scratch = try Scratch()
        let (texts, compressed) = try sample(scratch, lines: count, as: compression)
        var bytes = compressed
        for i in stride(from: bytes.count / 2, to: bytes.count / 2 + 64, by: 3) { bytes[i] ^= 0x5A }
        let (lines, reader) = try readAll(try scratch.write("bad.\(suffix(compression))", bytes))
        let cut = try #require(reader.cut, sourceLocation: sourceLocation)
        #expect(Array(lines.prefix(1000)) == complete(Array(texts.prefix(1000))), sourceLocation: sourceLocation)
        return (lines, cut, bytes.count)
    }
}
