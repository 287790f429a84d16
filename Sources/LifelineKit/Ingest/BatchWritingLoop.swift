import Foundation
import TraceStore

/// The writing side of an ingest: commits batches and keeps each file's report.
struct BatchWritingLoop {
    private let writer: EventWriter
    private let counters: ProgressCounters
    private let progress: (@Sendable (IngestProgress) -> Void)?
    private var stored: [Int64: (events: Int, duplicates: Int)] = [:]
    private(set) var reports: [FileReport] = []

    init(store: Store, counters: ProgressCounters, progress: (@Sendable (IngestProgress) -> Void)?) {
        self.writer = EventWriter(store: store)
        self.counters = counters
        self.progress = progress
    }

    /// Handles one message; false after a database failure, which ends the ingest.
    mutating func handle(_ message: IngestMessage) -> Bool {
        switch message {
        case .batch(let batch):
            do {
                let outcome = try writer.write(batch)
                stored[batch.fileID, default: (0, 0)].events += outcome.inserted
                stored[batch.fileID, default: (0, 0)].duplicates += outcome.duplicates
                counters.update {
                    $0.eventsStored += outcome.inserted
                    $0.duplicates += outcome.duplicates
                }
            } catch {
                var report = FileReport(path: currentPath ?? "?", outcome: .failed)
                report.message = "\(error)"
                reports.append(report)
                return false
            }
        case .finished(let fileID, var report, let cut, let sha256):
            let totals = stored.removeValue(forKey: fileID) ?? (0, 0)
            report.events = totals.events
            report.duplicates = totals.duplicates
            do {
                _ = try writer.finish(fileID: fileID, cut: cut, sha256: sha256)
            } catch {
                report.outcome = .failed
                report.message = "\(error)"
                reports.append(report)
                return false
            }
            fileDone(report)
        case .report(let report):
            fileDone(report)
        }
        progress?(counters.snapshot())
        return true
    }

    private var currentPath: String? { counters.snapshot().currentPath }

    private mutating func fileDone(_ report: FileReport) {
        reports.append(report)
        counters.update { $0.filesDone += 1 }
    }
}
