/// Where and why a compressed stream stopped making sense: the logger was killed mid-frame, or
/// the bytes are damaged. Reported instead of thrown because every line before the cut is
/// still good evidence and the caller wants it.
public struct StreamCut: Sendable, Hashable, CustomStringConvertible {
    /// Offset in the compressed input where the problem shows: its end for a truncated stream.
    /// For corruption it is approximate, because decoders take input in blocks: zstd's is
    /// where the failing decode began (the damage lies at or after it), zlib's where it
    /// noticed (at or somewhat after the damage).
    public var compressedOffset: Int
    /// Number of the last line delivered whole (complete or too long); a `.cutShort` line, if
    /// any, is `afterLine + 1`.
    public var afterLine: Int
    /// Human-readable cause naming the byte offset, e.g. "zstd frame starting at byte 0 cut
    /// short at byte 8123: input ended mid-frame", or the library's error text for corruption.
    public var reason: String

    public init(compressedOffset: Int, afterLine: Int, reason: String) {
        self.compressedOffset = compressedOffset
        self.afterLine = afterLine
        self.reason = reason
    }

    public var description: String { "\(reason) (after line \(afterLine))" }
}
