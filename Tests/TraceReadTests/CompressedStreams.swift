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
    /// `wholeLinesPastHalf` from half the bytes on), counts the line it cut as lost, and reports
    /// the cut from the stream's start to its end offset, after the last whole line.
    /// Returns the cut and its offset.
    static func readTruncated(
        _ compression: Compression, lines count: Int, percent: Int, minimumEnd: Int, wholeLinesPastHalf: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (cut: StreamDamage, end: Int) {
        let scratch = try Scratch()
        let (texts, compressed) = try sample(scratch, lines: count, as: compression)
        #expect(compressed.count > 100_000, sourceLocation: sourceLocation)
        let end = max(minimumEnd, compressed.count * percent / 100)
        let (lines, reader) = try readAll(try scratch.write("cut.\(suffix(compression))", compressed[..<end]))
        #expect(lines == complete(Array(texts.prefix(lines.count))), sourceLocation: sourceLocation)
        if percent >= 50 { #expect(lines.count > wholeLinesPastHalf, sourceLocation: sourceLocation) }
        #expect(lines.count < texts.count, sourceLocation: sourceLocation)
        let cut = try #require(reader.cut, sourceLocation: sourceLocation)
        #expect(reader.damage == [cut], sourceLocation: sourceLocation)
        #expect(cut.from == 0 && cut.to == end, sourceLocation: sourceLocation)
        #expect(cut.afterLine == lines.count, sourceLocation: sourceLocation)
        #expect(cut.lines == (reader.decompressedBytes > joined(Array(texts.prefix(lines.count))).utf8.count ? 1 : 0),
                sourceLocation: sourceLocation)
        return (cut, end)
    }

    /// A single-frame stream of `count` lines with bytes flipped over 64 bytes from its middle
    /// delivers no line at all, and counts as lost the lines decoded before the failure (zlib
    /// may decode garbage past the damage first, so no upper bound), over the whole stream.
    /// Returns the damage.
    static func readCorrupted(
        _ compression: Compression, lines count: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> StreamDamage {
        let scratch = try Scratch()
        let (_, compressed) = try sample(scratch, lines: count, as: compression)
        var bytes = compressed
        for i in stride(from: bytes.count / 2, to: bytes.count / 2 + 64, by: 3) { bytes[i] ^= 0x5A }
        let (lines, reader) = try readAll(try scratch.write("bad.\(suffix(compression))", bytes))
        #expect(lines.isEmpty, sourceLocation: sourceLocation)
        #expect(reader.cut == nil, sourceLocation: sourceLocation)
        let damage = try #require(reader.damage.first, sourceLocation: sourceLocation)
        #expect(reader.damage.count == 1, sourceLocation: sourceLocation)
        #expect(damage.kind == .corrupt && damage.from == 0 && damage.to == bytes.count, sourceLocation: sourceLocation)
        #expect(damage.lines > 0, sourceLocation: sourceLocation)
        #expect(reader.lineCount == damage.lines, sourceLocation: sourceLocation)
        return damage
    }
}
