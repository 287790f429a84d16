import Foundation
import TraceDecode
import TraceModel
import TraceRead
import TraceStore

/// Reads input files into the store: decompressing and decoding on one thread while another
/// commits batches, so both cores work and memory stays bounded by the queue between them.
///
/// Never throws for bad input: each path's fate, good or bad, is in the returned summary.
public final class Ingestor: Sendable {
    public struct Options: Sendable {
        /// Events per transaction: large enough to amortise a commit, small enough that an
        /// interrupted ingest loses little work and memory stays low.
        public var batchSize = 8_192
        /// Events that may wait between the reading and the writing thread (bounds memory;
        /// the writer commits everything waiting in one transaction).
        public var queuedEvents = 32_768
        /// Lines longer than this are kept aside as `line-too-long` instead of decoded.
        public var maxLineBytes = 1 << 20

        public init() {}
    }

    private let store: Store
    private let options: Options

    public init(store: Store, options: Options = Options()) {
        self.store = store
        self.options = options
    }

    public func ingest(
        _ paths: [String], progress: (@Sendable (IngestProgress) -> Void)? = nil
    ) -> IngestSummary {
        let started = Date()
        let claim = IngestClaim.begin()
        defer { claim.end() }
        // Best effort: a failure here is the database's, and the ingest meets it again at once.
        _ = try? store.interruptAbandonedStreams()
        let inputs = InputPaths.expand(paths)
        let counters = ProgressCounters(filesTotal: inputs.count)
        let queue = BoundedQueue<IngestMessage>(capacity: options.queuedEvents)
        let reader = FileReadingLoop(store: store, options: options, queue: queue, counters: counters)
        let readerDone = DispatchSemaphore(value: 0)
        let thread = Thread {
            reader.run(inputs)
            queue.close()
            readerDone.signal()
        }
        thread.name = "lifeline-read"
        thread.start()

        var writer = BatchWritingLoop(store: store, claim: claim, counters: counters, progress: progress)
        while case let messages = queue.popAll(), !messages.isEmpty {
            if !writer.handle(messages) {
                queue.close()
                break
            }
        }
        readerDone.wait()
        return IngestSummary(
            database: store.path, files: writer.reports, wallSeconds: Date().timeIntervalSince(started))
    }
}

/// What the reading thread hands to the writing thread. Files are known by a number the
/// reader gives them (`fileKey`); the writer maps it to the row id when it registers them.
enum IngestMessage: Sendable {
    /// A file to read from its first line: register it (in the writer's transaction).
    case register(fileKey: Int, FileRegistration)
    /// A file already registered by an interrupted ingest, to resume after `linesDone`.
    case resume(fileKey: Int, fileID: Int64, linesDone: Int)
    /// Lines of a file to commit (`batch.fileID` is filled in by the writer).
    case batch(fileKey: Int, IngestBatch)
    /// The file's last batch has been sent: what the reader knows about it.
    case finished(fileKey: Int, report: FileReport, ending: FileEnding)
    /// A file that needs no writing (skipped, or failed before any line).
    case report(FileReport)
}
