import Foundation
import Reports
import TraceModel
import TraceStore

/// The events of the devices `check --stdin` does not replay as they come (beyond
/// `--devices-in-memory`): kept in a temporary file until the stream ends, then given back
/// device after device, each device's in stream order — an external merge sort, so that memory
/// is one run being gathered and a window on each run written, however long the stream and
/// however many devices it holds.
///
/// Each is kept as the event its line decoded to (``EventBytes``), not as the line: reading it
/// back is a copy of its texts, where decoding the JSON again cost as much as the replay. Events
/// are gathered into a run of about ``runBytes``; a full run is sorted by device, then by line
/// number, and written at the end of the file (a ``SpillFile``: unlinked from the start, so
/// nothing is left behind however the process ends). ``drain(_:)`` merges the runs.
final class DeviceSpill {
    /// A run's size: its events are held (and sorted) in memory before they are written.
    static let runBytes = 16 << 20
    /// How much of each written run the merge reads at a time.
    static let windowBytes = 64 << 10
    /// The most runs merged at once: beyond it, runs are first merged into longer ones, so that
    /// the windows of a very long spill (a run per 16 MB) stay a few megabytes.
    static let mostRunsMerged = 64
    /// Events read back and handed over at a time, and how many may wait (see ``drain(_:)``).
    static let batchEvents = 4096
    static let batchesWaiting = 4

    /// A record: the event's length (4 bytes), its line number (8), then the event's bytes,
    /// which begin with its device.
    static let headerBytes = 12

    private let runBytes: Int
    private let windowBytes: Int
    private let mostRunsMerged: Int
    /// The run being gathered, and where each of its records starts.
    @exclusivity(unchecked) private var gathered = ByteBuffer()
    @exclusivity(unchecked) private var starts: [Int] = []
    private var file: SpillFile?
    /// The runs written: their byte ranges in the file.
    private var runs: [Range<Int>] = []
    /// Events taken so far.
    @exclusivity(unchecked) private(set) var count = 0

    init(
        runBytes: Int = DeviceSpill.runBytes, windowBytes: Int = DeviceSpill.windowBytes,
        mostRunsMerged: Int = DeviceSpill.mostRunsMerged
    ) {
        self.runBytes = max(1, runBytes)
        self.windowBytes = max(Self.headerBytes, windowBytes)
        self.mostRunsMerged = max(2, mostRunsMerged)
    }

    /// Keeps `event`, of line `line`; throws when the file cannot be written.
    func append(_ event: borrowing Event, line: Int) throws(DeviceSpillError) {
        let start = gathered.count
        starts.append(start)
        // Room for a whole run at once: grown by doubling, the buffer would take up to twice a run.
        if start == 0 { gathered.reserve(runBytes + (1 << 16)) }
        gathered.reserve(Self.headerBytes)
        gathered.littleEndian(UInt32(0))
        gathered.littleEndian(UInt64(bitPattern: Int64(line)))
        EventBytes.append(event, to: gathered)
        gathered.littleEndian(UInt32(truncatingIfNeeded: gathered.count - start - Self.headerBytes), at: start)
        count += 1
        guard gathered.count >= runBytes else { return }
        do { try writeRun() } catch { throw .unwritable(SpillFile.code(of: error)) }
    }

    /// Calls `body` with every event kept, device after device (in the byte order of their ids),
    /// each device's in line order. Once only: they are gone after it.
    ///
    /// The runs are merged and the events read back on a thread of their own, a batch at a time,
    /// while `body` takes the batch before: with the replay on the calling thread, that is the
    /// core the stream's decoding used.
    func drain(_ body: (Event) throws -> Void) throws {
        do { try writeRun() } catch { throw DeviceSpillError.unwritable(SpillFile.code(of: error)) }
        guard let file else { return }
        gathered.removeAll()
        try mergeDown(in: file)
        let written = runs
        (starts, runs, self.file) = ([], [], nil)
        let queue = BoundedQueue<[Event]>(capacity: Self.batchesWaiting)
        let reading = Reading()
        let windowBytes = windowBytes
        let thread = Thread {
            reading.read(file: file, runs: written, windowBytes: windowBytes, into: queue)
        }
        thread.name = "lifeline-spill-read"
        thread.start()
        var failure: (any Error)?
        do {
            while case let batches = queue.popAll(), !batches.isEmpty {
                for batch in batches {
                    for index in batch.indices { try body(batch[index]) }
                }
            }
        } catch {
            failure = error
        }
        // Stops the reading thread if `body` stopped first.
        queue.close()
        reading.done.wait()
        if let failure { throw failure }
        if let error = reading.error { throw error }
    }

