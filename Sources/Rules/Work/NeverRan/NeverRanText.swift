import Replay
import TraceModel

/// The sentence of a `bgtask-never-ran` or `fetch-never-ran` finding: what waited, since when and
/// for how long, each factor with the share of the wait it covered, and what to do.
///
/// "The refresh request com.example.sync has waited 31 h since its earliest begin date
/// 2026-11-21 10:00 UTC with no bgtask.launch, more than task-wait (24 h): Background App Refresh
/// was off for all of the wait, Low Power Mode was on for 70% of it and the user swiped the app
/// away at 2026-11-21 18:12 UTC and did not open it again for 40% of it; …"
struct NeverRanText {
    let message: String

    init(wait: Wait, waited: Double, budget: Double, factors: [Finding.Factor], context: ReplayContext) {
        let opened = context.resolved(wait.opened)
        let head: String
        let subject: String
        switch wait.subject {
        case .task:
            subject = opened.identifier ?? "?"
            let type = opened.requestType.map { "\($0) request" } ?? "task request"
            let since = wait.start > wait.opened.ts
                ? "since its earliest begin date \(Self.minute(wait.start))"
                : "since it was submitted at \(Self.minute(wait.start))"
            head = "The \(type) \(subject) has waited \(SecondsText.hours(waited)) \(since) with no bgtask.launch, "
                + "more than task-wait (\(SecondsText.hours(budget)))"
        case .fetch:
            subject = "background fetch"
            let interval = SecondsText.seconds(wait.opened.fetchInterval, decimals: 0, trimmed: true)
            head = "Background fetch has not run for \(SecondsText.hours(waited)) since the app set a minimum "
                + "interval of \(interval) at \(Self.minute(wait.start)), more than task-wait (\(SecondsText.hours(budget)))"
        }
        let clauses = factors.enumerated().map { Self.clause($1, first: $0 == 0) }
        let advice = Self.advice(wait.subject, subject: subject, factors: factors.map(\.kind))
        if clauses.isEmpty {
            message = "\(head), and the log shows nothing that held it back (system budgets and rate limits do "
                + "not show in a log); \(advice)."
        } else {
            message = "\(head): \(Self.list(clauses)); \(advice)."
        }
    }

    /// One factor as a clause; the first names the wait, the others refer back to it.
    private static func clause(_ factor: Finding.Factor, first: Bool) -> String {
        let portion = portion(factor.share, first: first)
        let at = factor.evidence.first.map { minute($0.ts) } ?? "?"
        switch factor.kind {
        case .lowPowerMode: return "Low Power Mode was on for \(portion)"
        case .lowBattery: return "the battery was at 20% or less and not charging for \(portion)"
        case .refreshDisabled: return "Background App Refresh was off for \(portion)"
        case .swipedAway:
            return "the user swiped the app away at \(at) and did not open it again for \(portion)"
        case .appUnused:
            let last = factor.evidence.last.map { " (last opened \(minute($0.ts)))" } ?? ""
            return "the user did not open the app during the wait\(last)"
        case .powerRequired:
            return "it requires external power and no reading saw the device charging (\(portion))"
        case .networkRequired:
            return "it requires network connectivity and no reading saw the network reachable (\(portion))"
        case .notRegistered:
            return "launches from \(at) did not register it, for \(portion)"
        case .rescheduled:
            return "later submits moved its earliest begin date forward, keeping it from running for \(portion)"
        }
    }

    /// What to do: the app's own part first, else what the user and the device decide.
    private static func advice(_ waited: Wait.Subject, subject: String, factors: [Finding.FactorKind]) -> String {
        if factors.contains(.notRegistered) {
            return "register \(subject) with BGTaskScheduler in application(_:didFinishLaunchingWithOptions:) of "
                + "every launch, or the system cannot run it"
        }
        if factors.contains(.rescheduled) {
            return "submit \(subject) only when none is pending, or keep its earliest begin date: a resubmit "
                + "replaces the request and its date"
        }
        if factors.contains(.powerRequired) || factors.contains(.networkRequired) {
            return "drop requiresExternalPower or requiresNetworkConnectivity if the work can do without them"
        }
        if waited == .fetch {
            return "background fetch is deprecated and runs at the system's discretion: move the work to a "
                + "BGAppRefreshTask, and do not count on it running"
        }
        if factors.isEmpty {
            return "log power and refreshStatus readings to see more, and do not count on the task running"
        }
        return "these are the user's and the device's settings, not the app's doing: do not count on the task "
            + "running, and do its work when the app is opened"
    }

    /// "70% of the wait" (first) or "70% of it"; "all of the wait" when it covered all.
    private static func portion(_ share: Double, first: Bool) -> String {
        let whole = first ? "the wait" : "it"
        guard share < 1 else { return "all of \(whole)" }
        let percent = min(99, max(1, Int((share * 100).rounded())))
        return "\(percent)% of \(whole)"
    }

    /// `a`, `a and b`, `a, b and c`.
    private static func list(_ items: [String]) -> String {
        guard let last = items.last, items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + last
    }

    /// A time to the minute: `2026-11-21 09:12 UTC`.
    static func minute(_ time: Timestamp) -> String {
        let text = time.description
        guard text.count >= 16 else { return text }
        return text.prefix(10) + " " + text.dropFirst(11).prefix(5) + " UTC"
    }
}
