import Foundation
import Testing
@testable import TraceRead

@Suite struct PlainReadingTests {
    @Test func linesWithTrailingNewline() throws {
        let scratch = try Scratch()
        let path = try scratch.write("a.jsonl", "{\"a\":1}\n{\"b\":2}\n")
        let (lines, reader) = try readAll(path)
        #expect(lines == complete(["{\"a\":1}", "{\"b\":2}"]))
        #expect(reader.compression == .none)
        #expect(reader.cut == nil)
        #expect(reader.compressedBytesRead == 16)
        #expect(reader.decompressedBytes == 16)
    }

    @Test func lastLineWithoutNewlineIsComplete() throws {
        let scratch = try Scratch()
        let path = try scratch.write("a.jsonl", "one\ntwo\nthree")
        let (lines, reader) = try readAll(path)
        #expect(lines == complete(["one", "two", "three"]))
        #expect(reader.cut == nil)
    }

    @Test func carriageReturnsAreStripped() throws {
        let scratch = try Scratch()
        let path = try scratch.write("a.jsonl", "one\r\ntwo\r\n\r\nlast\r")
        let (lines, _) = try readAll(path)
        #expect(lines == complete(["one", "two", "", "last"]))
    }

    @Test func blankLinesAreDeliveredAndNumbered() throws {
        let scratch = try Scratch()
        let path = try scratch.write("a.jsonl", "\nx\n\n  \ny\n")
        let (lines, _) = try readAll(path)
        #expect(lines == complete(["", "x", "", "  ", "y"]))
    }

    @Test func emptyFileHasNoLines() throws {
        let scratch = try Scratch()
        let path = try scratch.write("empty.jsonl", "")
        let (lines, reader) = try readAll(path)
        #expect(lines.isEmpty)
        #expect(reader.compression == .none)
        #expect(reader.cut == nil)
        #expect(reader.compressedBytesRead == 0)
    }

    @Test func returningFalseStopsEarly() throws {
        let scratch = try Scratch()
        let path = try scratch.write("a.jsonl", joined(sampleLines(10)))
        let reader = try LineReader(path: path)
        var numbers: [Int] = []
        try reader.forEachLine { line in
            numbers.append(line.number)
            return line.number < 3
        }
        #expect(numbers == [1, 2, 3])
        #expect(reader.cut == nil)
        var again = 0
        try reader.forEachLine { _ in again += 1; return true }
        #expect(again == 0)
    }

    @Test func formatComesFromMagicBytesNotName() throws {
        let scratch = try Scratch()
        let zstd = try scratch.compress("hidden\n", with: "zstd", name: "z")
        let gzip = try scratch.compress("tucked\n", with: "gzip", name: "g")
        let zstdPath = try scratch.write("looks-plain.jsonl", zstd)
        let gzipPath = try scratch.write("looks-zstd.jsonl.zst", gzip)
        let plainPath = try scratch.write("looks-gzip.jsonl.gz", "plain\n")
        #expect(try readAll(zstdPath).reader.compression == .zstd)
        #expect(try readAll(zstdPath).lines == complete(["hidden"]))
        #expect(try readAll(gzipPath).reader.compression == .gzip)
        #expect(try readAll(gzipPath).lines == complete(["tucked"]))
        #expect(try readAll(plainPath).reader.compression == .none)
        #expect(try readAll(plainPath).lines == complete(["plain"]))
    }
}
