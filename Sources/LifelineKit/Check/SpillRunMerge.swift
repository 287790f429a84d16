#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Reports

/// A record of a ``DeviceSpill`` whose header (and, for ``event``, whole bytes) lie in `bytes` from
/// `start`.
struct SpillRecord {
    let bytes: UnsafeRawBufferPointer
    let start: Int

    init(_ bytes: UnsafeRawBufferPointer, at start: Int) {
        self.bytes = bytes
        self.start = start
    }

    var eventCount: Int { Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt32.self))) }
    var line: Int { Int(truncatingIfNeeded: Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: start + 4, as: Int64.self))) }
    var length: Int { DeviceSpill.headerBytes + eventCount }

    var event: UnsafeRawBufferPointer {
        let from = start + DeviceSpill.headerBytes
        return UnsafeRawBufferPointer(rebasing: bytes[from ..< from + eventCount])
    }

    /// Device, then line number.
    func precedes(_ other: SpillRecord) -> Bool {
        let mine = EventBytes.device(in: event) ?? UnsafeRawBufferPointer(start: nil, count: 0)
        let theirs = EventBytes.device(in: other.event) ?? UnsafeRawBufferPointer(start: nil, count: 0)
        let common = min(mine.count, theirs.count)
        if common > 0, let a = mine.baseAddress, let b = theirs.baseAddress {
            let order = memcmp(a, b, common)
            if order != 0 { return order < 0 }
        }
        if mine.count != theirs.count { return mine.count < theirs.count }
        return line < other.line
    }
}

/// The merge of a ``DeviceSpill``'s sorted runs: a window on each, and a heap of the runs by
/// their next record, so that each line costs a couple of comparisons while one run keeps
/// giving the smallest (a device's lines mostly lie together in one run).
struct SpillRunMerge {
    /// One run's unread part, and a window of it read into memory.
    private struct Cursor {
        var next: Int
        let end: Int
        var window: [UInt8] = []
        /// Where the current record starts in `window`.
        var at = 0

        /// Makes the next record whole in the window; false when the run is over.
        mutating func load(from file: SpillFile, windowBytes: Int) throws -> Bool {
            guard try fill(from: file, available: DeviceSpill.headerBytes, windowBytes: windowBytes) else { return false }
            let length = window.withUnsafeBytes { SpillRecord($0, at: at).length }
            // A record cut off by the end of its run: the file is not what this process wrote.
            guard try fill(from: file, available: length, windowBytes: windowBytes) else { throw DeviceSpillError.unreadable(EIO) }
            return true
        }

        /// Reads more of the run until `needed` bytes lie in the window from the current record;
        /// false when the run is over (none left); throws when it ends inside a record.
        private mutating func fill(from file: SpillFile, available needed: Int, windowBytes: Int) throws -> Bool {
            let held = window.count - at
            guard held < needed else { return true }
            let wanted = min(max(needed - held, windowBytes), end - next)
            guard held + wanted >= needed else {
                if held == 0 && wanted == 0 { return false }
                throw DeviceSpillError.unreadable(EIO)
            }
            window.removeSubrange(0 ..< at)
            at = 0
            let filled = window.count
            window.append(contentsOf: repeatElement(0, count: wanted))
            let offset = next
            try window.withUnsafeMutableBytes { bytes in
                try file.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[filled...]), at: offset)
            }
            next += wanted
            return true
        }
    }

    private let file: SpillFile
    private let windowBytes: Int
    private var cursors: [Cursor]
    /// The cursors with a record, as a binary heap: the one with the smallest record first.
    private var heap: [Int] = []

    init(file: SpillFile, runs: [Range<Int>], windowBytes: Int) throws {
        self.file = file
        self.windowBytes = windowBytes
        cursors = runs.map { Cursor(next: $0.lowerBound, end: $0.upperBound) }
        for index in cursors.indices where try cursors[index].load(from: file, windowBytes: windowBytes) {
            heap.append(index)
            siftUp(heap.count - 1)
        }
    }

    /// Passes each record to `body`, in order, until it returns false.
    mutating func forEach(
        _ body: (_ line: Int, _ event: UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        while let top = heap.first {
            let at = cursors[top].at
            let (length, more) = try cursors[top].window.withUnsafeBytes { bytes in
                let record = SpillRecord(bytes, at: at)
                return (record.length, try body(record.line, record.event))
            }
            guard more else { return }
            cursors[top].at += length
            if try cursors[top].load(from: file, windowBytes: windowBytes) {
                siftDown(0)
            } else {
                heap.swapAt(0, heap.count - 1)
                heap.removeLast()
                if !heap.isEmpty { siftDown(0) }
            }
        }
    }

    private func less(_ a: Int, _ b: Int) -> Bool {
        cursors[a].window.withUnsafeBytes { first in
            cursors[b].window.withUnsafeBytes { second in
                SpillRecord(first, at: cursors[a].at).precedes(SpillRecord(second, at: cursors[b].at))
            }
        }
    }

    private mutating func siftUp(_ position: Int) {
        var child = position
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(heap[child], heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ position: Int) {
        var parent = position
        while true {
            let (left, right) = (2 * parent + 1, 2 * parent + 2)
            var smallest = parent
            if left < heap.count, less(heap[left], heap[smallest]) { smallest = left }
            if right < heap.count, less(heap[right], heap[smallest]) { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
