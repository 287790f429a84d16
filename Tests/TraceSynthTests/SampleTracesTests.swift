import Foundation
import Testing
import TraceSynth

@Suite struct SampleTracesTests {
    @Test func writesEveryFormatAndTheBadFilesUnderOneMegabyte() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try CorpusWriter.sampleTraces(to: directory)
        let files = try #require(FileManager.default.subpaths(atPath: directory)).filter { !$0.hasSuffix("bad") }
        let sizes = try files.map { try FileManager.default.attributesOfItem(atPath: directory + "/" + $0)[.size] as! Int }
        #expect(sizes.reduce(0, +) < 1_000_000)
        #expect(files.filter { $0.hasSuffix(".jsonl.zst") && !$0.contains("/") }.count == 10)
        #expect(files.filter { $0.hasSuffix(".jsonl.zst") && $0.hasPrefix("scenes/") }.count == 15)
        #expect(files.contains("dev-0005-2026-11-21.jsonl.gz"))
        #expect(files.contains("dev-0006-2026-11-21.jsonl"))
        #expect(files.contains("bad/dev-0007-2026-11-21.jsonl.zst"))
        #expect(files.contains("bad/malformed.jsonl"))
    }

    @Test func theSamplesHoldSomeBreaches() {
        let generator = TraceGenerator(spec: CorpusWriter.sampleSpec)
        let breaches = (0..<5).flatMap { device in (0..<2).flatMap { generator.injectedBreaches(device: device, day: $0) } }
        #expect(breaches.count >= 2 && breaches.count <= 12)
    }

    @Test func theScenePartIsV11WithAWaitingRequest() {
        let spec = CorpusWriter.sampleV1_1Spec
        #expect(spec.features == .v1_1)
        let generator = TraceGenerator(spec: spec)
        let breaches = (0..<spec.devices).flatMap { device in (0..<spec.days).flatMap { generator.injectedBreaches(device: device, day: $0) } }
        #expect(breaches.contains { $0.kind == .bgtaskNeverRan })
        #expect(breaches.contains { $0.kind == .sharedResourceHeld })
        let lines = (0..<spec.days).flatMap { generator.lines(device: 0, day: $0) }
        #expect(lines.contains { $0.contains(#""event":"scene.willConnect""#) })
    }

    @Test func theGoodFilesDecompressWithTheStandardTools() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try CorpusWriter.sampleTraces(to: directory)
        let zstd = try run("zstd", ["-dc", directory + "/dev-0000-2026-11-21.jsonl.zst"])
        #expect(zstd.status == 0)
        let gzip = try run("gzip", ["-dc", directory + "/dev-0005-2026-11-21.jsonl.gz"])
        #expect(gzip.status == 0)
        let gzipLines = String(decoding: gzip.output, as: UTF8.self).split(separator: "\n")
        #expect(gzipLines.count > 50 && gzipLines.allSatisfy { object(String($0)) != nil })
        let plain = try String(contentsOfFile: directory + "/dev-0006-2026-11-21.jsonl", encoding: .utf8)
        let plainLines = plain.split(separator: "\n").compactMap { object(String($0)) }
        #expect(!plainLines.isEmpty && plainLines.allSatisfy { $0["process"] as? String == "extension:nse" })
    }

    @Test func theCutFileLosesOnlyItsLastFrame() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try CorpusWriter.sampleTraces(to: directory)
        let (status, output) = try run("zstd", ["-dc", directory + "/bad/dev-0007-2026-11-21.jsonl.zst"])
        #expect(status != 0)
        let text = String(decoding: output, as: UTF8.self)
        let complete = text.split(separator: "\n", omittingEmptySubsequences: true).filter { object(String($0)) != nil }
        #expect(complete.count >= 60)
    }

    @Test func theMalformedFileMixesGoodAndBadLines() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try CorpusWriter.sampleTraces(to: directory)
        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/bad/malformed.jsonl"))
        let lines = data.split(separator: 10, omittingEmptySubsequences: false).dropLast()
        #expect(lines.contains { $0.isEmpty })
        #expect(lines.contains { String(validating: $0, as: UTF8.self) == nil })
        let texts = lines.compactMap { String(validating: $0, as: UTF8.self) }.filter { !$0.isEmpty }
        let objects = texts.compactMap(object)
        #expect(texts.count - objects.count >= 3)
        #expect(objects.contains { $0["device"] == nil })
        #expect(objects.contains { ($0["ts"] as? String).map { epochSeconds($0) == nil } ?? false })
        #expect(objects.filter { $0["device"] is String && epochSeconds($0["ts"] as? String ?? "") != nil }.count > 10)
    }
}
