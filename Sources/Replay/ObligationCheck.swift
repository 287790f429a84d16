import TraceModel

/// Keeps the open instances of one ``Obligation`` in one launch and reports every way they
/// are broken. Memory is bounded by what is open plus the keys already discharged.
final class ObligationCheck: Check {
    private struct Open {
        var opening: ReplayEvent
        var expiredBy: ReplayEvent?
    }

    /// What pairs an opening with its discharge, as numbers (see ``Obligation/Key``).
    private enum OpenKey: Hashable {
        case task(Int64)
        case text(TextID)
        case none
    }

    private let spec: Obligation
    /// What ``receive(_:kind:context:)`` reads for every event, copied out of `spec`: reading
    /// them through `spec` copied the whole ``Obligation`` (retaining its closures and reports)
    /// per event, 6% of the replay's reference counting in its profile.
    private let opens: EventKind, closes: EventKind, expires: EventKind?
    private let opensIf: (@Sendable (ReplayEvent) -> Bool)?, closesIf: (@Sendable (ReplayEvent) -> Bool)?
    private let dueBeforeSuspension: Bool
    private let keyKind: Obligation.Key
    // What is open and what was discharged: not checked for exclusivity at run time, for the
    // reason given at ``LaunchState`` (a check belongs to one launch's state).
    @exclusivity(unchecked) private var open: [OpenKey: Open] = [:]
    @exclusivity(unchecked) private var order: [OpenKey] = []
    @exclusivity(unchecked) private var discharged: Set<OpenKey> = []
    /// Keys already reported as never discharged in time: a late discharge of one is not
    /// reported again as unknown (the breach was reported when it was due).
    @exclusivity(unchecked) private var lapsed: Set<OpenKey> = []

    init(_ spec: Obligation) {
        self.spec = spec
        opens = spec.opens
        closes = spec.closes
        expires = spec.expires
        opensIf = spec.opensIf
        closesIf = spec.closesIf
        dueBeforeSuspension = spec.dueBeforeSuspension
        keyKind = spec.key
    }

    func receive(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
        if kind == opens, opensIf?(event) ?? true {
            opened(event, context: context)
        } else if kind == closes, closesIf?(event) ?? true {
            closed(event, context: context)
        } else if kind == expires, let key = key(of: event) {
            open[key]?.expiredBy = event
        }
        if kind == .suspend, dueBeforeSuspension {
            reportOutstanding(at: event, ending: nil, context: context)
        }
    }

    func launchEnded(_ ending: LaunchEnding, context: ReplayContext) {
        guard ending.isEndOfLogOnly else {
            reportOutstanding(at: ending.event, ending: ending, context: context)
            return
        }
        // The log stopped: what is open is handed to the launch, not reported as missed.
        let last = context.launch.lastEvent
        for key in order {
            guard let item = open[key] else { continue }
            context.launch.openWork.append(OpenWork(
                what: spec.work(context.resolved(item.opening)), opening: item.opening,
                openSeconds: context.seconds(from: item.opening, to: last)))
        }
        open.removeAll()
        order.removeAll()
    }

    /// Nothing open, discharged or lapsed: every other field is set from `spec` when made.
    var isAsMade: Bool { open.isEmpty && discharged.isEmpty && lapsed.isEmpty }

    private func key(of event: ReplayEvent) -> OpenKey? {
        switch keyKind {
        case .task: event.task.map(OpenKey.task)
        case .call: event.call.map(OpenKey.text)
        case .identifier: event.identifier.map(OpenKey.text)
        case .scene: OpenKey.text(event.scene ?? .empty)
        case .none: OpenKey.none
        }
    }

    private func opened(_ event: ReplayEvent, context: ReplayContext) {
        guard let key = key(of: event) else { return }
        if open[key] == nil { order.append(key) }
        open[key] = Open(opening: event)
        discharged.remove(key)
        lapsed.remove(key)
    }