    /// The thread that reads the runs back, and how it ended.
    private final class Reading: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var error: (any Error)?

        /// Merges the runs, hands their events over in batches, and closes the queue.
        func read(file: SpillFile, runs: [Range<Int>], windowBytes: Int, into queue: BoundedQueue<[Event]>) {
            defer {
                queue.close()
                done.signal()
            }
            var batch: [Event] = []
            batch.reserveCapacity(DeviceSpill.batchEvents)
            do {
                var merge = try SpillRunMerge(file: file, runs: runs, windowBytes: windowBytes)
                var reader = EventBytes.Reader()
                try merge.forEach { line, bytes in
                    guard let event = reader.event(bytes) else { throw DeviceSpillError.undecodable(line: line) }
                    batch.append(event)
                    guard batch.count == DeviceSpill.batchEvents else { return true }
                    defer { batch = []; batch.reserveCapacity(DeviceSpill.batchEvents) }
                    return queue.push(batch)
                }
                if !batch.isEmpty { queue.push(batch) }
            } catch let error as DeviceSpillError {
                self.error = error
            } catch {
                self.error = DeviceSpillError.unreadable(SpillFile.code(of: error))
            }
        }
    }

    /// Merges the oldest runs, ``mostRunsMerged`` at a time, into one longer run each, written at
    /// the end of the file, until no more than that many are left. The file keeps the runs merged
    /// (it is only read at offsets, and goes with the process), so a spill of more than
    /// ``mostRunsMerged`` runs takes the disk twice or more.
    private func mergeDown(in file: SpillFile) throws {
        while runs.count > mostRunsMerged {
            let group = Array(runs.prefix(mostRunsMerged))
            runs.removeFirst(group.count)
            let begin = file.size
            let merged = ByteBuffer()
            do {
                var merge = try SpillRunMerge(file: file, runs: group, windowBytes: windowBytes)
                try merge.forEach { line, event in
                    merged.reserve(Self.headerBytes + event.count)
                    merged.littleEndian(UInt32(truncatingIfNeeded: event.count))
                    merged.littleEndian(UInt64(bitPattern: Int64(line)))
                    merged.copy(event)
                    try Self.writeOut(merged, to: file, once: 1 << 20)
                    return true
                }
                try Self.writeOut(merged, to: file)
            } catch let error as DeviceSpillError {
                throw error
            } catch {
                throw DeviceSpillError.unwritable(SpillFile.code(of: error))
            }
            runs.append(begin ..< file.size)
        }
    }

    /// Sorts the run gathered and writes it at the end of the file.
    private func writeRun() throws {
        guard !starts.isEmpty else { return }
        let file = try self.file ?? SpillFile(prefix: "lifeline-devices")
        self.file = file
        let begin = file.size
        let bytes = gathered.bytes
        starts.sort { SpillRecord(bytes, at: $0).precedes(SpillRecord(bytes, at: $1)) }
        let sorted = ByteBuffer()
        for start in starts {
            let record = SpillRecord(bytes, at: start)
            sorted.reserve(record.length)
            sorted.copy(UnsafeRawBufferPointer(rebasing: bytes[start ..< start + record.length]))
            try Self.writeOut(sorted, to: file, once: 1 << 20)
        }
        try Self.writeOut(sorted, to: file)
        runs.append(begin ..< file.size)
        gathered.clear()
        starts.removeAll(keepingCapacity: true)
    }
}

extension DeviceSpill {
    /// Appends what `buffer` holds to `file` and empties it, once it holds `bytes` or more (a run
    /// is written a megabyte at a time, not gathered whole a second time).
    fileprivate static func writeOut(_ buffer: ByteBuffer, to file: SpillFile, once bytes: Int = 0) throws {
        guard buffer.count >= bytes, buffer.count > 0 else { return }
        try file.append(buffer.bytes)
        buffer.clear()
    }
}

/// Why a ``DeviceSpill`` could not keep or give back its events.
enum DeviceSpillError: Error, CustomStringConvertible {
    case unwritable(Int32)
    case unreadable(Int32)
    /// An event spilled that its bytes did not give back.
    case undecodable(line: Int)

    var description: String {
        switch self {
        case .unwritable(let code):
            "could not write the events of devices beyond --devices-in-memory to a temporary file "
                + "(\(String(cString: strerror(code)))): free space in \(SpillFile.directory), set TMPDIR, "
                + "or raise --devices-in-memory"
        case .unreadable(let code):
            "could not read events back from their temporary file (\(String(cString: strerror(code))))"
        case .undecodable(let line):
            "the event of line \(line) could not be read back from its temporary file (internal error)"
        }
    }
}
