import Foundation

/// Writes a whole corpus: one multi-frame `.jsonl.zst` file per device-day.
public enum CorpusWriter {
    /// Writes every device-day of `spec` into `directory` (created if missing), calling
    /// `progress` with the files done and the total after each file. Returns the files, lines
    /// (events) and compressed bytes written.
    @discardableResult
    public static func write(
        spec: CorpusSpec, to directory: String, level: Int = 3, linesPerFrame: Int = 500,
        progress: ((Int, Int) -> Void)? = nil
    ) throws -> (files: Int, events: Int, bytes: Int) {
        try createDirectory(directory)
        let generator = TraceGenerator(spec: spec)
        let total = spec.devices * spec.days
        var summary = (files: 0, events: 0, bytes: 0)
        for device in 0..<spec.devices {
            for day in 0..<spec.days {
                let path = directory + "/" + generator.fileName(device: device, day: day)
                let (bytes, lineEnds) = generator.lineBytes(device: device, day: day)
                var writer = try ZstdFrameWriter(path: path, level: level, linesPerFrame: linesPerFrame)
                try writer.write(lineBytes: bytes, lineEnds: lineEnds)
                try writer.close()
                summary.files += 1
                summary.events += lineEnds.count
                summary.bytes += writer.bytesWritten
                progress?(summary.files, total)
            }
        }
        return summary
    }

    /// Creates `path` and its parents; a failure names the system's reason ("Not a directory"),
    /// which Foundation's own description of the error buries.
    public static func createDirectory(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            let underlying = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
            let reason = underlying.map { $0.domain == NSPOSIXErrorDomain ? String(cString: strerror(Int32($0.code))) : $0.localizedDescription }
            throw SynthError.cannotWrite(path: path, reason: reason ?? error.localizedDescription)
        }
    }
}
