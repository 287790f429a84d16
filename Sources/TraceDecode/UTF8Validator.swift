/// Well-formedness of UTF-8 as in Unicode's Table 3-7: no overlong forms, no surrogates, nothing
/// above U+10FFFF.
enum UTF8Validator {
    /// The length of the well-formed sequence starting at `offset` (which holds a byte ≥ 0x80), or
    /// nil if the bytes there are not UTF-8.
    @inline(__always)
    static func sequenceLength(in bytes: UnsafeRawBufferPointer, at offset: Int) -> Int? {
        let lead = bytes[offset]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: return nil
        }
        guard offset + length <= bytes.count, secondRange.contains(bytes[offset + 1]) else {
            return nil
        }
        for index in offset + 2 ..< offset + length where bytes[index] & 0xC0 != 0x80 {
            return nil
        }
        return length
    }

    /// The offset of the first byte that does not begin a well-formed sequence, or nil if all
    /// of `bytes` is UTF-8.
    static func firstInvalidOffset(in bytes: UnsafeRawBufferPointer) -> Int? {
        var offset = 0
        while offset < bytes.count {
            if bytes[offset] < 0x80 {
                offset += 1
            } else if let length = sequenceLength(in: bytes, at: offset) {
                offset += length
            } else {
                return offset
            }
        }
        return nil
    }
}
