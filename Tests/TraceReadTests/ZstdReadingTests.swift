import Foundation
import Testing
@testable import TraceRead
import TraceModel

@Suite struct ZstdReadingTests {
    /// Five separately compressed frames whose boundaries fall mid-line, and where they start.
    struct Frames {
        let texts = sampleLines(60)
        var bytes: [UInt8] = []
        var starts: [Int] = []
        /// Decompressed length of each frame's content.
        var contentEnds: [Int] = []

        init(_ scratch: Scratch) throws {
            let text = Array(joined(texts).utf8)
            let cuts = [0, 700, 1500, 2900, 4000, text.count]
            for i in 0..<5 {
                starts.append(bytes.count)
                let part = String(decoding: text[cuts[i]..<cuts[i + 1]], as: UTF8.self)
                bytes += try scratch.compress(part, with: "zstd", name: "part\(i)")
                contentEnds.append(cuts[i + 1])
            }
        }

        /// The complete lines of the frames before `frame`, and whether they end inside a line.
        func expected(throughFrame frame: Int) -> (lines: [Got], endsMidLine: Bool) {
            let decoded = Array(joined(texts).utf8)[..<(frame == 0 ? 0 : contentEnds[frame - 1])]
            var lines = decoded.split(separator: 0x0A, omittingEmptySubsequences: false).map {
                String(decoding: $0, as: UTF8.self)
            }
            let tail = lines.removeLast()
            return (complete(lines), !tail.isEmpty)
        }
    }

    @Test func singleFrame() throws {
        try CompressedStream.expectReadsWhole(.zstd)
    }

    @Test func concatenatedFramesYieldAllLinesInOrder() throws {
        let scratch = try Scratch()
        let first = sampleLines(40)
        let second = sampleLines(25, from: 41)
        try scratch.write("a.jsonl", joined(first))
        try scratch.write("b.jsonl", joined(second))
        try run("zstd", ["-q", scratch.path("a.jsonl"), scratch.path("b.jsonl")])
        try run("sh", ["-c", "cat '\(scratch.path("a.jsonl.zst"))' '\(scratch.path("b.jsonl.zst"))' > '\(scratch.path("ab.zst"))'"])
        let (lines, reader) = try readAll(scratch.path("ab.zst"))
        #expect(lines == complete(first + second))
        #expect(reader.cut == nil)
    }

    @Test func framesSplittingLinesJoinThem() throws {
        let scratch = try Scratch()
        let frames = try Frames(scratch)
        let path = try scratch.write("frames.zst", frames.bytes)
        let (lines, reader) = try readAll(path)
        #expect(lines == complete(frames.texts))
        #expect(reader.cut == nil)
    }

