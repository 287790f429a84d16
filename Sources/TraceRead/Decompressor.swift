/// A streaming decoder for one compressed format, fed the input chunk by chunk, that writes
/// each frame's (or member's) output into a ``FrameHold`` and says when the frame ended and
/// verified, so that no line of a damaged frame is ever delivered.
protocol Decompressor: AnyObject {
    /// "zstd frame" or "gzip member", for messages.
    var unitName: String { get }
    /// Whether the input so far stopped inside a frame.
    var frameOpen: Bool { get }
    /// Offset in the compressed input where the current (or last) frame starts.
    var frameStart: Int { get }

    /// Decodes `input`, which starts at byte `offset` of the compressed stream, into `hold`,
    /// stopping as soon as a frame ends, and saying how far it got.
    func decompress(_ input: UnsafeRawBufferPointer, at offset: Int, into hold: FrameHold) throws(ReadError) -> DecodeStep

    /// Forgets a damaged frame, ready to decode one starting afresh.
    func reset()

    /// Whether a frame may start with `bytes` (as many as `FrameMagic.length`, or fewer at the
    /// end of the input: then whether they are the start of one), for resynchronising.
    static func startsFrame(_ bytes: UnsafeRawBufferPointer) -> Bool
}

enum DecodeStep {
    /// The input is used up inside a frame or between frames: give me the next chunk.
    case needsInput
    /// A frame ended and verified after `consumed` bytes of the input: its output is in the hold.
    case frameEnded(consumed: Int)
    /// The current frame is damaged. `decodedToEnd` says whether all of its content was
    /// decoded (only the final check failed); `contentVerified`, whether that content is known
    /// to be the frame's own (a gzip member whose CRC-32 matched and whose length field did not),
    /// which alone makes the hold's line count exact: content that failed its check may hold
    /// more or fewer newlines than was written.
    case damaged(reason: String, decodedToEnd: Bool, contentVerified: Bool)
}

/// The first bytes of a frame or member, which resynchronising looks for after damage.
enum FrameMagic {
    static let length = 4

    /// A zstd frame, `28 B5 2F FD`, or skippable frame, `5? 2A 4D 18`, or a prefix of one.
    static func zstd(_ bytes: UnsafeRawBufferPointer) -> Bool {
        matches(bytes, [0x28, 0xB5, 0x2F, 0xFD]) || (!bytes.isEmpty && bytes[0] & 0xF0 == 0x50 && matches(bytes, [bytes[0], 0x2A, 0x4D, 0x18]))
    }

    /// A gzip member with deflate, `1F 8B 08`, or a prefix of one.
    static func gzip(_ bytes: UnsafeRawBufferPointer) -> Bool {
        matches(bytes, [0x1F, 0x8B, 0x08])
    }

    private static func matches(_ bytes: UnsafeRawBufferPointer, _ magic: [UInt8]) -> Bool {
        !bytes.isEmpty && zip(bytes, magic).allSatisfy { $0 == $1 }
    }
}
