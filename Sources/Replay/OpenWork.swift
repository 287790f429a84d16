import TraceModel

/// Work a launch still had open when its log ended — the device logged nothing more, or a new
/// launch began with no `terminate` logged — so the log cannot say whether it finished.
///
/// Checks that track work (every ``Obligation``) hand what is open to the launch when its log
/// ends this way instead of reporting a missed completion or an overrun: the end of a log is not
/// evidence. The `log-ended-with-open-work` rule reports it once per launch.
public struct OpenWork: Sendable, Hashable {
    /// What the work is, for a sentence: `background task 3 "upload"`, `BGTask com.example.refresh`.
    public let what: String
    /// The event that opened it.
    public let opening: ReplayEvent
    /// Seconds it had been open at the launch's last event.
    public let openSeconds: Double

    public init(what: String, opening: ReplayEvent, openSeconds: Double) {
        self.what = what
        self.opening = opening
        self.openSeconds = openSeconds
    }
}
