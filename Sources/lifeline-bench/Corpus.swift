import Foundation
import TraceSynth

/// A generated corpus on disk, made once per spec and reused by later runs.
struct Corpus {
    /// The two corpora the benchmark measures.
    enum Kind: String, CaseIterable {
        /// The generator's own output: every device logs `seq`, every file is multi-frame zstd,
        /// every time is `Z` with milliseconds.
        case tidy
        /// The same days as a fleet uploads them (``FieldMix``'s proportions): no `seq` on some
        /// devices, gzip and plain files, other clock formats, unknown nested fields, bad lines
        /// and files cut short.
        case field
    }

    var kind: Kind
    var directory: String
    var files: [String]
    /// Lines written, including those damaged on purpose.
    var lines: Int
    var compressedBytes: Int

    var summary: String {
        String(format: "%@: %d lines in %d files, %.1f MB (%@)", kind.rawValue, lines, files.count,
               Double(compressedBytes) / 1_000_000, directory)
    }

    static func prepare(_ kind: Kind, spec: CorpusSpec, under root: String) throws -> Corpus {
        let format = spec.features.isEmpty ? "" : "-v1.1"
        let name = "corpus-\(kind.rawValue)-d\(spec.devices)-n\(spec.days)-s\(spec.seed)-e\(spec.approxEventsPerDeviceDay)\(format)"
        let directory = (root as NSString).appendingPathComponent(name)
        let manifest = (directory as NSString).appendingPathComponent("lines.count")
        if let text = try? String(contentsOfFile: manifest, encoding: .utf8), let lines = Int(text) {
            return try Corpus(kind: kind, directory: directory, lines: lines)
        }
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        FileHandle.standardError.write(Data("generating the \(kind.rawValue) corpus, \(spec.devices * spec.days) files…\n".utf8))
        let lines: Int
        switch kind {
        case .tidy: lines = try CorpusWriter.write(spec: spec, to: directory, progress: nil).events
        case .field: lines = try FieldCorpusWriter.write(spec: spec, to: directory).lines
        }
        try String(lines).write(toFile: manifest, atomically: true, encoding: .utf8)
        return try Corpus(kind: kind, directory: directory, lines: lines)
    }

    private init(kind: Kind, directory: String, lines: Int) throws {
        self.kind = kind
        self.directory = directory
        self.lines = lines
        files = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".jsonl.zst") || $0.hasSuffix(".jsonl.gz") || $0.hasSuffix(".jsonl") }.sorted()
            .map { (directory as NSString).appendingPathComponent($0) }
        compressedBytes = files.reduce(0) {
            $0 + ((try? FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0)
        }
    }
}