    @Test func skippableFramesAreIgnored() throws {
        let scratch = try Scratch()
        func skippable(_ payload: [UInt8]) -> [UInt8] {
            let size = UInt32(payload.count)
            return [0x5A, 0x2A, 0x4D, 0x18] + (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) } + payload
        }
        let bytes =
            skippable(Array("metadata\n".utf8))
            + (try scratch.compress("one\ntwo\n", with: "zstd", name: "a"))
            + skippable([])
            + (try scratch.compress("three\n", with: "zstd", name: "b"))
            + skippable([1, 2, 3])
        let path = try scratch.write("s.zst", bytes)
        let (lines, reader) = try readAll(path)
        #expect(reader.compression == .zstd)
        #expect(lines == complete(["one", "two", "three"]))
        #expect(reader.cut == nil)
    }

    /// Cutting inside frame k keeps exactly the complete lines frames before it hold, counts
    /// the line it interrupts as lost, and names the cut frame's byte range.
    @Test(arguments: [1, 2, 3, 4])
    func truncatedInsideAFrame(frame: Int) throws {
        let scratch = try Scratch()
        let frames = try Frames(scratch)
        let end = frames.starts[frame] + 12
        let path = try scratch.write("cut.zst", frames.bytes[..<end])
        let (lines, reader) = try readAll(path)
        let expected = frames.expected(throughFrame: frame)
        #expect(lines == expected.lines)
        let cut = try #require(reader.cut)
        #expect(cut.from == frames.starts[frame] && cut.to == end)
        #expect(cut.afterLine == expected.lines.count)
        #expect(cut.lines == (expected.endsMidLine ? 1 : 0))
        #expect(cut.reason == "zstd frame starting at byte \(frames.starts[frame]) cut short at byte \(end): input ended mid-frame")
    }

    @Test func truncatedExactlyBetweenFramesEndsCleanly() throws {
        let scratch = try Scratch()
        let frames = try Frames(scratch)
        let path = try scratch.write("cut.zst", frames.bytes[..<frames.starts[2]])
        let (lines, reader) = try readAll(path)
        let expected = frames.expected(throughFrame: 2)
        // Nothing marks the stream as unfinished, so the tail is an ordinary last line.
        #expect(expected.endsMidLine)
        #expect(lines.dropLast() == expected.lines[...])
        #expect(lines.last?.kind == .complete)
        #expect(reader.damage.isEmpty)
    }

    /// A partial line at a cut is counted as lost whatever its length, whether it was being
    /// buffered (under `maxLineBytes`) or skipped (over it).
    @Test(arguments: [1 << 20, 64])
    func aLongLineCutShortIsLost(maxLineBytes: Int) throws {
        let scratch = try Scratch()
        let long = (0..<10_000).map { String($0 % 10) }.joined()
        let first = try scratch.compress("one\n" + long, with: "zstd", name: "a")
        let second = try scratch.compress("rest of it\nnext\n", with: "zstd", name: "b")
        // Inside the second frame's header.
        let end = first.count + 5
        let path = try scratch.write("cut.zst", (first + second)[..<end])
        let (lines, reader) = try readAll(path, maxLineBytes: maxLineBytes, chunkSize: 3000)
        #expect(lines == [Got(1, "one")])
        #expect(reader.damage == [StreamDamage(
            kind: .cut, from: first.count, to: end, lines: 1, exact: false, afterLine: 1,
            reason: "zstd frame starting at byte \(first.count) cut short at byte \(end): input ended mid-frame")])
    }

    /// A big single frame holds many blocks; any cut keeps a correct prefix of the lines.
    @Test(arguments: [0, 25, 50, 75, 99])
    func largeFrameTruncatedKeepsCompleteLinesBeforeTheCut(percent: Int) throws {
        let (cut, end) = try CompressedStream.readTruncated(
            .zstd, lines: 40_000, percent: percent, minimumEnd: 9, wholeLinesPastHalf: 10_000)
        #expect(cut.reason.hasSuffix("cut short at byte \(end): input ended mid-frame"))
    }

    @Test func aCorruptFrameHeaderLosesThatFrameAndReadsOnAfterIt() throws {
        let scratch = try Scratch()
        let frames = try Frames(scratch)
        var bytes = frames.bytes
        bytes[frames.starts[3]] ^= 0xFF
        let path = try scratch.write("bad.zst", bytes)
        let (lines, reader) = try readAll(path, hashing: true)
        let before = frames.expected(throughFrame: 3).lines
        #expect(Array(lines.prefix(before.count)) == before)
        let damage = try #require(reader.damage.first)
        #expect(reader.damage.count == 1)
        #expect(damage.from == frames.starts[3] && damage.to == frames.starts[4])
        #expect(damage.reason == "zstd frame starting at byte \(frames.starts[3]) is damaged: Unknown frame descriptor")
        // Nothing of frame 3 was decoded: only the line it interrupts is known lost.
        #expect(damage.lines == 1 && damage.afterLine == before.count)
        // Frame 4 is read: its first piece (the end of a line begun in frame 3) is delivered for
        // the decoder to judge, and every line after it whole. (Their numbers are lower than in
        // the intact file by the lines frame 3 held, which could not be counted.)
        let after = lines.dropFirst(before.count)
        #expect(after.dropFirst().map(\.text) == Array(frames.texts.suffix(after.count - 1)))
        #expect(after.first.map { piece in frames.texts.contains { $0.hasSuffix(piece.text) } } == true)
        // The hash covers the whole file.
        #expect(reader.compressedBytesRead == bytes.count)
        #expect(reader.sha256 == String(try run("sha256sum", [path]).prefix(64)))
    }

    @Test func aSingleFrameWithCorruptBytesDeliversNothing() throws {
        let damage = try CompressedStream.readCorrupted(.zstd, lines: 40_000)
        #expect(damage.reason.hasPrefix("zstd frame starting at byte 0 is damaged: "))
    }
}
