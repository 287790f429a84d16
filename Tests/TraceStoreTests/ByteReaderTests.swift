import Testing
import TraceStore

/// The reader of what a ``ByteBuffer`` wrote, on the worst bytes: each throws, none traps.
@Suite struct ByteReaderTests {
    private static func read<T>(_ bytes: [UInt8], _ body: (inout ByteReader) throws(ByteReader.Malformed) -> T) -> T? {
        bytes.withUnsafeBytes { raw in
            var reader = ByteReader(raw)
            return try? body(&reader)
        }
    }

    @Test func whatABufferWroteComesBack() {
        let buffer = ByteBuffer()
        buffer.reserve(10)
        buffer.varint(UInt64.max)
        buffer.text("héllo\u{0}")
        buffer.reserve(4)
        buffer.littleEndian(UInt32(0xDEAD_BEEF))
        let read = Self.read(Array(buffer.bytes)) { (reader: inout ByteReader) throws(ByteReader.Malformed) in
            (try reader.varint(), Array(try reader.text()), try reader.littleEndian(UInt32.self), reader.isAtEnd)
        }
        #expect(read?.0 == UInt64.max)
        #expect(read?.1 == Array("héllo\u{0}".utf8))
        #expect(read?.2 == 0xDEAD_BEEF)
        #expect(read?.3 == true)
    }

    /// A varint longer than 64 bits, one that never ends, a text longer than the bytes left (up to
    /// 2⁶⁴ − 1), a number or a byte past the end.
    @Test func bytesThatRunOutOrMakeNoSenseThrow() {
        let tooLong = [UInt8](repeating: 0xFF, count: 11) + [0x01]
        #expect(Self.read(tooLong) { (reader: inout ByteReader) throws(ByteReader.Malformed) in try reader.varint() } == nil)
        #expect(Self.read([0x80, 0x80]) { (reader: inout ByteReader) throws(ByteReader.Malformed) in try reader.varint() } == nil)
        let hugeLength = [UInt8](repeating: 0xFF, count: 9) + [0x01, 0x41]
        #expect(Self.read(hugeLength) { (reader: inout ByteReader) throws(ByteReader.Malformed) in try reader.text() } == nil)
        #expect(Self.read([0x05, 0x41, 0x42]) { (reader: inout ByteReader) throws(ByteReader.Malformed) in try reader.text() } == nil)
        #expect(Self.read([1, 2, 3]) { (reader: inout ByteReader) throws(ByteReader.Malformed) in try reader.littleEndian(UInt64.self) } == nil)
        #expect(Self.read([]) { (reader: inout ByteReader) throws(ByteReader.Malformed) in try reader.byte() } == nil)
    }
}
