import Foundation

/// A snapshot of a running ingest, handed to the progress callback after every batch.
public struct IngestProgress: Sendable, Hashable {
    public var filesDone: Int
    public var filesTotal: Int
    public var currentPath: String?
    /// Input bytes read so far (compressed, as on disk).
    public var bytesRead: Int
    public var eventsStored: Int
    public var duplicates: Int
    public var elapsedSeconds: Double

    public var eventsPerSecond: Double { elapsedSeconds > 0 ? Double(eventsStored + duplicates) / elapsedSeconds : 0 }
    public var megabytesPerSecond: Double { elapsedSeconds > 0 ? Double(bytesRead) / 1_000_000 / elapsedSeconds : 0 }
}

/// The counters the reading thread and the writing thread both update.
final class ProgressCounters: @unchecked Sendable {
    private let lock = NSLock()
    private var progress: IngestProgress
    private let start = Date()

    init(filesTotal: Int) {
        progress = IngestProgress(
            filesDone: 0, filesTotal: filesTotal, currentPath: nil, bytesRead: 0, eventsStored: 0,
            duplicates: 0, elapsedSeconds: 0)
    }

    func update(_ change: (inout IngestProgress) -> Void) {
        lock.lock()
        change(&progress)
        lock.unlock()
    }

    func snapshot() -> IngestProgress {
        lock.lock()
        defer { lock.unlock() }
        var copy = progress
        copy.elapsedSeconds = Date().timeIntervalSince(start)
        return copy
    }
}