    private func closed(_ event: ReplayEvent, context: ReplayContext) {
        guard let key = key(of: event) else { return }
        guard let item = open.removeValue(forKey: key) else {
            if lapsed.remove(key) != nil {
                discharged.insert(key)
            } else if discharged.contains(key) {
                emit(spec.repeated, opening: nil, at: event, seconds: nil, context: context)
            } else {
                emit(spec.unknown, opening: nil, at: event, seconds: nil, context: context)
            }
            return
        }
        order.removeAll { $0 == key }
        discharged.insert(key)
        if let expiredBy = item.expiredBy, spec.expired != nil {
            let late = context.seconds(from: expiredBy, to: event)
            if late > context.budgets[.expirationGrace] {
                emit(spec.expired, opening: item.opening, at: event, seconds: late,
                     budget: .expirationGrace, extra: [expiredBy], context: context)
                return
            }
        }
        if let (budget, seconds, limit, extra) = measure(item, until: event, context: context), seconds > limit {
            emit(spec.overrun[budget], opening: item.opening, at: event, seconds: seconds, budget: budget,
                 budgetSeconds: limit, extra: extra, context: context)
        }
    }

    /// The budget of an open item and the seconds counted against it at `end`.
    private func measure(
        _ item: Open, until end: ReplayEvent, context: ReplayContext
    ) -> (BudgetName, Double, Double, [ReplayEvent])? {
        // Picked when measured, not when opened, so that what the replay learnt since counts
        // (a task's type may be told by a submit that comes while the task runs).
        let picked: BudgetName? = switch spec.deadline {
        case .budget(let name): name
        case .chosen(let choose): choose(item.opening, context)
        case .backgroundTime: .backgroundTime
        case nil: nil
        }
        guard let budget = picked else { return nil }
        guard budget == .backgroundTime else {
            return (budget, context.seconds(from: item.opening, to: end), context.budgets[budget], [])
        }
        // Background time runs only in the background, from the start of this background period.
        guard let since = context.launch.backgroundSince else { return nil }
        let elapsed = context.seconds(from: since, to: end)
        if let reading = context.launch.lastTimeRemaining, let remaining = reading.backgroundTimeRemaining {
            return (budget, elapsed, context.seconds(from: since, to: reading) + remaining, [since, reading])
        }
        return (budget, elapsed, context.budgets[.backgroundTime], [since])
    }

    private func reportOutstanding(at event: ReplayEvent, ending: LaunchEnding?, context: ReplayContext) {
        for key in order {
            guard let item = open[key] else { continue }
            if let expiredBy = item.expiredBy, spec.expired != nil {
                emit(spec.expired, opening: item.opening, at: event,
                     seconds: context.seconds(from: expiredBy, to: event), budget: .expirationGrace,
                     extra: [expiredBy], ending: ending, context: context)
            } else if spec.missing != nil {
                emit(spec.missing, opening: item.opening, at: event, seconds: context.seconds(from: item.opening, to: event),
                     ending: ending, context: context)
            } else if let (budget, seconds, limit, extra) = measure(item, until: event, context: context), seconds > limit {
                // No discharge came, and the time already spent breaks the budget.
                emit(spec.overrun[budget], opening: item.opening, at: event, seconds: seconds, budget: budget,
                     budgetSeconds: limit, extra: extra, ending: ending, context: context)
            }
            lapsed.insert(key)
        }
        open.removeAll()
        order.removeAll()
    }

    private func emit(
        _ report: Obligation.Report?, opening: ReplayEvent?, at event: ReplayEvent, seconds: Double?,
        budget: BudgetName? = nil, budgetSeconds: Double? = nil, extra: [ReplayEvent] = [],
        ending: LaunchEnding? = nil, context: ReplayContext
    ) {
        guard let report else { return }
        let limit = budgetSeconds ?? budget.map { context.budgets[$0] }
        let breach = Obligation.Breach(
            opening: opening.map(context.resolved), at: context.resolved(event), seconds: seconds, budget: budget, budgetSeconds: limit, ending: ending)
        var events = [opening].compactMap { $0 } + extra + [event]
        events.sort { $0.ts < $1.ts }
        context.report(
            report.rule, at: event, events: events, message: report.message(breach), budget: budget,
            budgetSeconds: limit, measured: seconds)
    }
}
