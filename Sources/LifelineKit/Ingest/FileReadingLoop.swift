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
        // The events of the last file read: the best guess of the next one's (files of one
        // upload are alike), so that its batch is allocated once.
        var expectedEvents = 0
        // The first path of each content read in this run: a copy later in the run is skipped
        // as what it is, not as "being ingested" by this very process (the first copy's claim).
        var firstPaths: [String: String] = [:]
        // A shell glob over the upload directory may name the database itself.
        let storeFiles = Self.identities(of: ["", "-wal", "-shm", "-journal"].map { store.path + $0 })
        for (fileKey, input) in inputs.enumerated() {
            let keepGoing: Bool
            switch input {
            case .file(let path) where !storeFiles.isDisjoint(with: Self.identities(of: [path])):
                var report = FileReport(path: path, outcome: .ignored)
                report.message = "the database this ingest writes into (or one of its files), not a log"
                keepGoing = queue.push(.report(report))
            case .file(let path):
                keepGoing = read(path: path, fileKey: fileKey, expectedEvents: &expectedEvents, firstPaths: &firstPaths)
            case .standardInput:
                keepGoing = read(path: "-", fileKey: fileKey, expectedEvents: &expectedEvents, firstPaths: &firstPaths)
            case .missing(let path, let reason):
                var report = FileReport(path: path, outcome: .failed)
                report.message = "\(path): \(reason)"
                keepGoing = queue.push(.report(report))
            case .notRegular(let path, let kind):
                var report = FileReport(path: path, outcome: .ignored)
                report.message = "not a regular file (\(kind)); name it on its own to read it"
                keepGoing = queue.push(.report(report))
            }
            if !keepGoing { return }
        }
    }

    /// The device and inode of each path that exists.
    private static func identities(of paths: [String]) -> Set<[UInt64]> {
        Set(paths.compactMap { path in
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            return [UInt64(truncatingIfNeeded: info.st_dev), UInt64(truncatingIfNeeded: info.st_ino)]
        })
    }

    /// Reads one input; false if the writing side has stopped.
    ///
    /// A regular file is hashed first, so that content already stored is skipped unread.
    /// Anything else (standard input, a FIFO, `<(command)`, a device) can be read only once:
    /// it is hashed while it is read, and its hash recorded at the end from the bytes read.
    /// `expectedEvents` is the size to reserve for the file's first batch; it is set to the
    /// number of events the file had.
    private func read(path: String, fileKey: Int, expectedEvents: inout Int, firstPaths: inout [String: String]) -> Bool {
        counters.update { $0.currentPath = path }
        var report = FileReport(path: path, outcome: .ingested)
        let reader: LineReader
        let admission: FileAdmission
        let sha256: String?
        let readOnce = path == "-" || (try? PathKind.of(path).get()) != .regular
        do {
            sha256 = readOnce ? nil : try FileFingerprint.sha256(path: path)
            if let sha256 {
                if let first = firstPaths[sha256] {
                    report.outcome = .skipped
                    report.message = "the same content as \(first), read earlier in this run"
                    return queue.push(.report(report))
                }
                firstPaths[sha256] = path
            }
            admission = try store.admission(sha256: sha256)
            if let reason = admission.skipReason {
                if case .busy = admission { report.outcome = .elsewhere } else { report.outcome = .skipped }
                report.message = reason
                return queue.push(.report(report))
            }
            reader = try LineReader(path: path, maxLineBytes: options.maxLineBytes, hashing: readOnce)
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
            let size = readOnce ? nil : (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int).map(Int64.init)
            opened = queue.push(.register(fileKey: fileKey, FileRegistration(
                path: path, size: size, sha256: sha256, compression: reader.compression.rawValue)))
        }
        guard opened else { return false }

        var decoder = EventDecoder()
        var blankLines = 0
        /// Blank lines before the point a resumed file is read on from: the `files` row counts the file's.
        var blankLinesResumedOver = 0
        let batchSize = options.batchSize
        // Half again as much as the last file had: files of one upload vary in size too, and
        // every growth of the array copies the events already in it.
        let guess = min(expectedEvents, batchSize)
        var batch = IngestBatch(fileID: 0, expectedEvents: min(guess + guess / 2, batchSize))
        var fileEvents = 0
        var writerStopped = false
        do {
            try reader.forEachLine { line in
                guard line.number > skipThrough else {
                    // Committed by the interrupted run; only the file's blank lines are counted again.
                    if case .complete = line.kind, case .blank = decoder.decode(line.bytes) { blankLinesResumedOver += 1 }
                    return true
                }
                report.lines += 1
                switch decode(line, with: &decoder, into: &batch) {
                case .stored: break
                case .blank: blankLines += 1
                case .rejected(let issue):
                    report.rejects[issue.reason.rawValue, default: 0] += 1
                    if report.firstRejects.count < FileReport.rejectsShown {
                        report.firstRejects.append(FileReport.RejectedAt(line: line.number, issue: issue))
                    }
                }
                batch.throughLine = line.number
                if batch.events.count >= batchSize {
                    countBytes(reader.compressedBytesRead, into: &report)
                    fileEvents += batch.events.count
                    guard queue.push(.batch(fileKey: fileKey, batch), weight: batch.events.count) else {
                        writerStopped = true
                        return false
                    }
                    batch = IngestBatch(fileID: 0, expectedEvents: batchSize)
                }
                return true
            }
        } catch {
            report.cut = "\(error)"
            report.truncated = true
        }
        if writerStopped { return false }
        expectedEvents = fileEvents + batch.events.count
        if batch.throughLine > 0 {
            guard queue.push(.batch(fileKey: fileKey, batch), weight: max(1, batch.events.count)) else { return false }
        }
        countBytes(reader.compressedBytesRead, into: &report)
        report.damage = reader.damage
        report.lostLines = reader.lostLines
        report.lines += reader.lostLines
        report.blankLines = blankLines
        if let cut = reader.cut {
            report.truncated = true
            report.cut = cut.description
        }
        let ending = FileEnding(
            damage: reader.damage, lines: reader.lineCount, blankLines: blankLinesResumedOver + blankLines,
            sha256: reader.sha256)
        return queue.push(.finished(fileKey: fileKey, report: report, ending: ending))
    }

    private func countBytes(_ bytes: Int, into report: inout FileReport) {
        let added = bytes - report.bytes
        counters.update { $0.bytesRead += added }
        report.bytes = bytes
    }

    /// What became of a line.
    private enum LineFate {
        case stored, blank
        case rejected(LineIssue)
    }

    /// Decodes one line into the batch.
    private func decode(_ line: Line, with decoder: inout EventDecoder, into batch: inout IngestBatch) -> LineFate {
        let issue: LineIssue
        switch line.kind {
        case .complete:
            switch decoder.decode(line.bytes) {
            case .event(let event):
                batch.append(event, line: line.number)
                return .stored
            case .blank:
                return .blank
            case .reject(let lineIssue):
                issue = lineIssue
            }
        case .tooLong(let totalBytes):
            issue = LineIssue(
                .lineTooLong, "line of \(totalBytes) bytes is longer than the \(options.maxLineBytes)-byte cap")
        }
        batch.rejects.append(RejectedLine(line: line.number, issue: issue, raw: line.bytes, rawBytes: line.totalBytes))
        return .rejected(issue)
    }
}
