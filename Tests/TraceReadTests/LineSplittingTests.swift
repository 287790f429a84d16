import Foundation
import Testing
@testable import TraceRead

@Suite struct LineSplittingTests {
    /// Tiny chunks put every line, and a `\r` before its `\n`, across chunk boundaries.
    @Test(arguments: [4, 5, 7, 16, 61])
    func linesStraddlingChunksArriveWhole(chunkSize: Int) throws {
        let scratch = try Scratch()
        let texts = ["a", "", "a somewhat longer line of text", "bc", String(repeating: "z", count: 130), "end"]
        let path = try scratch.write("a.jsonl", texts.map { $0 + "\r\n" }.joined())
        let (lines, reader) = try readAll(path, chunkSize: chunkSize)
        #expect(lines == complete(texts))
        #expect(reader.cut == nil)
    }

    @Test func lineOverTheLimitIsReportedWithItsPrefixAndReadingGoesOn() throws {
        let scratch = try Scratch()
        let long = String(repeating: "L", count: 200)
        let exact = String(repeating: "b", count: 64)
        let over = String(repeating: "c", count: 65)
        let path = try scratch.write("a.jsonl", joined(["short", long, "after", exact, over, "end"]))
        for chunkSize in [7, 50, 1 << 20] {
            let (lines, _) = try readAll(path, maxLineBytes: 64, chunkSize: chunkSize)
            #expect(
                lines == [
                    Got(1, "short"), Got(2, long, .tooLong(totalBytes: 200)), Got(3, "after"),
                    Got(4, exact), Got(5, over, .tooLong(totalBytes: 65)), Got(6, "end"),
                ], "chunk size \(chunkSize)")
        }
    }

    @Test func overLongLineKeepsOnlyItsFirstFourKiB() throws {
        let scratch = try Scratch()
        let digits = (0..<10_000).map { String($0 % 10) }.joined()
        let path = try scratch.write("a.jsonl", "first\n" + digits + "\nnext\n")
        for chunkSize in [1000, 5000, 1 << 20] {
            let (lines, _) = try readAll(path, maxLineBytes: 64, chunkSize: chunkSize)
            #expect(
                lines == [
                    Got(1, "first"), Got(2, String(digits.prefix(Line.prefixLimit)), .tooLong(totalBytes: 10_000)),
                    Got(3, "next"),
                ], "chunk size \(chunkSize)")
        }
    }

    @Test func overLongLastLineWithoutNewline() throws {
        let scratch = try Scratch()
        let path = try scratch.write("a.jsonl", "ok\n" + String(repeating: "q", count: 100))
        let (lines, reader) = try readAll(path, maxLineBytes: 64, chunkSize: 16)
        #expect(lines == [Got(1, "ok"), Got(2, String(repeating: "q", count: 100), .tooLong(totalBytes: 100))])
        #expect(reader.cut == nil)
    }

    /// A small decompression buffer makes the decoder fill it and be called again to flush.
    @Test(arguments: ["zstd", "gzip"])
    func compressedLinesThroughSmallBuffers(tool: String) throws {
        let scratch = try Scratch()
        let texts = sampleLines(300)
        let compressed = try scratch.compress(joined(texts), with: tool, name: "a.jsonl")
        let path = try scratch.write("b", compressed)
        for chunkSize in [5, 64, 4096] {
            let (lines, reader) = try readAll(path, chunkSize: chunkSize)
            #expect(lines == complete(texts), "chunk size \(chunkSize)")
            #expect(reader.cut == nil)
            #expect(reader.decompressedBytes == joined(texts).utf8.count)
            #expect(reader.compressedBytesRead == compressed.count)
        }
    }
}
