import Foundation
import Testing
@testable import TraceRead

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

        /// What a reader must deliver when only frames before `frame` decode.
        func expected(throughFrame frame: Int) -> [Got] {
            let decoded = Array(joined(texts).utf8)[..<(frame == 0 ? 0 : contentEnds[frame - 1])]
            var lines = decoded.split(separator: 0x0A, omittingEmptySubsequences: false).map {
                String(decoding: $0, as: UTF8.self)
            }
            let tail = lines.removeLast()
            var result = complete(lines)
            if !tail.isEmpty { result.append(Got(lines.count + 1, tail, .cutShort)) }
            return result
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

    /// Cutting inside frame k keeps exactly what frames before it hold, and names the offset.
    @Test(arguments: [1, 2, 3, 4])
    func truncatedInsideAFrame(frame: Int) throws {
        let scratch = try Scratch()
        let frames = try Frames(scratch)
        let end = frames.starts[frame] + 12
        let path = try scratch.write("cut.zst", frames.bytes[..<end])
        let (lines, reader) = try readAll(path)
        let expected = frames.expected(throughFrame: frame)
        #expect(lines == expected)
        let cut = try #require(reader.cut)
        #expect(cut.compressedOffset == end)
        #expect(cut.afterLine == expected.filter { $0.kind == .complete }.count)
        #expect(cut.reason == "zstd frame starting at byte \(frames.starts[frame]) cut short at byte \(end): input ended mid-frame")
    }

    @Test func truncatedExactlyBetweenFramesEndsCleanly() throws {
        let scratch = try Scratch()
        let frames = try Frames(scratch)
        let path = try scratch.write("cut.zst", frames.bytes[..<frames.starts[2]])
        let (lines, reader) = try readAll(path)
        let expected = frames.expected(throughFrame: 2)
        // Nothing marks the stream as unfinished, so the tail is an ordinary last line.
        #expect(lines.map(\.text) == expected.map(\.text))
        #expect(lines.last?.kind == .complete)
        #expect(reader.cut == nil)
    }

    /// A partial line over 4 KiB is cut to its prefix but still reports its real length,
    /// whether it was being buffered (under `maxLineBytes`) or skipped (over it).
    @Test(arguments: [1 << 20, 64])
    func longCutShortLineKeepsPrefixAndLength(maxLineBytes: Int) throws {
        let scratch = try Scratch()
        let long = (0..<10_000).map { String($0 % 10) }.joined()
        let first = try scratch.compress("one\n" + long, with: "zstd", name: "a")
        let second = try scratch.compress("rest of it\nnext\n", with: "zstd", name: "b")
        // Inside the second frame's header: small frames are stored raw, and raw bytes stream.
        let end = first.count + 5
        let path = try scratch.write("cut.zst", (first + second)[..<end])
        let (lines, reader) = try readAll(path, maxLineBytes: maxLineBytes, chunkSize: 3000)
        #expect(lines == [Got(1, "one"), Got(2, String(long.prefix(Line.prefixLimit)), .cutShort, totalBytes: 10_000)])
        #expect(reader.cut?.afterLine == 1)
        #expect(reader.cut?.compressedOffset == end)
    }

    /// A big single frame holds many blocks; any cut keeps a correct prefix of the lines.
    @Test(arguments: [0, 25, 50, 75, 99])
    func largeFrameTruncatedKeepsCompleteLinesBeforeTheCut(percent: Int) throws {
        let (cut, end) = try CompressedStream.readTruncated(
            .zstd, lines: 40_000, percent: percent, minimumEnd: 9, wholeLinesPastHalf: 10_000)
        #expect(cut.reason.hasSuffix("cut short at byte \(end): input ended mid-frame"))
    }

    @Test func corruptFrameHeaderStopsAfterTheFramesBeforeIt() throws {
        let scratch = try Scratch()
        let frames = try Frames(scratch)
        var bytes = frames.bytes
        bytes[frames.starts[3]] ^= 0xFF
        let path = try scratch.write("bad.zst", bytes)
        let (lines, reader) = try readAll(path, hashing: true)
        #expect(lines == frames.expected(throughFrame: 3))
        let cut = try #require(reader.cut)
        #expect(cut.reason == "zstd: Unknown frame descriptor at or after byte \(cut.compressedOffset)")
        #expect((frames.starts[3]...frames.starts[3] + 8).contains(cut.compressedOffset))
        // The hash still covers the whole file, past the damage.
        #expect(reader.compressedBytesRead == bytes.count)
        #expect(reader.sha256 == String(try run("sha256sum", [path]).prefix(64)))
    }

    @Test func corruptBytesMidStreamSetCutWithTheLibraryError() throws {
        let (lines, cut, size) = try CompressedStream.readCorrupted(.zstd, lines: 40_000)
        #expect(cut.reason.hasPrefix("zstd: "))
        #expect(cut.reason.hasSuffix(" at or after byte \(cut.compressedOffset)"))
        #expect(cut.compressedOffset > 0 && cut.compressedOffset <= size / 2)
        #expect(cut.afterLine == lines.filter { $0.kind != .cutShort }.count)
    }
}
