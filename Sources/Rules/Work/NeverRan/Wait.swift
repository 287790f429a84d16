import Replay
import TraceModel

/// One pending period of a task request (or of an explicit minimum fetch interval): from the
/// start of its wait until it runs, is cancelled or is reported, with what the log showed of
/// the factors that hold background work back meanwhile.
///
/// A class: a wait holds two events and eight coverages (over 2 kB as a value), and the check
/// changes its waits at every reading and submit; as values they were copied about. Its state is
/// not checked for exclusivity at run time, for the reason given at ``LaunchState``.
final class Wait {
    enum Subject: Equatable {
        /// The task request of this identifier.
        case task(TextID)
        /// Background fetch, after an explicit minimum interval.
        case fetch
    }

    let subject: Subject
    /// When the wait began: the earliest begin date of the period's first request (its submit
    /// when it gave none, or gave one before it), or the first explicit interval set.
    let start: Timestamp
    /// When the wait passes the budget: an event after this time is the finding's moment.
    let due: Timestamp
    /// The submit (or interval set) that opened the period, and the latest one that replaced it.
    let opened: ReplayEvent
    @exclusivity(unchecked) var latest: ReplayEvent
    /// The finding was written: one per pending period.
    @exclusivity(unchecked) var reported = false

    @exclusivity(unchecked) var lowPowerMode: Coverage
    @exclusivity(unchecked) var lowBattery: Coverage
    @exclusivity(unchecked) var refreshDisabled: Coverage
    @exclusivity(unchecked) var swipedAway: Coverage
    @exclusivity(unchecked) var notRegistered: Coverage
    /// Time the pending request was not yet eligible because a later submit moved its earliest
    /// begin date (the first request is eligible when the wait begins).
    @exclusivity(unchecked) var rescheduled: Coverage
    /// Time the pending request required external power / network connectivity.
    @exclusivity(unchecked) var requiresPower: Coverage
    @exclusivity(unchecked) var requiresNetwork: Coverage
    /// The earliest begin date of the pending request (its submit time when it gave none).
    @exclusivity(unchecked) var eligibleAt: Timestamp
    /// Whether a reading during the wait saw the device charging, the network reachable, and
    /// whether the user opened the app.
    @exclusivity(unchecked) var sawCharging = false
    @exclusivity(unchecked) var sawReachable = false
    @exclusivity(unchecked) var userOpened = false

    init(subject: Subject, start: Timestamp, budget: Double, opened: ReplayEvent) {
        self.subject = subject
        self.start = start
        due = Self.adding(budget, to: start)
        self.opened = opened
        latest = opened
        eligibleAt = start
        let none = Coverage(waitStart: start)
        lowPowerMode = none
        lowBattery = none
        refreshDisabled = none
        swipedAway = none
        notRegistered = none
        rescheduled = none
        requiresPower = none
        requiresNetwork = none
    }

    /// A share as findings carry it: rounded to a thousandth, but never 0 for a factor that
    /// covered some of the wait, nor 1 for one that did not cover all of it.
    private static func share(_ fraction: Double) -> Double {
        guard fraction < 1 else { return 1 }
        return min(0.999, max(0.001, SecondsText.rounded(fraction, decimals: 3)))
    }

    /// `time` plus `seconds`, saturating: a budget from configuration may be huge.
    private static func adding(_ seconds: Double, to time: Timestamp) -> Timestamp {
        let (sum, overflow) = time.microseconds.addingReportingOverflow(Timestamp(seconds: seconds).microseconds)
        return overflow ? Timestamp(microseconds: .max) : Timestamp(microseconds: sum)
    }

    /// The factors of this wait, measured up to `end` (the finding's moment), most of the wait
    /// first; kinds that do not apply to fetch (the request's own conditions) are left out.
    func factors(until end: Timestamp, lastUserOpen: ReplayEvent?) -> [(kind: Finding.FactorKind, share: Double, evidence: [ReplayEvent])] {
        let wait = end.seconds(since: start)
        guard wait > 0 else { return [] }
        var found: [(kind: Finding.FactorKind, share: Double, evidence: [ReplayEvent])] = []
        func add(_ kind: Finding.FactorKind, _ coverage: Coverage) {
            let (seconds, evidence) = coverage.measure(until: end)
            guard seconds > 0 else { return }
            found.append((kind, Self.share(seconds / wait), evidence))
        }
        add(.lowPowerMode, lowPowerMode)
        add(.lowBattery, lowBattery)
        add(.refreshDisabled, refreshDisabled)
        add(.swipedAway, swipedAway)
        if !userOpened { found.append((.appUnused, 1, lastUserOpen.map { [$0] } ?? [])) }
        if case .task = subject {
            if !sawCharging { add(.powerRequired, requiresPower) }
            if !sawReachable { add(.networkRequired, requiresNetwork) }
            add(.notRegistered, notRegistered)
            add(.rescheduled, rescheduled)
        }
        let order = Finding.FactorKind.allCases
        return found.sorted {
            $0.share != $1.share
                ? $0.share > $1.share
                : (order.firstIndex(of: $0.kind) ?? 0) < (order.firstIndex(of: $1.kind) ?? 0)
        }
    }
}
