import Foundation

extension CorpusWriter {
    /// The spec of the sample set: five devices over two days, a few breaches, and requests that
    /// may wait past a day as v1 was first written (``CorpusSpec/requestsMayWait``): the samples
    /// keep their bytes, and one refresh request waits long enough to show `bgtask-never-ran`.
    public static let sampleSpec: CorpusSpec = {
        var spec = CorpusSpec(devices: 5, days: 2, seed: 20_261_121, breachRate: 0.03)
        spec.requestsMayWait = true
        return spec
    }()

    /// The spec of the sample set's scene-based part (`scenes/`): five more devices over three
    /// days in trace format v1.1 (scene-based apps, shared resources, URL session scheduling,
    /// power and refresh readings, a refresh request that never runs and why), with a few
    /// breaches. The seed is one whose devices show each of those.
    public static let sampleV1_1Spec: CorpusSpec = {
        var spec = CorpusSpec(devices: 5, days: 3, seed: 19, breachRate: 0.05)
        spec.features = .v1_1
        return spec
    }()

    /// Writes the small sample set the project ships in `traces/`, well under 1 MB:
    /// - `dev-000{0…4}-2026-11-2{1,2}.jsonl.zst`: ``sampleSpec``, one multi-frame file per device-day;
    /// - `scenes/dev-000{0…4}-2026-11-2{1,2,3}.jsonl.zst`: ``sampleV1_1Spec`` (other devices: the
    ///   ids come from the seed), one multi-frame file per device-day;
    /// - `dev-0005-2026-11-21.jsonl.gz`: a sixth device's day, gzip-compressed;
    /// - `dev-0006-2026-11-21.jsonl`: plain text, a device whose app never ran that day, only its
    ///   notification service extension;
    /// - `bad/dev-0007-2026-11-21.jsonl.zst`: a zstd file cut short in the middle of its last frame;
    /// - `bad/malformed.jsonl`: good lines mixed with one line of each kind of bad input.
    public static func sampleTraces(to directory: String) throws {
        let generator = TraceGenerator(spec: sampleSpec)
        try createDirectory(directory + "/bad")
        for device in 0..<sampleSpec.devices {
            for day in 0..<sampleSpec.days {
                try writeZstd(generator, device: device, day: day, to: directory, linesPerFrame: 100)
            }
        }

        let (gzipLines, _) = generator.lineBytes(device: 5, day: 0)
        let gzipPath = directory + "/" + generator.fileName(device: 5, day: 0, extension: "jsonl.gz")
        try writeFile(Gzip.compress(gzipLines, path: gzipPath), to: gzipPath)

        try writeFile(generator.extensionOnlyLineBytes(device: 6, day: 0), to: directory + "/" + generator.fileName(device: 6, day: 0, extension: "jsonl"))

        let cutPath = try writeZstd(generator, device: 7, day: 0, to: directory + "/bad", linesPerFrame: 60)
        try cutInLastFrame(cutPath.path, frameEnds: cutPath.frameEnds)

        try writeFile(malformedLines(generator), to: directory + "/bad/malformed.jsonl")

        let scenes = TraceGenerator(spec: sampleV1_1Spec)
        try createDirectory(directory + "/scenes")
        for device in 0..<sampleV1_1Spec.devices {
            for day in 0..<sampleV1_1Spec.days {
                try writeZstd(scenes, device: device, day: day, to: directory + "/scenes", linesPerFrame: 100)
            }
        }
    }

    @discardableResult
    private static func writeZstd(
        _ generator: TraceGenerator, device: Int, day: Int, to directory: String, linesPerFrame: Int
    ) throws -> (path: String, frameEnds: [Int]) {
        let path = directory + "/" + generator.fileName(device: device, day: day)
        let (bytes, lineEnds) = generator.lineBytes(device: device, day: day)
        var writer = try ZstdFrameWriter(path: path, linesPerFrame: linesPerFrame)
        try writer.write(lineBytes: bytes, lineEnds: lineEnds)
        try writer.close()
        return (path, writer.frameEnds)
    }

    /// Chops the file halfway through its last frame, as when the logging process was killed.
    private static func cutInLastFrame(_ path: String, frameEnds: [Int]) throws {
        let lastStart = frameEnds.count > 1 ? frameEnds[frameEnds.count - 2] : 0
        let cut = lastStart + (frameEnds[frameEnds.count - 1] - lastStart) / 2
        guard truncate(path, off_t(cut)) == 0 else {
            throw SynthError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// The first visits of device 8 (complete life cycles, up to the first suspension or
    /// termination), with one bad line of each kind slipped in between.
    private static func malformedLines(_ generator: TraceGenerator) -> [UInt8] {
        var good: [String] = []
        var cycles = 0
        generator.forEachLine(device: 8, day: 0) { line in
            guard cycles < 2 else { return }
            good.append(line)
            if line.contains("\"event\":\"suspend\"") || line.contains("\"event\":\"terminate\"") { cycles += 1 }
        }
        let device = generator.deviceID(8)
        let bad: [[UInt8]] = [
            Array(#"{"ts":"2026-11-21T10:00:00.000Z","device":"\#(device)","launch":"#.utf8),
            Array("[\"launch\",\"config\"]".utf8),
            Array(#"{"ts":"2026-11-21T10:00:01.000Z","launch":"L0","seq":0,"event":"memoryWarning"}"#.utf8),
            Array(#"{"ts":"21/11/2026 10:00","device":"\#(device)","launch":"L0","seq":1,"event":"memoryWarning"}"#.utf8),
            Array(#"{"ts":"2026-11-21T10:00:02.000Z","device":"\#(device)","launch":"L0","seq":2,"event":"note","text":""#.utf8)
                + [0xC3, 0x28, 0xFF] + Array(#""}"#.utf8),
            [],
            Array(#"{"ts":"2026-11-21T10:00:03.000Z","device":true,"launch":"L0","seq":3,"event":"memoryWarning"}"#.utf8),
            Array("42".utf8),
        ]
        var output: [UInt8] = []
        let stride = max(1, good.count / (bad.count + 1))
        for (index, line) in good.enumerated() {
            output += Array(line.utf8) + [10]
            if index % stride == stride - 1, index / stride < bad.count { output += bad[index / stride] + [10] }
        }
        return output
    }

    private static func writeFile(_ bytes: [UInt8], to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw SynthError.cannotWrite(path: path, reason: "could not create the file")
        }
    }
}
