import Foundation
import TraceDecode
import TraceModel
import TraceRead
import TraceStore

/// The reading side of an ingest: for each input, decide from its content hash whether to
/// read it, then decompress, split and decode it into batches for the writing side.
struct FileReadingLoop: Sendable {
    let store: Store
    let options: Ingestor.Options
    let queue: BoundedQueue<IngestMessage>
    let counters: ProgressCounters

    func run(_ inputs: [InputPaths.Input]) {
        for (fileKey, input) in inputs.enumerated() {
            let keepGoing: Bool
            switch input {
            case .file(let path): keepGoing = read(path: path, fileKey: fileKey, standardInput: false)
            case .standardInput: keepGoing = read(path: "-", fileKey: fileKey, standardInput: true)
            case .missing(let path, let reason):
                var report = FileReport(path: path, outcome: .failed)
                report.message = "\(path): \(reason)"
                keepGoing = queue.push(.report(report))
            }
            if !keepGoing { return }
        }
    }

    /// Reads one input; false if the writing side has stopped.
    private func read(path: String, fileKey: Int, standardInput: Bool) -> Bool {
        counters.update { $0.currentPath = path }
        var report = FileReport(path: path, outcome: .ingested)
        let reader: LineReader
        let admission: FileAdmission
        let sha256: String?
        do {
            sha256 = standardInput ? nil : try FileFingerprint.sha256(path: path)
            admission = try store.admission(sha256: sha256)
            if let reason = admission.skipReason {
                report.outcome = .skipped
                report.message = reason
                return queue.push(.report(report))
            }
            reader = try LineReader(path: path, maxLineBytes: options.maxLineBytes, hashing: standardInput)
        } catch {
            report.outcome = .failed
            report.message = "\(error)"
            return queue.push(.report(report))
        }
        report.compression = reader.compression.rawValue

        var skipThrough = 0
        let opened: Bool
        switch admission {
        case .resume(let fileID, let linesDone):
            skipThrough = linesDone
            report.outcome = .resumed
            report.message = "resumed after line \(linesDone)"
            opened = queue.push(.resume(fileKey: fileKey, fileID: fileID, linesDone: linesDone))
        default:
            let size = standardInput ? nil : (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int).map(Int64.init)
            opened = queue.push(.register(fileKey: fileKey, FileRegistration(
                path: path, size: size, sha256: sha256, compression: reader.compression.rawValue)))
        }
        guard opened else { return false }

        var decoder = EventDecoder()
        var batch = IngestBatch(fileID: 0)
        var writerStopped = false
        let batchSize = options.batchSize
        do {
            try reader.forEachLine { line in
                guard line.number > skipThrough else { return true }
                report.lines += 1
                if let rejected = decode(line, with: &decoder, into: &batch) {
                    report.rejects[rejected.rawValue, default: 0] += 1
                }
                batch.throughLine = line.number
                if batch.events.count >= batchSize {
                    countBytes(reader.compressedBytesRead, into: &report)
                    guard queue.push(.batch(fileKey: fileKey, batch), weight: batch.events.count) else {
                        writerStopped = true
                        return false
                    }
                    batch = IngestBatch(fileID: 0)
                }
                return true
            }
        } catch {
            report.cut = "\(error)"
            report.truncated = true
        }
        if writerStopped { return false }
        if batch.throughLine > 0 {
            guard queue.push(.batch(fileKey: fileKey, batch), weight: max(1, batch.events.count)) else { return false }
        }
        countBytes(reader.compressedBytesRead, into: &report)
        if let cut = reader.cut {
            report.truncated = true
            report.cut = cut.description
        }
        return queue.push(.finished(fileKey: fileKey, report: report, cut: reader.cut, sha256: reader.sha256))
    }

    private func countBytes(_ bytes: Int, into report: inout FileReport) {
        let added = bytes - report.bytes
        counters.update { $0.bytesRead += added }
        report.bytes = bytes
    }

    /// Decodes one line into the batch; returns the reason if it was kept aside.
    private func decode(_ line: Line, with decoder: inout EventDecoder, into batch: inout IngestBatch) -> RejectReason? {
        let issue: LineIssue
        switch line.kind {
        case .complete:
            switch decoder.decode(line.bytes) {
            case .event(let event):
                batch.append(event, line: line.number)
                return nil
            case .blank:
                return nil
            case .reject(let lineIssue):
                issue = lineIssue
            }
        case .tooLong(let totalBytes):
            issue = LineIssue(
                .lineTooLong, "line of \(totalBytes) bytes is longer than the \(options.maxLineBytes)-byte cap")
        case .cutShort:
            issue = LineIssue(.cutShort, "last line cut short where the stream ended (\(line.totalBytes) bytes)")
        }
        batch.rejects.append(RejectedLine(line: line.number, issue: issue, raw: line.bytes, rawBytes: line.totalBytes))
        return issue.reason
    }
}
