import Foundation
import TraceStore

/// The writing side of an ingest: commits what the reader sent, every message waiting at
/// once in one transaction, and keeps each file's report.
///
/// A file is written only under this ingest's claim (see `IngestClaim`): when the claim is
/// refused — another live ingest reads the same content — its lines are dropped and it is
/// reported skipped, so each file's lines are counted by the one process that stored them.
/// The counts are this ingest's own: events its inserts stored, duplicates its inserts met.
struct BatchWritingLoop {
    private let writer: EventWriter
    private let counters: ProgressCounters
    private let progress: (@Sendable (IngestProgress) -> Void)?
    private var files = Files()
    private(set) var reports: [FileReport] = []

    /// Per input (the reader's `fileKey`): the row it writes to and what it stored so far, or
    /// why it is not this ingest's to write.
    private struct Files {
        var ids: [Int: Int64] = [:]
        var stored: [Int: (events: Int, duplicates: Int)] = [:]
        var refused: [Int: FileSkip] = [:]

        mutating func note(_ outcome: FileClaimOutcome, fileKey: Int) {
            switch outcome {
            case .claimed(let fileID): ids[fileKey] = fileID
            case .refused(let reason): refused[fileKey] = reason
            }
        }
    }

    init(store: Store, claim: IngestClaim, counters: ProgressCounters, progress: (@Sendable (IngestProgress) -> Void)?) {
        self.writer = EventWriter(store: store, claim: claim)
        self.counters = counters
        self.progress = progress
    }

    /// Commits the messages; false after a database failure, which ends the ingest.
    mutating func handle(_ messages: [IngestMessage]) -> Bool {
        var done: [FileReport] = []
        var inserted = 0
        var duplicates = 0
        var files = self.files
        do {
            try writer.transaction { transaction in
                for message in messages {
                    switch message {
                    case .register(let fileKey, let registration):
                        files.note(try transaction.register(registration), fileKey: fileKey)
                    case .resume(let fileKey, let fileID, let linesDone):
                        files.note(try transaction.resume(fileID: fileID, linesDone: linesDone), fileKey: fileKey)
                    case .batch(let fileKey, var batch):
                        guard let fileID = files.ids[fileKey] else { continue }
                        batch.fileID = fileID
                        let outcome = try transaction.write(batch)
                        files.stored[fileKey, default: (0, 0)].events += outcome.inserted
                        files.stored[fileKey, default: (0, 0)].duplicates += outcome.duplicates
                        inserted += outcome.inserted
                        duplicates += outcome.duplicates
                    case .finished(let fileKey, var report, let ending):
                        if let reason = files.refused.removeValue(forKey: fileKey) {
                            done.append(Self.skipped(report, because: reason))
                            continue
                        }
                        guard let fileID = files.ids.removeValue(forKey: fileKey) else { continue }
                        let totals = files.stored.removeValue(forKey: fileKey) ?? (0, 0)
                        report.events = totals.events
                        report.duplicates = totals.duplicates
                        try transaction.finish(fileID: fileID, ending)
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
        self.files = files
        reports += done
        counters.update {
            $0.eventsStored += inserted
            $0.duplicates += duplicates
            $0.filesDone += done.count
        }
        progress?(counters.snapshot())
        return true
    }

    /// The report of a file the reader read but this ingest may not write.
    private static func skipped(_ read: FileReport, because reason: FileSkip) -> FileReport {
        var report = FileReport(path: read.path, outcome: .elsewhere)
        report.compression = read.compression
        report.bytes = read.bytes
        report.message = reason.description
        return report
    }
}
