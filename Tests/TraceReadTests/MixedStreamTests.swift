import Testing
@testable import TraceRead

/// `cat *.zst *.gz *.jsonl | lifeline check --stdin`: each frame's format is told by its own
/// magic number, and text after a frame is read as plain lines, as `zstd -dcf` reads it.
@Suite struct MixedStreamTests {
    static let parts = [
        ("zstd", ["{\"n\":1}", "{\"n\":2}"]), ("gzip", ["{\"n\":3}"]), ("zstd", ["{\"n\":4}", "{\"n\":5}"]),
        ("gzip", ["{\"n\":6}", "{\"n\":7}"]),
    ]

    /// The parts compressed one after another, then `plain` as it is.
    static func stream(_ scratch: Scratch, plain: String = "") throws -> (bytes: [UInt8], texts: [String]) {
        var bytes: [UInt8] = []
        var texts: [String] = []
        for (index, (tool, lines)) in parts.enumerated() {
            bytes += try scratch.compress(lines.joined(separator: "\n") + "\n", with: tool, name: "part\(index)")
            texts += lines
        }
        bytes += Array(plain.utf8)
        texts += plain.split(separator: "\n").map(String.init)
        return (bytes, texts)
    }

    @Test func zstdFramesAndGzipMembersMixedAreReadWhole() throws {
        let scratch = try Scratch()
        let (bytes, texts) = try Self.stream(scratch)
        let (lines, reader) = try readAll(try scratch.write("mixed", bytes))
        #expect(lines == complete(texts))
        #expect(reader.damage.isEmpty)
        #expect(reader.compression == .zstd)
    }

    @Test func plainTextAfterFramesIsReadAsLines() throws {
        let scratch = try Scratch()
        let (bytes, texts) = try Self.stream(scratch, plain: "{\"n\":8}\n\n{\"n\":9}\n")
        let (lines, reader) = try readAll(try scratch.write("mixed", bytes))
        #expect(lines.filter { !$0.text.isEmpty }.map(\.text) == texts)
        #expect(reader.damage.isEmpty)
    }

    /// Plain files before, between and after compressed ones: a line of text cannot begin with
    /// a frame's magic number, so a frame is recognised at the start of any line.
    @Test func plainTextBeforeAndBetweenFramesIsReadAsLines() throws {
        let scratch = try Scratch()
        let zstd = try scratch.compress("{\"n\":2}\n", with: "zstd", name: "a")
        let gzip = try scratch.compress("{\"n\":4}\n", with: "gzip", name: "b")
        let bytes = Array("{\"n\":1}\n".utf8) + zstd + Array("{\"n\":3}\n".utf8) + gzip + Array("{\"n\":5}\n".utf8)
        let path = try scratch.write("mixed", bytes)
        for chunk in [1 << 20] + Array(5...30) {
            let (lines, reader) = try readAll(path, chunkSize: chunk)
            #expect(lines.map(\.text) == (1...5).map { "{\"n\":\($0)}" }, "chunks of \(chunk) bytes")
            #expect(reader.damage.isEmpty, "chunks of \(chunk) bytes")
            #expect(reader.compression == .none)
        }
    }

    /// Wherever the chunks end, also inside the next frame's magic number, the lines are the same.
    @Test func aMagicNumberSplitByTheChunksIsStillRecognised() throws {
        let scratch = try Scratch()
        let (bytes, texts) = try Self.stream(scratch, plain: "{\"n\":8}\n")
        let path = try scratch.write("mixed", bytes)
        for chunk in 5...40 {
            let (lines, reader) = try readAll(path, chunkSize: chunk)
            #expect(lines == complete(texts), "chunks of \(chunk) bytes")
            #expect(reader.damage.isEmpty, "chunks of \(chunk) bytes")
        }
    }

    /// Bytes after a frame that are neither a frame nor text are damage, as before, and a
    /// gzip member after them is found and read.
    @Test func garbageBetweenFormatsIsDamageAndReadingResumes() throws {
        let scratch = try Scratch()
        let zstd = try scratch.compress("{\"n\":1}\n", with: "zstd", name: "a")
        let gzip = try scratch.compress("{\"n\":2}\n", with: "gzip", name: "b")
        let garbage: [UInt8] = [0x00, 0x01, 0x02, 0x03, 0x04, 0x05]
        let (lines, reader) = try readAll(try scratch.write("damaged", zstd + garbage + gzip))
        #expect(lines.map(\.text) == ["{\"n\":1}", "{\"n\":2}"])
        #expect(reader.damage.map(\.from) == [zstd.count])
        #expect(reader.damage.map(\.to) == [zstd.count + garbage.count])
    }

    /// Two bytes after the last frame that could begin one: the input ended inside a frame.
    @Test func aFewBytesOfAFrameAtTheEndAreACut() throws {
        let scratch = try Scratch()
        let zstd = try scratch.compress("{\"n\":1}\n", with: "zstd", name: "a")
        let (lines, reader) = try readAll(try scratch.write("cut", zstd + [0x28, 0xB5]))
        #expect(lines.map(\.text) == ["{\"n\":1}"])
        #expect(reader.cut?.from == zstd.count)
    }
}
