import TraceModel

/// A finding that can explain a kill of its launch (its rule ``Rule/explainsTermination``), as the
/// termination check reads it.
public struct Explanation: Sendable {
    public let finding: Finding
    /// When the cause was last known to stand: the finding's time, or a later event at which the
    /// check that reported it saw the same breach still standing without reporting it again
    /// (``ReplayContext/stillExplains(_:at:detail:)``).
    public let at: Timestamp
    /// The cause in words, for the sentence of a kill it explains (`database "x", held since …`);
    /// nil when the finding's rule says enough.
    public let detail: String?

    public init(finding: Finding, at: Timestamp, detail: String?) {
        self.finding = finding
        self.at = at
        self.detail = detail
    }
}
