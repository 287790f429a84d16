import Foundation
import Testing

@Suite struct GenerateCommandTests {
    /// traces/ is what the committed generator writes: regenerating it changes no byte.
    @Test func theSampleTracesAreReproducible() throws {
        let output = try CLI.temporaryDirectory().appendingPathComponent("traces")
        let result = try CLI.run(["generate", "--sample", "--output", output.path])
        #expect(result.status == 0)
        let traces = CLI.root.appendingPathComponent("traces")
        let committed = try FileManager.default.subpathsOfDirectory(atPath: traces.path)
            .filter { $0.contains(".jsonl") }.sorted()
        let generated = try FileManager.default.subpathsOfDirectory(atPath: output.path)
            .filter { $0.contains(".jsonl") }.sorted()
        #expect(committed == generated)
        for file in committed {
            let a = try Data(contentsOf: traces.appendingPathComponent(file))
            let b = try Data(contentsOf: output.appendingPathComponent(file))
            #expect(a == b, "traces/\(file) differs from what `lifeline generate --sample` writes")
        }
    }

    @Test func aCorpusHasOneFilePerDeviceAndDay() throws {
        let output = try CLI.temporaryDirectory().appendingPathComponent("corpus")
        let result = try CLI.run(["generate", "--output", output.path, "--devices", "3", "--days", "2", "--seed", "5"])
        #expect(result.status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasSuffix(".jsonl.zst") }
        #expect(files.count == 6)
        #expect(try CLI.run(["generate", "--output", output.path, "--breach-rate", "2"]).status == 64)
    }
}
