import Foundation
import TraceSynth

/// A generated corpus on disk, made once per spec and reused by later runs.
struct Corpus {
    var directory: String
    var files: [String]
    var events: Int
    var compressedBytes: Int

    var summary: String {
        String(format: "%d events in %d files, %.1f MB zstd (%@)", events, files.count,
               Double(compressedBytes) / 1_000_000, directory)
    }

    static func prepare(spec: CorpusSpec, under root: String) throws -> Corpus {
        let name = "corpus-d\(spec.devices)-n\(spec.days)-s\(spec.seed)-e\(spec.approxEventsPerDeviceDay)"
        let directory = (root as NSString).appendingPathComponent(name)
        let manifest = (directory as NSString).appendingPathComponent("events.count")
        if let text = try? String(contentsOfFile: manifest, encoding: .utf8), let events = Int(text) {
            return try Corpus(directory: directory, events: events)
        }
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        FileHandle.standardError.write(Data("generating \(spec.devices * spec.days) files…\n".utf8))
        let written = try CorpusWriter.write(spec: spec, to: directory, progress: nil)
        try String(written.events).write(toFile: manifest, atomically: true, encoding: .utf8)
        return try Corpus(directory: directory, events: written.events)
    }

    private init(directory: String, events: Int) throws {
        self.directory = directory
        self.events = events
        files = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".jsonl.zst") }.sorted()
            .map { (directory as NSString).appendingPathComponent($0) }
        compressedBytes = files.reduce(0) {
            $0 + ((try? FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0)
        }
    }
}
