/// How a log's bytes are packed, decided from its first bytes rather than its name, because
/// uploads get renamed and loggers killed mid-write leave files whose suffix says nothing.
public enum Compression: String, Sendable, Hashable, CaseIterable {
    case zstd
    case gzip
    case none

    /// The longest magic number `detect` needs to see.
    static let magicLength = 4

    /// Recognises a zstd frame (regular or skippable) or a gzip member; anything else is plain text.
    static func detect(_ prefix: UnsafeRawBufferPointer) -> Compression {
        if prefix.count >= 4 {
            if prefix[0] == 0x28, prefix[1] == 0xB5, prefix[2] == 0x2F, prefix[3] == 0xFD { return .zstd }
            // Skippable frames (0x184D2A50...5F, little-endian) may legally open a zstd stream.
            if prefix[0] & 0xF0 == 0x50, prefix[1] == 0x2A, prefix[2] == 0x4D, prefix[3] == 0x18 { return .zstd }
        }
        if prefix.count >= 2, prefix[0] == 0x1F, prefix[1] == 0x8B { return .gzip }
        return .none
    }
}
