/// One line of the log, borrowed from the reader's buffers: `bytes` is valid only during the
/// callback that receives it, which is what lets the reader split millions of lines a second
/// without allocating per line. Copy what you need to keep.
public struct Line {
    /// What the reader could make of a line.
    public enum Kind: Sendable, Hashable {
        /// A whole line; `bytes` excludes the `\n` and a `\r` before it.
        case complete
        /// Longer than the reader's `maxLineBytes`; `bytes` holds only its first
        /// `Line.prefixLimit` bytes, so one runaway line cannot exhaust memory.
        case tooLong(totalBytes: Int)
    }

    /// How many leading bytes are kept of lines that cannot be delivered whole: enough to see
    /// what kind of record it was in an error message.
    public static let prefixLimit = 4096

    /// 1-based position in the decompressed stream; every line gets one, blank ones included.
    public var number: Int
    public var bytes: UnsafeRawBufferPointer
    /// The line's real length: `bytes.count`, unless only a prefix could be kept (a
    /// `.tooLong` line).
    public var totalBytes: Int
    public var kind: Kind
}
