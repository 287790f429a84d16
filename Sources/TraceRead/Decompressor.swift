/// A streaming decoder for one compressed format, fed the input chunk by chunk.
protocol Decompressor: AnyObject {
    /// Decodes all of `input`, which starts at byte `offset` of the compressed stream, handing
    /// each run of output to `emit` (valid only during that call) until `emit` returns false.
    func decompress(
        _ input: UnsafeRawBufferPointer, at offset: Int,
        emit: (UnsafeRawBufferPointer) throws -> Bool
    ) rethrows -> DecompressOutcome

    /// Why the stream is incomplete if input ends at `offset`; nil when it ended between
    /// frames or members, which is a clean end.
    func incompleteReason(endingAt offset: Int) -> String?
}

enum DecompressOutcome {
    /// The chunk is used up; give me the next one.
    case needsInput
    /// `emit` asked to stop.
    case stopped
    /// The data cannot be decoded past `offset`; everything before it has been emitted.
    case corrupt(offset: Int, reason: String)
}
