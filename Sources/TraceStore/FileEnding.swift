import TraceModel

/// What the reader knows about a file once it has read it to the end, written to its `files`
/// row when its last batch commits. Counts are the whole file's, also when the read resumed an
/// interrupted ingest, so that the row satisfies lines = events + duplicates + rejects +
/// blank_lines + lost_lines.
public struct FileEnding: Sendable, Hashable {
    /// Damaged stretches and a cut, in order (see ``StreamDamage``).
    public var damage: [StreamDamage]
    /// Lines of the file, delivered or lost.
    public var lines: Int
    /// Lines with nothing but whitespace: neither events nor rejects.
    public var blankLines: Int
    /// The content hash, when it could only be known at the end (a source read once).
    public var sha256: String?

    public init(damage: [StreamDamage] = [], lines: Int = 0, blankLines: Int = 0, sha256: String? = nil) {
        self.damage = damage
        self.lines = lines
        self.blankLines = blankLines
        self.sha256 = sha256
    }

    public var lostLines: Int { damage.reduce(0) { $0 + $1.lines } }
    /// The damage that ended the file, when it was cut short.
    public var cut: StreamDamage? { damage.last.flatMap { $0.kind == .cut ? $0 : nil } }
}
