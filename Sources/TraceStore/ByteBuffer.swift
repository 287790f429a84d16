import TraceModel

/// Bytes written through a pointer into memory of its own, grown by doubling, for the packed
/// events (``EventPack``): appending to an `[UInt8]` byte by byte and text by text cost 1,200
/// instructions an event, a sixth of the ingest's writing thread. A writer makes room for the
/// most it may write (``reserve(_:)``) and then writes without checks.
///
/// A class, so that a batch (``IngestBatch``) hands its bytes to the writing thread without a
/// copy: a batch is filled on one thread and then only read. `check --stdin` gathers the events
/// it spills in one too (read back with ``ByteReader``).
///
/// Its writes are inlinable and its state unchecked for exclusivity: called across modules for
/// every value of every event spilled, each call and each checked access showed in the profile.
public final class ByteBuffer: @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var start: UnsafeMutableRawPointer?
    @usableFromInline @exclusivity(unchecked) var capacity = 0
    @usableFromInline @exclusivity(unchecked) var written = 0

    /// The bytes written so far.
    public var count: Int { written }

    public init() {}

    deinit {
        start?.deallocate()
    }

    /// The bytes written, valid until the next write or ``removeAll()``.
    public var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: start, count: written)
    }

    /// Makes room for `extra` more bytes.
    @inlinable
    public func reserve(_ extra: Int) {
        guard written + extra > capacity else { return }
        grow(toHold: extra)
    }

    @usableFromInline
    func grow(toHold extra: Int) {
        let grown = max(capacity * 2, written + extra, 256)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 8)
        if let start {
            memory.copyMemory(from: start, byteCount: written)
            start.deallocate()
        }
        start = memory
        capacity = grown
    }

    /// Empties it, keeping the memory for what is written next.
    public func clear() {
        written = 0
    }

    /// Lets go of the memory.
    public func removeAll() {
        start?.deallocate()
        start = nil
        capacity = 0
        written = 0
    }

    // The writes below assume the room was reserved.

    @inlinable
    public func varint(_ value: UInt64) {
        guard let start else { return }
        var value = value
        while value >= 0x80 {
            start.storeBytes(of: UInt8(truncatingIfNeeded: value) | 0x80, toByteOffset: written, as: UInt8.self)
            written += 1
            value >>= 7
        }
        start.storeBytes(of: UInt8(value), toByteOffset: written, as: UInt8.self)
        written += 1
    }

    @inlinable
    public func littleEndian(_ value: UInt64) {
        start?.storeBytes(of: value.littleEndian, toByteOffset: written, as: UInt64.self)
        written += 8
    }

    @inlinable
    public func littleEndian(_ value: UInt32) {
        start?.storeBytes(of: value.littleEndian, toByteOffset: written, as: UInt32.self)
        written += 4
    }

    @inlinable
    public func byte(_ value: UInt8) {
        start?.storeBytes(of: value, toByteOffset: written, as: UInt8.self)
        written += 1
    }

    /// Overwrites the 4 bytes at `offset`, written before.
    @inlinable
    public func littleEndian(_ value: UInt32, at offset: Int) {
        start?.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt32.self)
    }

    /// Writes a text as a varint length and its UTF-8 bytes, or nothing for an absent one (a
    /// flag says so). Read in place: binding an optional text to a local copied it, a retain and a
    /// release each (two thirds of the packing's instructions, when it did). Makes its own room.
    @inlinable
    public func text(_ value: String?) {
        guard let utf8 = value?.utf8 else { return }
        let written: Void? = utf8.withContiguousStorageIfAvailable { bytes in
            reserve(10 + bytes.count)
            varint(UInt64(bytes.count))
            copy(UnsafeRawBufferPointer(bytes))
        }
        if written == nil {
            let bytes = Array(utf8)
            reserve(10 + bytes.count)
            varint(UInt64(bytes.count))
            bytes.withUnsafeBytes { copy($0) }
        }
    }

    @inlinable
    public func copy(_ bytes: UnsafeRawBufferPointer) {
        if let base = bytes.baseAddress, let start { (start + written).copyMemory(from: base, byteCount: bytes.count) }
        written += bytes.count
    }
}

extension ByteBuffer {
    /// Writes the texts an event carries after its envelope — `phase`, `reason`, `cause`,
    /// `identifier`, `call`, `result` and `attrs`, in that order — each as ``text(_:)`` does:
    /// the store's packs and `check --stdin`'s spilled events both end with them.
    public func detailTexts(of event: borrowing Event) {
        text(event.phase)
        text(event.reason)
        text(event.cause)
        text(event.identifier)
        text(event.call)
        text(event.result)
        text(event.attrs)
    }
}
