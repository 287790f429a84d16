import Foundation
import Testing
@testable import TraceRead

/// Standard input is a pipe that delivers in dribbles; reading from a pipe we feed by hand
/// exercises the same path as "-" without touching the test process's own stdin.
@Suite struct StandardInputTests {
    @Test func readsCompressedPipeFedInSmallWrites() throws {
        let scratch = try Scratch()
        let text = joined(sampleLines(500))
        let compressed = try scratch.compress(text, with: "zstd", name: "in.jsonl")
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let feeder = Thread {
            var offset = 0
            while offset < compressed.count {
                // Three bytes first so the magic number arrives split across reads.
                let size = min(offset == 0 ? 3 : 997, compressed.count - offset)
                let written = compressed[offset...].withUnsafeBytes { write(writeEnd, $0.baseAddress, size) }
                if written > 0 { offset += written } else if errno != EINTR { break }
            }
            close(writeEnd)
        }
        feeder.start()
        defer { close(readEnd) }
        let source = ByteSource(descriptor: readEnd, name: "-", ownsDescriptor: false, chunkSize: 1 << 20)
        let reader = try LineReader(source: source, maxLineBytes: 1 << 20, hashing: true, chunkSize: 1 << 20)
        var lines: [String] = []
        try reader.forEachLine { line in
            lines.append(String(decoding: line.bytes, as: UTF8.self))
            return true
        }
        #expect(reader.compression == .zstd)
        #expect(lines == sampleLines(500))
        #expect(reader.compressedBytesRead == compressed.count)
        #expect(reader.decompressedBytes == text.utf8.count)
        let expected = try run("sha256sum", [scratch.path("in.jsonl.zst")]).prefix(64)
        #expect(reader.sha256 == String(expected))
    }
}
