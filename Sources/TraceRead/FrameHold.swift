#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The decompressed output of the frame (or gzip member) being decoded, held back until the
/// frame ends and verifies, because decoders hand out data before they can check it: libzstd
/// checks a frame's content checksum and zlib a member's CRC32 and length only after the
/// last byte, so a line delivered as it is decoded may turn out to be damaged.
///
/// Decoders write straight into this buffer, so a healthy frame costs no copy over decoding
/// into a fixed output buffer. The memory part grows to `memoryCap` at most; a larger frame
/// (one frame for a whole log is legal) is spilled to an unlinked temporary file, so memory
/// stays bounded whatever the frame's size.
final class FrameHold {
    private var buffer: UnsafeMutableRawPointer
    private var capacity: Int
    private let memoryCap: Int
    /// Bytes held in memory, after the spilled ones.
    private var count = 0
    /// The spill file, -1 until a frame outgrows memory.
    private var spill: Int32 = -1
    private var spilledBytes = 0
    private var spilledNewlines = 0
    private var spilledLastByte: UInt8 = 0x0A

    init(initialCapacity: Int, memoryCap: Int) {
        capacity = max(1, min(initialCapacity, memoryCap))
        self.memoryCap = max(memoryCap, capacity)
        buffer = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        buffer.deallocate()
        if spill >= 0 { close(spill) }
    }

    var isEmpty: Bool { count == 0 && spilledBytes == 0 }

    /// Free space of at least `minimum` bytes (when the memory cap allows) at the end of what
    /// is held, for a decoder to write into; `commit` what it wrote.
    func space(atLeast minimum: Int) throws(ReadError) -> UnsafeMutableRawBufferPointer {
        if capacity - count < minimum {
            if count + minimum <= memoryCap {
                var grown = capacity
                while grown - count < minimum { grown *= 2 }
                grow(to: min(grown, memoryCap))
            } else {
                try spillMemory()
            }
        }
        return UnsafeMutableRawBufferPointer(start: buffer + count, count: capacity - count)
    }

    func commit(_ written: Int) { count += written }

    /// Lines the held bytes end (newlines), and whether they stop inside a line.
    func tally() -> (newlines: Int, endsMidLine: Bool) {
        let newlines = spilledNewlines + Self.newlines(in: UnsafeRawBufferPointer(start: buffer, count: count))
        let last = count > 0 ? buffer.load(fromByteOffset: count - 1, as: UInt8.self) : spilledLastByte
        return (newlines, !isEmpty && last != 0x0A)
    }

    /// Hands out everything held, in order, then empties the hold; false if `body` asked to stop.
    func drain(_ body: (UnsafeRawBufferPointer) throws -> Bool) throws -> Bool {
        defer { discard() }
        if spilledBytes > 0 {
            let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
            defer { chunk.deallocate() }
            var offset = 0
            while offset < spilledBytes {
                let n = pread(spill, chunk.baseAddress, min(chunk.count, spilledBytes - offset), off_t(offset))
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { throw ReadError.readFailed(path: "the frame spill file", reason: systemErrorText(errno)) }
                offset += n
                guard try body(UnsafeRawBufferPointer(rebasing: chunk[..<n])) else { return false }
            }
        }
        return count == 0 ? true : try body(UnsafeRawBufferPointer(start: buffer, count: count))
    }

    /// Forgets what is held (the frame was damaged, or has been delivered).
    func discard() {
        count = 0
        spilledBytes = 0
        spilledNewlines = 0
        spilledLastByte = 0x0A
    }

    private func grow(to newCapacity: Int) {
        let grown = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
        grown.copyMemory(from: buffer, byteCount: count)
        buffer.deallocate()
        buffer = grown
        capacity = newCapacity
    }

    /// Moves the memory part to the end of the spill file, creating it (unlinked at once, so
    /// nothing is left behind however the process ends) the first time.
    private func spillMemory() throws(ReadError) {
        if capacity < memoryCap { grow(to: memoryCap) }
        guard count > 0 else { return }
        if spill < 0 {
            var template = Array("\(Self.temporaryDirectory)/lifeline-frame-XXXXXX".utf8CString)
            let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard descriptor >= 0 else {
                throw .readFailed(path: "a temporary file for a large frame", reason: systemErrorText(errno))
            }
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
            spill = descriptor
        }
        let held = UnsafeRawBufferPointer(start: buffer, count: count)
        var written = 0
        while written < count {
            let n = pwrite(spill, buffer + written, count - written, off_t(spilledBytes + written))
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                throw .readFailed(path: "a temporary file for a large frame", reason: systemErrorText(errno))
            }
            written += n
        }
        spilledNewlines += Self.newlines(in: held)
        spilledLastByte = held[count - 1]
        spilledBytes += count
        count = 0
    }

    private static var temporaryDirectory: String {
        getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    static func newlines(in bytes: UnsafeRawBufferPointer) -> Int {
        guard var start = bytes.baseAddress else { return 0 }
        let end = start + bytes.count
        var found = 0
        while start < end, let hit = memchr(start, 0x0A, end - start) {
            found += 1
            start = UnsafeRawPointer(hit) + 1
        }
        return found
    }
}
