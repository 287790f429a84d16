import Foundation
import Testing
import TraceSynth

@Suite struct CorpusWriterTests {
    @Test func writesOneFilePerDeviceDayIdenticallyEachTime() throws {
        let spec = CorpusSpec(devices: 3, days: 2, seed: 17, breachRate: 0.1)
        let first = try makeTemporaryDirectory()
        let second = try makeTemporaryDirectory()
        defer {
            try? FileManager.default.removeItem(atPath: first)
            try? FileManager.default.removeItem(atPath: second)
        }
        var reported: [(Int, Int)] = []
        let written = try CorpusWriter.write(spec: spec, to: first + "/corpus") { reported.append(($0, $1)) }
        try CorpusWriter.write(spec: spec, to: second + "/corpus", progress: nil)

        let generator = TraceGenerator(spec: spec)
        let names = (0..<3).flatMap { device in (0..<2).map { generator.fileName(device: device, day: $0) } }
        #expect(try FileManager.default.contentsOfDirectory(atPath: first + "/corpus").sorted() == names.sorted())
        #expect(written.files == 6 && reported.count == 6 && reported.last! == (6, 6))
        var lines = 0
        var bytes = 0
        for name in names {
            #expect(FileManager.default.contentsEqual(atPath: first + "/corpus/" + name, andPath: second + "/corpus/" + name))
            let size = try FileManager.default.attributesOfItem(atPath: first + "/corpus/" + name)[.size] as! Int
            bytes += size
            let (status, output) = try run("zstd", ["-dc", first + "/corpus/" + name])
            #expect(status == 0)
            lines += output.filter { $0 == 10 }.count
        }
        #expect(written.events == lines && written.bytes == bytes)
    }
}
