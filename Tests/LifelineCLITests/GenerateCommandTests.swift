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

    /// A new user's first v1.1 try: scene-based days from `generate` ingest, check clean, and
    /// read in `timeline` with their scene events.
    @Test func aCleanSceneBasedCorpusChecksWithoutFindings() throws {
        let directory = try CLI.temporaryDirectory()
        let corpus = directory.appendingPathComponent("v11").path
        let database = directory.appendingPathComponent("v11.db").path
        let generated = try CLI.run([
            "generate", "--output", corpus, "--devices", "6", "--days", "2", "--seed", "11", "--trace-format", "v1.1",
        ])
        #expect(generated.status == 0)
        let check = try CLI.run(["check", "--db", database, "--quiet", corpus])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("No findings"), "\(check.stdout)")
        let devices = try CLI.run(["query", "--db", database, "--format", "csv", "SELECT min(device) FROM events WHERE event LIKE 'scene.%'"])
        let device = try #require(devices.stdout.split(separator: "\n").dropFirst().first.map(String.init))
        let timeline = try CLI.run(["timeline", device, "--db", database])
        #expect(timeline.status == 0)
        #expect(timeline.stdout.contains("scene.didBecomeActive  scene S"), "the timeline shows the scene events and ids")
        #expect(try CLI.run(["generate", "--output", corpus, "--trace-format", "v2"]).status == 64)
    }

    /// An output that cannot be made is one line with the system's reason, exit 2.
    @Test func anOutputThatCannotBeMadeSaysWhy() throws {
        let file = try CLI.temporaryDirectory().appendingPathComponent("file")
        try "x".write(to: file, atomically: true, encoding: .utf8)
        for arguments in [["--sample"], ["--devices", "1", "--days", "1"]] {
            let result = try CLI.run(["generate", "--output", file.path + "/traces"] + arguments)
            #expect(result.status == 2)
            #expect(result.stderr.hasPrefix("error: cannot write \(file.path)/traces"), "\(result.stderr)")
            #expect(result.stderr.hasSuffix(": Not a directory\n"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
    }
}
