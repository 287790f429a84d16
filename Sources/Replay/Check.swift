import TraceModel

/// The behaviour behind one or more rules: it receives the events it is interested in, in
/// replay order, and reports findings through the context. A launch-scoped check is made
/// fresh for every launch; a device-scoped one lives for the whole device (state iOS keeps
/// across launches, such as pending task requests or the push rate). A check is a subclass that
/// overrides what it needs.
///
/// A class, not a protocol, for the replay's sake: it calls checks millions of times a second,
/// and a class's method can be called on a reference held unretained (``CheckSlots``), where a
/// protocol's method was called on a copy of the reference, retained and released around every
/// call — two atomic operations, which with the others like them were a third of the replay.
open class Check {
    public init() {}

    /// Called for each event of a kind in the blueprint's ``CheckBlueprint/interests``, after
    /// the lifecycle check has applied the event to ``LaunchState/state``.
    open func receive(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {}
    /// Called once when a launch ends (for a device-scoped check: every launch of the device).
    open func launchEnded(_ ending: LaunchEnding, context: ReplayContext) {}
    /// Called for a device-scoped check at the device's first event later than the time it last
    /// asked for with ``ReplayContext/wake(after:)``, whatever that event's kind, just before
    /// the check would receive it: a check that must act when time passes (a wait that passed its
    /// budget) need not hear every event to notice.
    open func wake(at event: ReplayEvent, context: ReplayContext) {}
    /// Called once for a device-scoped check when the device's log ends, after every launch
    /// ended (`context.launch` is the latest launch). Nothing is evidence here (see rules.md,
    /// "The end of a log is not evidence"): what a check still follows is only written down.
    open func logEnded(context: ReplayContext) {}
    /// Called when the check's launch ended (and the check does not outlive it): makes the check
    /// as a fresh one would be and returns true, so that the device's next launch uses it
    /// instead of making one — making and freeing a launch's checks cost a fifth of the replay.
    /// Returns false when it cannot; then the next launch makes its own. False unless a check
    /// says otherwise: a check that clears itself must clear every field a launch can change.
    open func clearForNextLaunch() -> Bool { false }
}

/// How to make a check, what it listens to and which rules it reports.
public struct CheckBlueprint: Sendable {
    public enum Scope: Sendable { case launch, device }

    public let scope: Scope
    /// Event kinds the check receives; nil for all of them.
    public let interests: Set<EventKind>?
    /// Whether the check runs on extension processes (which have no UIKit life cycle).
    public let runsOnExtensions: Bool
    /// Whether a launch-scoped check keeps receiving events of its launch after the launch
    /// ended (to flag events logged after a `terminate`); others are dropped to free memory.
    public let outlivesLaunch: Bool
    public let rules: [Rule]
    public let make: @Sendable (Budgets) -> Check

    public init(
        scope: Scope, interests: Set<EventKind>?, runsOnExtensions: Bool = false,
        outlivesLaunch: Bool = false, rules: [Rule],
        make: @escaping @Sendable (Budgets) -> Check
    ) {
        self.scope = scope
        self.interests = interests
        self.runsOnExtensions = runsOnExtensions
        self.outlivesLaunch = outlivesLaunch
        self.rules = rules
        self.make = make
    }
}
