/// A stretch of compressed input whose lines could not be trusted, and how many lines it took
/// with it: a zstd frame or gzip member that failed to decode or verify (and the bytes up to the
/// next frame or member the reader could resynchronise on), or the last frame cut short because
/// the logger was killed mid-write. Reported instead of thrown, because every line outside the
/// damage is still good evidence and the caller wants it.
public struct StreamDamage: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The two ways input goes bad, a closed set.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The input ended inside a frame or member: the complete lines decoded before the end
        /// were delivered (nothing can verify them, but a file cut short yields every complete
        /// line before the cut); the unterminated last line is lost.
        case cut
        /// A frame or member failed to decode or to verify (checksum, length): none of its
        /// lines were delivered.
        case corrupt
    }

    public var kind: Kind
    /// Byte offset in the compressed input where the damaged frame or member starts.
    public var from: Int
    /// Byte offset just past the damage: where the next intact frame or member starts, or the
    /// end of the input. The damage is `[from, to)`.
    public var to: Int
    /// Lines lost: exact for a frame that could be decoded to its end (only its checksum
    /// failed); otherwise the lines seen before the decoding stopped — for a cut, the
    /// unterminated last line of what could be decoded, and for a frame that failed part way,
    /// the lines decoded before the failure (a decoder may produce some garbage, newlines
    /// included, before it notices). What the undecodable rest held cannot be known: see ``exact``.
    public var lines: Int
    /// False when ``lines`` is only a lower bound (the rest of the frame could not be decoded).
    public var exact: Bool
    /// Number of the last line delivered before the damage; lost lines take the numbers after
    /// it, so later lines keep the numbers they would have in the intact file (when `lines`
    /// is exact; lower by the uncounted lines otherwise).
    public var afterLine: Int
    /// Human-readable cause, e.g. "zstd frame starting at byte 0 cut short at byte 8123: input
    /// ended mid-frame", or the library's error text for corruption.
    public var reason: String

    public init(kind: Kind, from: Int, to: Int, lines: Int, exact: Bool, afterLine: Int, reason: String) {
        self.kind = kind
        self.from = from
        self.to = to
        self.lines = lines
        self.exact = exact
        self.afterLine = afterLine
        self.reason = reason
    }

    /// The reason, then where: "… (bytes 6522-7092, after line 240: 1 line lost)"; see ``linesText``.
    public var description: String {
        "\(reason) (bytes \(from)-\(to), after line \(afterLine): \(linesText) lost)"
    }

    /// "3 lines"; "at least 3 lines" when the count is a lower bound; "an unknown number of
    /// lines" when nothing of the damaged part could be decoded to count.
    public var linesText: String {
        Self.linesText(lines, exact: exact)
    }

    /// The same wording for a total over several stretches of damage.
    public static func linesText(_ lines: Int, exact: Bool) -> String {
        let counted = "\(lines) \(lines == 1 ? "line" : "lines")"
        if exact { return counted }
        return lines == 0 ? "an unknown number of lines" : "at least " + counted
    }
}
