import Foundation
import TraceDecode
import TraceRead

/// One line of a stream as the decoding workers left it, for the calling thread to take in order.
enum DecodedLine {
    case decoded(line: Int, DecodeResult)
    /// Longer than the reader's cap: not decoded (its bytes were not kept).
    case tooLong(line: Int, totalBytes: Int)
    /// Compressed input was lost to damage between the line before and the next (the reader's
    /// `damage` says where); a cut at the stream's end, with no line after it, comes as no marker.
    case damaged
}

/// Decodes the lines of one stream on several cores while the calling thread takes them in order.
///
/// A thread of its own reads the stream (decompresses and splits it) into blocks of lines; workers
/// decode blocks as they come; the caller gets every line, in the stream's order, on its own
/// thread, where the replay runs. Decoding is a third of `check --stdin`'s work and needs nothing
/// but the line, so it is the part that spreads over cores without changing a byte of the output;
/// the order the replay sees is the stream's, as when one thread did it all.
///
/// Memory is bounded: at most ``blocksInFlight`` blocks (of at most ``blockLines`` lines or
/// ``blockBytes`` bytes) are read and not yet taken, however far the reader could run ahead.
enum ParallelDecoder {
    static let blockLines = 4096
    static let blockBytes = 1 << 20

    /// Decoders beyond a handful only wait on the caller's thread, which replays every event.
    static let maxWorkers = 8

    static func workers(cores: Int = AvailableCores.count) -> Int {
        min(max(1, cores), maxWorkers)
    }

    /// Reads `reader` to its end and calls `body` with each line in order, on the calling thread;
    /// `body` returning false stops the reading. Rethrows the reader's error (a failed read) once
    /// the lines before it have been taken; the reader's `damage` and `cut` are final on return.
    static func forEachLine(
        of reader: LineReader, workers: Int = workers(), _ body: (DecodedLine) -> Bool
    ) throws {
        let pipeline = Pipeline(blocksInFlight: 2 * workers + 2)
        let group = DispatchGroup()
        // The reading thread has the reader to itself until the group is done; then the caller.
        nonisolated(unsafe) let reader = reader
        start("lifeline-read", in: group) { pipeline.read(reader) }
        for index in 0 ..< workers {
            start("lifeline-decode-\(index)", in: group) { pipeline.decode() }
        }
        taking: while var lines = pipeline.next() {
            // Last to first, as the workers left them: `popLast` moves each line out, where
            // iterating would copy each event and then destroy the array's.
            while let line = lines.popLast() {
                guard body(line) else {
                    pipeline.cancel()
                    break taking
                }
            }
        }
        group.wait()
        if let error = pipeline.readError { throw error }
    }

    private static func start(_ name: String, in group: DispatchGroup, _ work: @escaping @Sendable () -> Void) {
        group.enter()
        let thread = Thread {
            work()
            group.leave()
        }
        thread.name = name
        thread.start()
    }

    /// Lines copied out of the reader's buffers, to be decoded on another thread.
    private struct Block: Sendable {
        /// A line: where its bytes end in `bytes` (they start where the one before ends), or, for
        /// a line too long to keep, its length (its bytes are not copied).
        struct Entry: Sendable {
            let line: Int
            let end: Int
            let tooLong: Int?
            /// The first line read after a stretch of damage.
            let afterDamage: Bool
        }

        let sequence: Int
        var bytes: [UInt8] = []
        var entries: [Entry] = []

        init(sequence: Int) {
            self.sequence = sequence
            bytes.reserveCapacity(ParallelDecoder.blockBytes)
            entries.reserveCapacity(ParallelDecoder.blockLines)
        }

        var isFull: Bool { entries.count >= ParallelDecoder.blockLines || bytes.count >= ParallelDecoder.blockBytes }

        mutating func append(_ line: Line, afterDamage: Bool) {
            switch line.kind {
            case .complete:
                bytes.append(contentsOf: line.bytes)
                entries.append(Entry(line: line.number, end: bytes.count, tooLong: nil, afterDamage: afterDamage))
            case .tooLong(let totalBytes):
                entries.append(Entry(line: line.number, end: bytes.count, tooLong: totalBytes, afterDamage: afterDamage))
            }
        }

