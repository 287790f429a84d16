import Foundation
import Testing
@testable import TraceRead

@Suite struct FileFingerprintTests {
    @Test func matchesSha256sumAcrossSeveralChunks() throws {
        let scratch = try Scratch()
        // 3 MiB + a bit, so the hash spans several 1 MiB reads and a short last one.
        let bytes = (0..<(3 << 20) + 1234).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        let path = try scratch.write("blob", bytes)
        let expected = String(try run("sha256sum", [path]).prefix(64))
        #expect(try FileFingerprint.sha256(path: path) == expected)
    }

    @Test func emptyFileHasTheEmptyDigest() throws {
        let scratch = try Scratch()
        let path = try scratch.write("empty", "")
        #expect(
            try FileFingerprint.sha256(path: path)
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func readerHashMatchesFingerprint() throws {
        let scratch = try Scratch()
        let path = try scratch.write("a.gz", try scratch.compress(joined(sampleLines(5000)), with: "gzip", name: "a.jsonl"))
        let (_, reader) = try readAll(path, hashing: true, chunkSize: 4096)
        #expect(reader.sha256 == (try FileFingerprint.sha256(path: path)))
        #expect(try readAll(path).reader.sha256 == nil)
    }
}
