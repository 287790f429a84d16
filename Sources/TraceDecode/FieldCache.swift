/// The last `String` made for one field, handed out again while the field's bytes repeat.
///
/// Device, launch, app, version and event names repeat line after line, and comparing a few
/// bytes costs less than validating them into a new `String` (and allocating one over 15 bytes).
struct FieldCache {
    private var bytes: [UInt8] = []
    private var value = ""

    /// The string of `text`, which must be valid UTF-8.
    mutating func string(for text: UnsafeRawBufferPointer) -> String {
        if bytes.count == text.count, bytes.withUnsafeBytes({ Self.equal($0, text) }) {
            return value
        }
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: text)
        value = String(decoding: text, as: UTF8.self)
        return value
    }

    /// Compares two buffers of the same length eight bytes at a time.
    private static func equal(
        _ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer
    ) -> Bool {
        var offset = 0
        while offset + 8 <= lhs.count {
            guard lhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                == rhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            else { return false }
            offset += 8
        }
        while offset < lhs.count {
            guard lhs[offset] == rhs[offset] else { return false }
            offset += 1
        }
        return true
    }
}
