import Foundation
import Testing
@testable import TraceRead
import TraceModel

@Suite struct GzipReadingTests {
    @Test func singleMember() throws {
        try CompressedStream.expectReadsWhole(.gzip)
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
        let (cut, end) = try CompressedStream.readTruncated(
            .gzip, lines: 20_000, percent: percent, minimumEnd: 5, wholeLinesPastHalf: 5_000)
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

    @Test func aCorruptMemberDeliversNothingAndNamesZlibsMessage() throws {
        let damage = try CompressedStream.readCorrupted(.gzip, lines: 20_000)
        #expect(damage.reason.hasPrefix("gzip member starting at byte 0 is damaged: "))
    }

    @Test func garbageAfterAMemberIsCorruption() throws {
        let scratch = try Scratch()
        let a = try scratch.compress("one\ntwo\n", with: "gzip", name: "a.jsonl")
        let path = try scratch.write("junk.gz", a + Array("not gzip".utf8))
        let (lines, reader) = try readAll(path)
        #expect(lines == complete(["one", "two"]))
        #expect(reader.cut == nil)
        #expect(reader.damage == [StreamDamage(
            kind: .corrupt, from: a.count, to: a.count + 8, lines: 0, exact: false, afterLine: 2,
            reason: "gzip member starting at byte \(a.count) is damaged: incorrect header check")])
    }
}
