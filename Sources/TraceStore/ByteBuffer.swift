/// Bytes written through a pointer into memory of its own, grown by doubling, for the packed
/// events (``EventPack``): appending to an `[UInt8]` byte by byte and text by text cost 1,200
/// instructions an event, a sixth of the ingest's writing thread. A writer makes room for the
/// most it may write (``reserve(_:)``) and then writes without checks.
///
/// A class, so that a batch (``IngestBatch``) hands its bytes to the writing thread without a
/// copy: a batch is filled on one thread and then only read.
final class ByteBuffer: @unchecked Sendable {
    private var start: UnsafeMutableRawPointer?
    private var capacity = 0
    private(set) var count = 0

    deinit {
        start?.deallocate()
    }

    /// The bytes written, valid until the next write or ``removeAll()``.
    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: start, count: count)
    }

    /// Makes room for `extra` more bytes.
    func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        let grown = max(capacity * 2, count + extra, 256)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 8)
        if let start {
            memory.copyMemory(from: start, byteCount: count)
            start.deallocate()
        }
        start = memory
        capacity = grown
    }

    /// Lets go of the memory.
    func removeAll() {
        start?.deallocate()
        start = nil
        capacity = 0
        count = 0
    }

    // The writes below assume the room was reserved.

    func varint(_ value: UInt64) {
        guard let start else { return }
        var value = value
        while value >= 0x80 {
            start.storeBytes(of: UInt8(truncatingIfNeeded: value) | 0x80, toByteOffset: count, as: UInt8.self)
            count += 1
            value >>= 7
        }
        start.storeBytes(of: UInt8(value), toByteOffset: count, as: UInt8.self)
        count += 1
    }

    func littleEndian(_ value: UInt64) {
        start?.storeBytes(of: value.littleEndian, toByteOffset: count, as: UInt64.self)
        count += 8
    }

    func copy(_ bytes: UnsafeRawBufferPointer) {
        if let base = bytes.baseAddress, let start { (start + count).copyMemory(from: base, byteCount: bytes.count) }
        count += bytes.count
    }
}
