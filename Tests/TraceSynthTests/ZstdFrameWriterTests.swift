import Foundation
import Testing
import TraceSynth

@Suite struct ZstdFrameWriterTests {
    @Test func writesFramesThatZstdDecompressesToTheLines() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/day.jsonl.zst"
        let lines = TraceGenerator(spec: CorpusSpec(devices: 1, days: 1, seed: 2)).lines(device: 0, day: 0)
        var writer = try ZstdFrameWriter(path: path, linesPerFrame: 50)
        for line in lines { try writer.write(line: line) }
        try writer.close()

        let (status, output) = try run("zstd", ["-dc", path])
        #expect(status == 0)
        #expect(String(decoding: output, as: UTF8.self) == lines.map { $0 + "\n" }.joined())

        let file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(writer.bytesWritten == file.count)
        #expect(Array(file.prefix(4)) == [0x28, 0xB5, 0x2F, 0xFD])
        let magics = (0..<(file.count - 3)).filter { file[$0] == 0x28 && file[$0 + 1] == 0xB5 && file[$0 + 2] == 0x2F && file[$0 + 3] == 0xFD }
        #expect(magics.count >= (lines.count + 49) / 50)
    }

    @Test func bytesAndStringsWriteTheSameFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let generator = TraceGenerator(spec: CorpusSpec(devices: 1, days: 1, seed: 2))
        var fromStrings = try ZstdFrameWriter(path: directory + "/a.zst", linesPerFrame: 64)
        for line in generator.lines(device: 0, day: 0) { try fromStrings.write(line: line) }
        try fromStrings.close()
        var fromBytes = try ZstdFrameWriter(path: directory + "/b.zst", linesPerFrame: 64)
        let (bytes, lineEnds) = generator.lineBytes(device: 0, day: 0)
        try fromBytes.write(lineBytes: bytes, lineEnds: lineEnds)
        try fromBytes.close()
        #expect(FileManager.default.contentsEqual(atPath: directory + "/a.zst", andPath: directory + "/b.zst"))
    }

    @Test func anUnwritablePathThrows() {
        #expect(throws: SynthError.self) { try ZstdFrameWriter(path: "/nonexistent-dir/x.zst") }
    }
}
