import Foundation
import Testing
@testable import TraceRead

@Suite struct GzipReadingTests {
    @Test func singleMember() throws {
        let scratch = try Scratch()
        let texts = sampleLines(1000)
        let path = try scratch.write("a.gz", try scratch.compress(joined(texts), with: "gzip", name: "a.jsonl"))
        let (lines, reader) = try readAll(path)
        #expect(reader.compression == .gzip)
        #expect(lines == complete(texts))
        #expect(reader.cut == nil)
        #expect(reader.decompressedBytes == joined(texts).utf8.count)
    }

    @Test func multipleMembersYieldAllLinesInOrder() throws {
        let scratch = try Scratch()
        let first = sampleLines(30)
        let second = sampleLines(30, from: 31)
        // The first member ends mid-line; the next member finishes it.
        let a = try scratch.compress(joined(first) + "split ", with: "gzip", name: "a.jsonl")
        let b = try scratch.compress("line\n" + joined(second), with: "gzip", name: "b.jsonl")
        let path = try scratch.write("ab.gz", a + b)
        let (lines, reader) = try readAll(path)
        #expect(lines == complete(first + ["split line"] + second))
        #expect(reader.cut == nil)
        #expect(reader.compressedBytesRead == a.count + b.count)
    }

    @Test(arguments: [0, 25, 50, 75, 99])
    func truncatedKeepsCompleteLinesBeforeTheCut(percent: Int) throws {
        let scratch = try Scratch()
        let texts = sampleLines(20_000)
        let compressed = try scratch.compress(joined(texts), with: "gzip", name: "a.jsonl")
        #expect(compressed.count > 100_000)
        let end = max(5, compressed.count * percent / 100)
        let path = try scratch.write("cut.gz", compressed[..<end])
        let (lines, reader) = try readAll(path)
        let whole = lines.filter { $0.kind == .complete }
        #expect(whole == complete(Array(texts.prefix(whole.count))))
        if percent >= 50 { #expect(whole.count > 5_000) }
        #expect(whole.count < texts.count)
        if let last = lines.last, last.kind == .cutShort {
            #expect(last.number == whole.count + 1)
            #expect(texts[whole.count].hasPrefix(last.text))
        }
        let cut = try #require(reader.cut)
        #expect(cut.compressedOffset == end)
        #expect(cut.afterLine == whole.count)
        #expect(cut.reason == "gzip member starting at byte 0 cut short at byte \(end): input ended mid-member")
    }

    @Test func truncatedSecondMemberKeepsTheFirst() throws {
        let scratch = try Scratch()
        let first = sampleLines(30)
        let a = try scratch.compress(joined(first), with: "gzip", name: "a.jsonl")
        let b = try scratch.compress(joined(sampleLines(3000, from: 31)), with: "gzip", name: "b.jsonl")
        let end = a.count + b.count / 2
        let path = try scratch.write("cut.gz", (a + b)[..<end])
        let (lines, reader) = try readAll(path)
        #expect(Array(lines.prefix(30)) == complete(first))
        #expect(lines.count > 30)
        let cut = try #require(reader.cut)
        #expect(cut.reason == "gzip member starting at byte \(a.count) cut short at byte \(end): input ended mid-member")
    }

    @Test func corruptDataSetsCutWithZlibsMessage() throws {
        let scratch = try Scratch()
        let texts = sampleLines(20_000)
        var bytes = try scratch.compress(joined(texts), with: "gzip", name: "a.jsonl")
        for i in stride(from: bytes.count / 2, to: bytes.count / 2 + 64, by: 3) { bytes[i] ^= 0x5A }
        let path = try scratch.write("bad.gz", bytes)
        let (lines, reader) = try readAll(path)
        let cut = try #require(reader.cut)
        #expect(cut.reason.hasPrefix("gzip: "))
        #expect(cut.reason.contains(" at byte \(cut.compressedOffset)"))
        #expect(cut.compressedOffset > bytes.count / 2)
        #expect(Array(lines.prefix(1000)) == complete(Array(texts.prefix(1000))))
    }

    @Test func garbageAfterAMemberIsCorruption() throws {
        let scratch = try Scratch()
        let a = try scratch.compress("one\ntwo\n", with: "gzip", name: "a.jsonl")
        let path = try scratch.write("junk.gz", a + Array("not gzip".utf8))
        let (lines, reader) = try readAll(path)
        #expect(lines == complete(["one", "two"]))
        let cut = try #require(reader.cut)
        #expect(cut.reason.hasPrefix("gzip: incorrect header check at byte "))
        #expect(cut.afterLine == 2)
    }
}