        /// The block's lines decoded, last first.
        func decode(with decoder: inout EventDecoder) -> [DecodedLine] {
            var lines: [DecodedLine] = []
            lines.reserveCapacity(entries.count)
            bytes.withUnsafeBytes { buffer in
                for index in entries.indices.reversed() {
                    let entry = entries[index]
                    if let totalBytes = entry.tooLong {
                        lines.append(.tooLong(line: entry.line, totalBytes: totalBytes))
                    } else {
                        let start = index == 0 ? 0 : entries[index - 1].end
                        let text = UnsafeRawBufferPointer(rebasing: buffer[start ..< entry.end])
                        lines.append(.decoded(line: entry.line, decoder.decode(text)))
                    }
                    // Last first: the marker is taken before its line.
                    if entry.afterDamage { lines.append(.damaged) }
                }
            }
            return lines
        }
    }

    /// The state the three kinds of thread share, under one lock: blocks are coarse (thousands of
    /// lines), so the lock is taken a few hundred times a second.
    private final class Pipeline: @unchecked Sendable {
        private let condition = NSCondition()
        private let blocksInFlight: Int
        private var waiting: [Block] = []
        private var decoded: [Int: [DecodedLine]] = [:]
        /// Blocks read and not yet taken by the caller.
        private var inFlight = 0
        private var blocksRead = 0
        private var readingDone = false
        private var cancelled = false
        private var nextToTake = 0
        private(set) var readError: (any Error)?

        init(blocksInFlight: Int) {
            self.blocksInFlight = blocksInFlight
        }

        /// The reading thread.
        func read(_ reader: LineReader) {
            var block = Block(sequence: 0)
            var failure: (any Error)?
            var damageSeen = 0
            do {
                try reader.forEachLine { line in
                    // Read between lines, while the reader is not recording any.
                    let damage = reader.damage.count
                    block.append(line, afterDamage: damage > damageSeen)
                    damageSeen = damage
                    guard block.isFull else { return true }
                    let next = block.sequence + 1
                    guard submit(block) else { return false }
                    block = Block(sequence: next)
                    return true
                }
                if !block.entries.isEmpty { _ = submit(block) }
            } catch {
                if !block.entries.isEmpty { _ = submit(block) }
                failure = error
            }
            locked {
                readError = failure
                readingDone = true
            }
        }

        /// Waits for room; false once the caller has stopped.
        private func submit(_ block: Block) -> Bool {
            locked {
                while inFlight >= blocksInFlight && !cancelled { condition.wait() }
                guard !cancelled else { return false }
                waiting.append(block)
                inFlight += 1
                blocksRead += 1
                return true
            }
        }

        /// A decoding thread: takes blocks until the reading is done and none is left.
        func decode() {
            var decoder = EventDecoder()
            while let block = takeWaiting() {
                let lines = block.decode(with: &decoder)
                locked { decoded[block.sequence] = lines }
            }
        }

        private func takeWaiting() -> Block? {
            locked {
                while waiting.isEmpty && !readingDone && !cancelled { condition.wait() }
                guard !cancelled, !waiting.isEmpty else { return nil }
                return waiting.removeFirst()
            }
        }

        /// The caller's thread: the next block's lines, in order; nil at the end.
        func next() -> [DecodedLine]? {
            locked {
                while decoded[nextToTake] == nil && !(readingDone && nextToTake >= blocksRead) {
                    condition.wait()
                }
                guard let lines = decoded.removeValue(forKey: nextToTake) else { return nil }
                nextToTake += 1
                inFlight -= 1
                return lines
            }
        }

        func cancel() {
            locked { cancelled = true }
        }

        /// Runs `body` under the lock and wakes every waiter: each change here is one some other
        /// thread may be waiting for.
        private func locked<T>(_ body: () -> T) -> T {
            condition.lock()
            defer {
                condition.broadcast()
                condition.unlock()
            }
            return body()
        }
    }
}
