/// Reads what a ``ByteBuffer`` wrote — varints, fixed-width numbers, length-prefixed texts —
/// checking every length against the bytes there are: bytes that run out or make no sense throw
/// ``Malformed``, never trap. The store's packs (``EventPackDecoder``) and `check --stdin`'s
/// spilled events are read with it.
///
/// Inlinable: a reader of another module calls it for every value of every event.
public struct ByteReader {
    public struct Malformed: Error {
        public init() {}
    }

    @usableFromInline let bytes: UnsafeRawBufferPointer
    @usableFromInline var offset = 0

    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    @inlinable
    public var isAtEnd: Bool { offset >= bytes.count }

    /// A base-128 varint, least significant group first, of at most 64 bits.
    @inlinable @inline(__always)
    public mutating func varint() throws(Malformed) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count, shift < 64 {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        throw Malformed()
    }

    /// A text's bytes, after their varint length (``ByteBuffer/text(_:)``), pointing into the
    /// bytes read.
    @inlinable @inline(__always)
    public mutating func text() throws(Malformed) -> UnsafeRawBufferPointer {
        let length = try varint()
        guard length <= UInt64(bytes.count - offset) else { throw Malformed() }
        let count = Int(length)
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset ..< offset + count])
    }

    /// A number of `Word`'s width, little-endian.
    @inlinable @inline(__always)
    public mutating func littleEndian<Word: FixedWidthInteger>(_: Word.Type) throws(Malformed) -> Word {
        guard bytes.count - offset >= MemoryLayout<Word>.size else { throw Malformed() }
        defer { offset += MemoryLayout<Word>.size }
        return Word(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Word.self))
    }

    @inlinable @inline(__always)
    public mutating func byte() throws(Malformed) -> UInt8 {
        guard offset < bytes.count else { throw Malformed() }
        defer { offset += 1 }
        return bytes[offset]
    }
}
