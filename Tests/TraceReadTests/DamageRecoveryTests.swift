import Foundation
import Testing
import TraceModel
@testable import TraceRead

/// Damaged frames and members are never delivered, their lines are counted as lost with the
/// damage's byte range, and reading resumes at the next intact frame or member.
@Suite struct DamageRecoveryTests {
    /// Three gzip members of 30 lines; the middle one's stored CRC32 or length altered, so zlib
    /// decodes all of it and only its trailer check fails. Only a wrong length leaves the count
    /// exact: the content matched its CRC-32. A CRC that does not match may be the content's
    /// fault, whose newlines cannot be trusted (the next test).
    @Test(arguments: [8, 4])
    func aGzipMemberFailingItsCRCOrLengthIsLostAndTheNextOnesKept(trailerOffset: Int) throws {
        let scratch = try Scratch()
        let texts = sampleLines(90)
        let members = try (0..<3).map { i in
            try scratch.compress(joined(Array(texts[(i * 30)..<(i * 30 + 30)])), with: "gzip", name: "m\(i)")
        }
        var bytes = members.joined().map { $0 }
        let secondEnd = members[0].count + members[1].count
        bytes[secondEnd - trailerOffset] ^= 0x01
        let (lines, reader) = try readAll(try scratch.write("crc.gz", bytes))
        #expect(lines == complete(Array(texts[..<30])) + complete(texts).suffix(30))
        let reason = trailerOffset == 8 ? "incorrect data check" : "incorrect length check"
        #expect(reader.damage == [StreamDamage(
            kind: .corrupt, from: members[0].count, to: secondEnd, lines: 30, exact: trailerOffset == 4, afterLine: 30,
            reason: "gzip member starting at byte \(members[0].count) is damaged: \(reason)")])
        #expect(lines.count + reader.lostLines == texts.count)
    }

    /// A byte flipped inside a gzip member's compressed data that zlib still decodes to the end:
    /// the CRC-32 fails, and the newlines of what was decoded are not the member's; its count
    /// is not called exact (it was, and was 44 lines for a 50-line member).
    @Test func aGzipMemberWhoseContentFailsItsCRCHasNoExactCount() throws {
        let scratch = try Scratch()
        let texts = sampleLines(90)
        let members = try (0..<3).map { i in
            try scratch.compress(joined(Array(texts[(i * 30)..<(i * 30 + 30)])), with: "gzip", name: "m\(i)")
        }
        var found = false
        // Some flips make deflate data that fails before its end; look for one that decodes on.
        for position in stride(from: 20, to: members[1].count - 8, by: 7) where !found {
            var bytes = members.joined().map { $0 }
            bytes[members[0].count + position] ^= 0x04
            let (lines, reader) = try readAll(try scratch.write("flip.gz", bytes))
            guard let damage = reader.damage.first, damage.reason.hasSuffix("incorrect data check") else { continue }
            found = true
            #expect(!damage.exact)
            #expect(lines == complete(Array(texts[..<30])) + complete(texts).suffix(30))
        }
        #expect(found, "a flip that zlib decodes to the end")
    }

    /// The five-frame file of the zstd tests, frame 2's content checksum altered: frame 2's
    /// lines (and the two lines it shares with its neighbours) are lost — counted from its decoded
    /// content, not exactly, as a checksum that fails may be the content's fault — and the frames
    /// after it read on with the numbers they have in the intact file.
    @Test func aZstdFrameFailingItsChecksumIsLostAndTheFramesAfterItKept() throws {
        let scratch = try Scratch()
        let frames = try ZstdReadingTests.Frames(scratch)
        var bytes = frames.bytes
        bytes[frames.starts[3] - 1] ^= 0x01  // the last byte of frame 2's checksum
        let (lines, reader) = try readAll(try scratch.write("sum.zst", bytes), chunkSize: 512)
        let damage = try #require(reader.damage.first)
        #expect(reader.damage.count == 1)
        #expect(damage.kind == .corrupt && damage.from == frames.starts[2] && damage.to == frames.starts[3])
        #expect(damage.reason == "zstd frame starting at byte \(frames.starts[2]) is damaged: Restored data doesn't match checksum")
        #expect(!damage.exact)
        let all = complete(frames.texts)
        #expect(lines == all.filter { $0.number <= damage.afterLine || $0.number > damage.afterLine + damage.lines })
        #expect(damage.afterLine == frames.expected(throughFrame: 2).lines.count)
        #expect(lines.count + reader.lostLines == frames.texts.count)
    }

    /// Bytes altered inside frame 2's compressed data: whatever libzstd makes of them, no line
    /// of frame 2 is delivered, every complete line outside it is, and no line is garbled.
    @Test(arguments: [0.3, 0.5, 0.7])
    func badBytesInsideAZstdFrameLoseOnlyThatFrame(position: Double) throws {
        let scratch = try Scratch()
        let frames = try ZstdReadingTests.Frames(scratch)
        var bytes = frames.bytes
        let size = frames.starts[3] - frames.starts[2]
        bytes[frames.starts[2] + Int(Double(size) * position)] ^= 0x5A
        let (lines, reader) = try readAll(try scratch.write("bad.zst", bytes))
        #expect(reader.damage.count == 1)
        #expect(reader.damage.first?.from == frames.starts[2])
        #expect(reader.damage.first.map { $0.lines >= 1 } == true)
        let before = frames.expected(throughFrame: 2).lines
        #expect(Array(lines.prefix(before.count)) == before)
        // Frames 3 and 4 hold whole lines from text offset 2900 on: all of them are delivered.
        let text = joined(frames.texts)
        let intact = text.utf8.dropFirst(2900).split(separator: 0x0A).dropFirst().map { String(decoding: $0, as: UTF8.self) }
        #expect(Array(lines.suffix(intact.count)).map(\.text) == intact)
        for line in lines { #expect(frames.texts.contains { $0.hasSuffix(line.text) }, "garbled: \(line)") }
    }

    /// Frames whose output outgrows the memory cap spill to disk and are delivered whole; a
    /// spilled frame that fails its checksum still counts every line it held.
    @Test func framesLargerThanTheMemoryCapSpillAndCountAlike() throws {
        let scratch = try Scratch()
        let texts = sampleLines(3000)
        let big = try scratch.compress(joined(texts), with: "zstd", name: "big")
        let small = try scratch.compress(joined(sampleLines(5, from: 3001)), with: "zstd", name: "small")
        let healthy = try scratch.write("big.zst", big + small)
        let (lines, reader) = try readAll(healthy, chunkSize: 4096, frameMemory: 16 << 10)
        #expect(lines == complete(texts + sampleLines(5, from: 3001)))
        #expect(reader.damage.isEmpty)

        var damaged = big + small
        damaged[big.count - 1] ^= 0x01
        let (kept, broken) = try readAll(try scratch.write("bad.zst", damaged), chunkSize: 4096, frameMemory: 16 << 10)
        #expect(kept.map(\.number) == Array(3001...3005))
        #expect(broken.damage.map(\.lines) == [3000])
    }

    /// After damage the next frame's magic number is found even when it straddles two chunks.
    @Test func theNextFrameIsFoundAcrossAChunkBoundary() throws {
        let scratch = try Scratch()
        let frames = try ZstdReadingTests.Frames(scratch)
        var bytes = frames.bytes
        bytes[frames.starts[2]] ^= 0xFF  // frame 2's magic: decoding fails at once
        let chunk = try #require((16...400).first { frames.starts[3] % $0 == $0 - 2 && $0 < frames.starts[3] })
        let (lines, reader) = try readAll(try scratch.write("straddle.zst", bytes), chunkSize: chunk)
        #expect(reader.damage.map(\.to) == [frames.starts[3]])
        #expect(lines.last?.text == frames.texts.last)
    }

    /// A skippable frame right after damage is where reading resumes.
    @Test func aSkippableFrameEndsTheDamage() throws {
        let scratch = try Scratch()
        let first = try scratch.compress("one\ntwo\n", with: "zstd", name: "a")
        let skippable: [UInt8] = [0x50, 0x2A, 0x4D, 0x18, 2, 0, 0, 0, 9, 9]
        let last = try scratch.compress("three\n", with: "zstd", name: "b")
        var bytes = first + skippable + last
        bytes[first.count - 1] ^= 0x01
        let (lines, reader) = try readAll(try scratch.write("s.zst", bytes))
        #expect(lines == [Got(3, "three")])
        #expect(reader.damage.map { [$0.from, $0.to, $0.lines] } == [[0, first.count, 2]])
    }
}
