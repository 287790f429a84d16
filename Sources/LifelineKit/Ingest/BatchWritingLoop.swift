import Foundation
import TraceStore

/// The writing side of an ingest: commits what the reader sent, every message waiting at
/// once in one transaction, and keeps each file's report.
struct BatchWritingLoop {
    private let writer: EventWriter
    private let counters: ProgressCounters
    private let progress: (@Sendable (IngestProgress) -> Void)?
    private var fileIDs: [Int: Int64] = [:]
    private var stored: [Int: (events: Int, duplicates: Int)] = [:]
    private(set) var reports: [FileReport] = []

    init(store: Store, counters: ProgressCounters, progress: (@Sendable (IngestProgress) -> Void)?) {
        self.writer = EventWriter(store: store)
        self.counters = counters
        self.progress = progress
    }

    /// Commits the messages; false after a database failure, which ends the ingest.
    mutating func handle(_ messages: [IngestMessage]) -> Bool {
        var done: [FileReport] = []
        var inserted = 0
        var duplicates = 0
        var fileIDs = self.fileIDs
        var stored = self.stored
        do {
            try writer.transaction { transaction in
                for message in messages {
                    switch message {
                    case .register(let fileKey, let registration):
                        fileIDs[fileKey] = try transaction.register(registration)
                    case .resume(let fileKey, let fileID):
                        fileIDs[fileKey] = fileID
                    case .batch(let fileKey, var batch):
                        batch.fileID = fileIDs[fileKey]!
                        let outcome = try transaction.write(batch)
                        stored[fileKey, default: (0, 0)].events += outcome.inserted
                        stored[fileKey, default: (0, 0)].duplicates += outcome.duplicates
                        inserted += outcome.inserted
                        duplicates += outcome.duplicates
                    case .finished(let fileKey, var report, let ending):
                        let totals = stored.removeValue(forKey: fileKey) ?? (0, 0)
                        report.events = totals.events
                        report.duplicates = totals.duplicates
                        try transaction.finish(fileID: fileIDs.removeValue(forKey: fileKey)!, ending)
                        done.append(report)
                    case .report(let report):
                        done.append(report)
                    }
                }
            }
        } catch {
            var report = FileReport(path: counters.snapshot().currentPath ?? "?", outcome: .failed)
            report.message = "\(error)"
            reports.append(report)
            return false
        }
        // Only what committed counts.
        self.fileIDs = fileIDs
        self.stored = stored
        reports += done
        counters.update {
            $0.eventsStored += inserted
            $0.duplicates += duplicates
            $0.filesDone += done.count
        }
        progress?(counters.snapshot())
        return true
    }
}
