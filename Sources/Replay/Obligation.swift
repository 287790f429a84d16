import TraceModel

/// A promise the app made that a later event must keep: opened by one event (a task begun, a
/// handler delivered), discharged by another (its end or completion), maybe before a deadline,
/// and at the latest before the app is suspended or the process ends.
///
/// Most completion-handler and budget rules are one declaration of this type; the generic
/// ``ObligationCheck`` does the bookkeeping for all of them.
public struct Obligation: Sendable {
    /// What pairs an opening with its discharge.
    public enum Key: Sendable {
        case task, call, identifier
        /// The `scene` of a scene event (v1.1): one open per scene.
        case scene
        /// At most one open at a time (a callback's `begin` and `end`).
        case none
    }

    /// How the time limit of one opening is found.
    public enum Deadline: Sendable {
        /// A fixed budget from the opening event.
        case budget(BudgetName)
        /// A budget picked per opening (e.g. by task type); nil for none. Called with the
        /// opening event when the opening is measured (at its discharge, or when it was due), so
        /// that what the replay learnt while it was open counts.
        case chosen(@Sendable (ReplayEvent, ReplayContext) -> BudgetName?)
        /// The app's background time: from `didEnterBackground` begin (or the launch or resume
        /// into the background) plus the budget, or from the latest `backgroundTimeRemaining`
        /// reading plus its value. Only time spent in the background counts.
        case backgroundTime
    }

    /// What a breach says: the rule and the sentence, made from the breach's facts.
    public struct Report: Sendable {
        public let rule: Rule
        public let message: @Sendable (Breach) -> String

        public init(_ rule: Rule, message: @escaping @Sendable (Breach) -> String) {
            self.rule = rule
            self.message = message
        }
    }

    /// The facts of one breach, for its message (made only when a breach is reported, so its
    /// events carry their texts).
    public struct Breach {
        /// The opening event (nil for a discharge that matched no opening).
        public let opening: ResolvedEvent?
        /// The event at which the breach became evident.
        public let at: ResolvedEvent
        /// Seconds measured against the budget (the duration, or time since expiry).
        public let seconds: Double?
        public let budget: BudgetName?
        public let budgetSeconds: Double?
        /// How the launch ended, for a discharge that never came.
        public let ending: LaunchEnding?

        /// ``seconds`` and ``budgetSeconds`` as one sentence writes them: with enough decimals to
        /// read differently when they differ (``SecondsText/seconds(_:against:)``).
        public var secondsTexts: (measured: String, budget: String) { SecondsText.seconds(seconds, against: budgetSeconds) }
    }

    public var opens: EventKind
    public var opensIf: (@Sendable (ReplayEvent) -> Bool)?
    public var closes: EventKind
    public var closesIf: (@Sendable (ReplayEvent) -> Bool)?
    /// The event that says the system ran the work's expiration handler.
    public var expires: EventKind?
    public var key: Key
    /// What one opening is, for a sentence about work left open: `background task 3 "upload"`.
    public var work: @Sendable (ResolvedEvent) -> String
    public var deadline: Deadline?
    /// Whether the discharge is due before suspension (else only before the launch ends).
    public var dueBeforeSuspension: Bool
    public var runsOnExtensions: Bool
    /// The kind of work each opening is in the `tasks` table, or nil when it is not a task (a
    /// callback's begin and end, which the replay writes down as an interval).
    public var record: TaskRecord.Kind?

    /// Never discharged by the time it was due.
    public var missing: Report?
    /// Discharged late, per budget (a task type may pick one of several budgets).
    public var overrun: [BudgetName: Report]
    /// Expiration handler ran, then no discharge within the expiration grace.
    public var expired: Report?
    /// Discharged again after its discharge.
    public var repeated: Report?
    /// A discharge for something never opened in this launch. (A discharge that comes after
    /// its opening was reported as missing is neither unknown nor repeated: that breach was
    /// reported once, when the discharge was due.)
    public var unknown: Report?

    public init(
        opens: EventKind, opensIf: (@Sendable (ReplayEvent) -> Bool)? = nil, closes: EventKind,
        closesIf: (@Sendable (ReplayEvent) -> Bool)? = nil, expires: EventKind? = nil, key: Key,
        work: (@Sendable (ResolvedEvent) -> String)? = nil, deadline: Deadline? = nil, dueBeforeSuspension: Bool = true, runsOnExtensions: Bool = false,
        record: TaskRecord.Kind? = nil, missing: Report? = nil, overrun: [BudgetName: Report] = [:], expired: Report? = nil,
        repeated: Report? = nil, unknown: Report? = nil
    ) {
        self.opens = opens
        self.opensIf = opensIf
        self.closes = closes
        self.closesIf = closesIf
        self.expires = expires
        self.key = key
        self.work = work ?? { Self.defaultWork($0, key: key) }
        self.deadline = deadline
        self.dueBeforeSuspension = dueBeforeSuspension
        self.runsOnExtensions = runsOnExtensions
        self.record = record
        self.missing = missing
        self.overrun = overrun
        self.expired = expired
        self.repeated = repeated
        self.unknown = unknown
    }

    /// The opening event's name and its key: `fetch.perform (call 7)`.
    private static func defaultWork(_ event: ResolvedEvent, key: Key) -> String {
        let keyText: String? = switch key {
        case .task: event.task.map { "task \($0)" }
        case .call: event.call.map { "call \($0)" }
        case .identifier: event.identifier
        case .scene: event.scene.map { "scene \($0)" }
        case .none: nil
        }
        return event.name + (keyText.map { " (\($0))" } ?? "")
    }

    /// Every rule this obligation can report.
    public var rules: [Rule] {
        var rules: [Rule] = []
        for report in [missing, expired, repeated, unknown].compactMap({ $0 }) + overrun.values.sorted(by: { $0.rule.id < $1.rule.id })
        where !rules.contains(report.rule) {
            rules.append(report.rule)
        }
        return rules
    }

    /// The blueprint that runs this obligation in every launch.
    public var blueprint: CheckBlueprint {
        var interests: Set<EventKind> = [opens, closes]
        if let expires { interests.insert(expires) }
        // A suspension matters only to what is due before it: the others are not told of one.
        if dueBeforeSuspension { interests.insert(.suspend) }
        let shared = SharedObligation(self)
        return CheckBlueprint(
            scope: .launch, interests: interests, runsOnExtensions: runsOnExtensions, rules: rules,
            make: { _ in ObligationCheck(shared) })
    }
}

/// One obligation, made once for its blueprint and shared by all its checks.
final class SharedObligation: Sendable {
    let spec: Obligation

    init(_ spec: Obligation) { self.spec = spec }
}
