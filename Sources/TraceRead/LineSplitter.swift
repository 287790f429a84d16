#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Cuts decompressed chunks into lines. Lines inside a chunk are handed out in place; only a
/// line straddling chunks is copied, into one carry buffer that grows to at most
/// `max(maxLineBytes, Line.prefixLimit)` and is reused, so memory stays bounded whatever
/// the input.
final class LineSplitter {
    let maxLineBytes: Int
    /// Number of the last line handed out.
    private(set) var lineNumber = 0
    private var carry: UnsafeMutableRawPointer
    private var carryCapacity: Int
    private let carryLimit: Int
    private var carryCount = 0
    /// Length so far of an over-long line being skipped, or nil; while skipping, `carry`
    /// holds only the line's first bytes.
    private var skippedLength: Int?
    /// The next bytes up to the first newline are the rest of a line already counted as lost.
    private(set) var droppingTail = false

    init(maxLineBytes: Int) {
        precondition(maxLineBytes > 0, "maxLineBytes must be positive")
        self.maxLineBytes = maxLineBytes
        carryLimit = max(maxLineBytes, Line.prefixLimit)
        carryCapacity = min(carryLimit, 64 << 10)
        carry = .allocate(byteCount: carryCapacity, alignment: 16)
    }

    deinit { carry.deallocate() }

    /// Whether an unterminated line is waiting for more input.
    var hasPartialLine: Bool { carryCount > 0 || skippedLength != nil }

    /// Hands each line completed by `chunk` to `body`; false once `body` asked to stop.
    func feed(_ chunk: UnsafeRawBufferPointer, _ body: (Line) throws -> Bool) rethrows -> Bool {
        guard var start = chunk.baseAddress else { return true }
        let end = start + chunk.count
        if droppingTail {
            guard let found = memchr(start, 0x0A, end - start) else { return true }
            droppingTail = false
            start = UnsafeRawPointer(found) + 1
        }
        while start < end {
            guard let found = memchr(start, 0x0A, end - start) else {
                hold(start, end - start)
                return true
            }
            let newline = UnsafeRawPointer(found)
            guard try endLine(start, newline - start, body) else { return false }
            start = newline + 1
        }
        return true
    }

    /// At the clean end of input, hands out the unterminated last line, if any.
    func finish(_ body: (Line) throws -> Bool) rethrows {
        guard hasPartialLine else { return }
        if let skipped = skippedLength {
            _ = try deliver(carry, carryCount, skipped, .tooLong(totalBytes: skipped), body)
        } else {
            let count = withoutCR(carry, carryCount)
            _ = try deliver(carry, count, count, .complete, body)
        }
        _ = forgetPartialLine()
    }

    /// Forgets the unterminated line held, if any, because the stream was damaged or cut
    /// inside it; true if there was one.
    func forgetPartialLine() -> Bool {
        defer {
            carryCount = 0
            skippedLength = nil
            droppingTail = false
        }
        return hasPartialLine
    }

    /// Gives `count` lost lines their numbers, so that later lines keep the numbers they have
    /// in the intact file; with `tailFollows`, the bytes up to the next newline are the rest of
    /// the last of them and are dropped.
    func skip(lines count: Int, tailFollows: Bool) {
        lineNumber += count
        droppingTail = tailFollows
    }

    /// Finishes the current line, whose last `count` bytes start at `start`.
    @inline(__always)
    private func endLine(_ start: UnsafeRawPointer, _ count: Int, _ body: (Line) throws -> Bool) rethrows -> Bool {
        if let skipped = skippedLength {
            keepPrefix(start, count)
            skippedLength = nil
            defer { carryCount = 0 }
            let total = skipped + count
            return try deliver(carry, carryCount, total, .tooLong(totalBytes: total), body)
        }
        if carryCount == 0 {
            if count > maxLineBytes {
                return try deliver(start, min(count, Line.prefixLimit), count, .tooLong(totalBytes: count), body)
            }
            let length = withoutCR(start, count)
            return try deliver(start, length, length, .complete, body)
        }
        defer { carryCount = 0 }
        let total = carryCount + count
        if total > maxLineBytes {
            carryCount = min(carryCount, Line.prefixLimit)
            keepPrefix(start, count)
            return try deliver(carry, carryCount, total, .tooLong(totalBytes: total), body)
        }
        append(start, count)
        let length = withoutCR(carry, carryCount)
        return try deliver(carry, length, length, .complete, body)
    }

    /// Keeps the unterminated tail of a chunk, or once the line is over-long, only its prefix.
    private func hold(_ start: UnsafeRawPointer, _ count: Int) {
        if let skipped = skippedLength {
            skippedLength = skipped + count
            keepPrefix(start, count)
            return
        }
        let total = carryCount + count
        if total > maxLineBytes {
            skippedLength = total
            carryCount = min(carryCount, Line.prefixLimit)
            keepPrefix(start, count)
        } else {
            append(start, count)
        }
    }

    private func keepPrefix(_ start: UnsafeRawPointer, _ count: Int) {
        let room = Line.prefixLimit - carryCount
        if room > 0 { append(start, min(room, count)) }
    }

    private func append(_ start: UnsafeRawPointer, _ count: Int) {
        let needed = carryCount + count
        if needed > carryCapacity {
            var capacity = carryCapacity
            while capacity < needed { capacity *= 2 }
            capacity = min(capacity, carryLimit)
            let grown = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
            grown.copyMemory(from: carry, byteCount: carryCount)
            carry.deallocate()
            carry = grown
            carryCapacity = capacity
        }
        (carry + carryCount).copyMemory(from: start, byteCount: count)
        carryCount = needed
    }

    @inline(__always)
    private func withoutCR(_ start: UnsafeRawPointer, _ count: Int) -> Int {
        count > 0 && start.load(fromByteOffset: count - 1, as: UInt8.self) == 0x0D ? count - 1 : count
    }

    @inline(__always)
    private func deliver(
        _ start: UnsafeRawPointer, _ count: Int, _ total: Int, _ kind: Line.Kind, _ body: (Line) throws -> Bool
    ) rethrows -> Bool {
        lineNumber += 1
        let bytes = UnsafeRawBufferPointer(start: start, count: count)
        return try body(Line(number: lineNumber, bytes: bytes, totalBytes: total, kind: kind))
    }
}
