import Foundation

/// Writes a field-like corpus: the device-days of a ``CorpusSpec`` rewritten and stored in the
/// proportions of a ``FieldMix`` (see ``FieldLineRewriter``), one file per device-day as
/// `.jsonl.zst` (multi-frame), `.jsonl.gz` or `.jsonl`, some zstd files cut short.
public enum FieldCorpusWriter {
    /// What was written: files, lines, lines damaged on purpose, files cut short and the bytes.
    public struct Written: Sendable {
        public var files = 0
        public var lines = 0
        public var damagedLines = 0
        public var cutFiles = 0
        public var bytes = 0
    }

    public static func write(
        spec: CorpusSpec, mix: FieldMix = FieldMix(), to directory: String, linesPerFrame: Int = 100
    ) throws -> Written {
        try CorpusWriter.createDirectory(directory)
        let generator = TraceGenerator(spec: spec)
        var written = Written()
        for device in 0..<spec.devices {
            for day in 0..<spec.days {
                var choices = SplitMix64(spec.seed, 0xC0FFEE, UInt64(device), UInt64(day))
                // The last file is always a cut zstd file, so that every corpus has one.
                let last = device == spec.devices - 1 && day == spec.days - 1
                let compression = last ? .zstd : mix.compression(&choices)
                let cut = last || (compression == .zstd && choices.chance(mix.cutFiles))
                let (tidy, lineEnds) = generator.lineBytes(device: device, day: day)
                var rewriter = FieldLineRewriter(mix: mix, seed: spec.seed, device: device, day: day)
                var bytes: [UInt8] = []
                bytes.reserveCapacity(tidy.count + tidy.count / 8)
                var rewrittenEnds: [Int] = []
                rewrittenEnds.reserveCapacity(lineEnds.count)
                var start = 0
                for end in lineEnds {
                    rewriter.rewrite(tidy[start..<(end - 1)], into: &bytes)
                    rewrittenEnds.append(bytes.count)
                    start = end
                }
                let path = directory + "/" + generator.fileName(device: device, day: day, extension: compression.fileExtension)
                written.bytes += try store(bytes, lineEnds: rewrittenEnds, as: compression, cut: cut, path: path, linesPerFrame: linesPerFrame)
                written.files += 1
                written.lines += lineEnds.count
                written.damagedLines += rewriter.damagedLines
                written.cutFiles += cut ? 1 : 0
            }
        }
        return written
    }

    /// Writes one file and returns its size; a cut file loses the second half of its last frame.
    private static func store(
        _ bytes: [UInt8], lineEnds: [Int], as compression: FieldCompression, cut: Bool, path: String,
        linesPerFrame: Int
    ) throws -> Int {
        switch compression {
        case .plain:
            try write(bytes[...], to: path)
            return bytes.count
        case .gzip:
            let member = try Gzip.compress(bytes, path: path)
            try write(member[...], to: path)
            return member.count
        case .zstd:
            var writer = try ZstdFrameWriter(path: path, linesPerFrame: linesPerFrame)
            try writer.write(lineBytes: bytes, lineEnds: lineEnds)
            try writer.close()
            guard cut, let last = writer.frameEnds.last else { return writer.bytesWritten }
            let lastStart = writer.frameEnds.dropLast().last ?? 0
            let length = lastStart + (last - lastStart) / 2
            guard truncate(path, off_t(length)) == 0 else {
                throw SynthError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
            }
            return length
        }
    }

    private static func write(_ bytes: ArraySlice<UInt8>, to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw SynthError.cannotWrite(path: path, reason: "cannot create the file")
        }
    }
}
