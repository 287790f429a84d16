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

    /// The obligation, shared by every check of its blueprint: a copy in each check held its
    /// rules' declarations, a kilobyte a check, for every launch live on every device.
    private let shared: SharedObligation
    /// What ``receive(_:kind:context:)`` reads for every event, copied out of the obligation:
    /// reading them through it copied the whole ``Obligation`` (retaining its closures and reports)
    /// per event, 6% of the replay's reference counting in its profile.
    private let opens: EventKind, closes: EventKind, expires: EventKind?
    private let opensIf: (@Sendable (ReplayEvent) -> Bool)?, closesIf: (@Sendable (ReplayEvent) -> Bool)?
    private let dueBeforeSuspension: Bool
    private let keyKind: Obligation.Key
    /// What each opening is in the `tasks` table (nil: not written down).
    private let recordKind: TaskRecord.Kind?
    // What is open and what was discharged: not checked for exclusivity at run time, for the
    // reason given at ``LaunchState`` (a check belongs to one launch's state).
    // Open, in the order opened.
    @exclusivity(unchecked) private var open = KeyedList<OpenKey, Open>()
    @exclusivity(unchecked) private var discharged = KeyedList<OpenKey, Void>()
    /// Keys already reported as never discharged in time: a late discharge of one is not
    /// reported again as unknown (the breach was reported when it was due).
    @exclusivity(unchecked) private var lapsed = KeyedList<OpenKey, Void>()

    init(_ shared: SharedObligation) {
        self.shared = shared
        let spec = shared.spec
        opens = spec.opens
        closes = spec.closes
        expires = spec.expires
        opensIf = spec.opensIf
        closesIf = spec.closesIf
        dueBeforeSuspension = spec.dueBeforeSuspension
        keyKind = spec.key
        recordKind = spec.record
    }

    /// Only compares kinds, and hands the event on: each piece of work that copies the event is
    /// out of line, else the compiler makes the copy on entry, for every event.
    override func receive(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
        if kind == opens || kind == closes || kind == expires { take(event, kind: kind, context: context) }
        // Most suspensions find nothing open: they are not handed on.
        if kind == .suspend, dueBeforeSuspension, !open.isEmpty { suspended(event, context: context) }
    }

    @inline(never)
    private func take(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
        if kind == opens, opensIf?(event) ?? true {
            opened(event, context: context)
        } else if kind == closes, closesIf?(event) ?? true {
            closed(event, context: context)
        } else if kind == expires {
            expired(event)
        }
    }

    /// Apart, with its copy of the event: inline, the copy was made on entry for every event.
    @inline(never)
    private func expired(_ event: ReplayEvent) {
        if let key = key(of: event) { open.modify(key) { $0.expiredBy = event } }
    }

    @inline(never)
    private func suspended(_ event: ReplayEvent, context: ReplayContext) {
        reportOutstanding(at: event, ending: nil, context: context)
    }

    override func launchEnded(_ ending: LaunchEnding, context: ReplayContext) {
        guard ending.isEndOfLogOnly else {
            reportOutstanding(at: ending.event, ending: ending, context: context)
            return
        }
        // The log stopped: what is open is handed to the launch, not reported as missed.
        let last = context.launch.lastEvent
        let recording = isRecording(context)
        for (_, item) in open.elements {
            context.launch.openWork.append(OpenWork(
                what: shared.spec.work(context.resolved(item.opening)), opening: item.opening,
                openSeconds: context.seconds(from: item.opening, to: last)))
            if recording { record(item, closing: nil, at: last, .logEnded, measured: nil, finding: nil, context: context) }
        }
        open.removeAll()
    }

    /// Every field but these four is set from the obligation when made. Their storage is kept unless a
    /// launch made it large, so that a launch's keys cost no allocation.
    override func clearForNextLaunch() -> Bool {
        // Most launches leave nothing to clear.
        guard !open.isEmpty || !discharged.isEmpty || !lapsed.isEmpty else { return true }
        open.removeAll(keepingCapacity: open.capacity <= Self.keptCapacity)
        discharged.removeAll(keepingCapacity: discharged.capacity <= Self.keptCapacity)
        lapsed.removeAll(keepingCapacity: lapsed.capacity <= Self.keptCapacity)
        return true
    }

    /// The most keys whose storage a cleared check keeps for the next launch.
    private static let keptCapacity = 8

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
        if let previous = open.updateValue(Open(opening: event), forKey: key), isRecording(context) {
            record(previous, closing: nil, at: event, .replaced, measured: nil, finding: nil, context: context)
        }
        // Skipped when there is nothing to remove.
        if !discharged.isEmpty { discharged.remove(key) }
        if !lapsed.isEmpty { lapsed.remove(key) }
    }

    private func closed(_ event: ReplayEvent, context: ReplayContext) {
        guard let key = key(of: event) else { return }
        guard let item = open.removeValue(forKey: key) else {
            if lapsed.remove(key) {
                discharged.insert(key)
            } else if discharged.contains(key) {
                emit(shared.spec.repeated, opening: nil, at: event, seconds: nil, context: context)
            } else {
                emit(shared.spec.unknown, opening: nil, at: event, seconds: nil, context: context)
            }
            return
        }
        discharged.insert(key)
        let recording = isRecording(context)
        if let expiredBy = item.expiredBy, shared.spec.expired != nil {
            let late = context.seconds(from: expiredBy, to: event)
            if late > context.budgets[.expirationGrace] {
                let finding = emit(shared.spec.expired, opening: item.opening, at: event, seconds: late,
                                   budget: .expirationGrace, extra: [expiredBy], context: context)
                if recording {
                    record(item, closing: event, at: event, .expired, measured: measure(item, until: event, context: context),
                           finding: finding, context: context)
                }
                return
            }
        }
        let measured = measure(item, until: event, context: context)
        var finding: Caused?
        if let (budget, seconds, limit, extra) = measured, seconds > limit {
            finding = emit(shared.spec.overrun[budget], opening: item.opening, at: event, seconds: seconds, budget: budget,
                           budgetSeconds: limit, extra: extra, context: context)
        }
        if recording {
            let outcome: TaskRecord.Outcome = item.expiredBy != nil ? .expired
                : (measured.map { $0.1 > $0.2 } ?? false) ? .overBudget : .completed
            record(item, closing: event, at: event, outcome, measured: measured, finding: finding, context: context)
        }
    }

    /// The budget of an open item and the seconds counted against it at `end`.
    private func measure(
        _ item: Open, until end: ReplayEvent, context: ReplayContext
    ) -> (BudgetName, Double, Double, [ReplayEvent])? {
        // Picked when measured, not when opened, so that what the replay learnt since counts
        // (a task's type may be told by a submit that comes while the task runs).
        let picked: BudgetName? = switch shared.spec.deadline {
        case .budget(let name): name
        case .chosen(let choose): choose(item.opening, context)
        case .backgroundTime: .backgroundTime
        case nil: nil
        }
        guard let budget = picked else { return nil }
        guard budget == .backgroundTime else {
            return (budget, context.seconds(from: item.opening, to: end), context.budgets[budget], [])
        }
        // Background time runs only in the background, from the start of this background period
        // (at a `suspend`, the period it just ended).
        let since: ReplayEvent
        let latestReading: ReplayEvent?
        if let current = context.launch.backgroundSince {
            (since, latestReading) = (current, context.launch.lastTimeRemaining)
        } else if context.launch.state == .suspended, let ended = context.launch.suspendedPeriod {
            (since, latestReading) = ended
        } else {
            return nil
        }
        let elapsed = context.seconds(from: since, to: end)
        if let reading = latestReading, let remaining = reading.backgroundTimeRemaining {
            return (budget, elapsed, context.seconds(from: since, to: reading) + remaining, [since, reading])
        }
        return (budget, elapsed, context.budgets[.backgroundTime], [since])
    }

    private func reportOutstanding(at event: ReplayEvent, ending: LaunchEnding?, context: ReplayContext) {
        // A launch's end comes here too: most find nothing open.
        guard !open.isEmpty else { return }
        let recording = isRecording(context)
        for (key, item) in open.elements {
            var finding: Caused?
            if let expiredBy = item.expiredBy, shared.spec.expired != nil {
                finding = emit(shared.spec.expired, opening: item.opening, at: event,
                               seconds: context.seconds(from: expiredBy, to: event), budget: .expirationGrace,
                               extra: [expiredBy], ending: ending, context: context)
            } else if shared.spec.missing != nil {
                finding = emit(shared.spec.missing, opening: item.opening, at: event,
                               seconds: context.seconds(from: item.opening, to: event), ending: ending, context: context)
            } else if let (budget, seconds, limit, extra) = measure(item, until: event, context: context), seconds > limit {
                // No discharge came, and the time already spent breaks the budget.
                finding = emit(shared.spec.overrun[budget], opening: item.opening, at: event, seconds: seconds, budget: budget,
                               budgetSeconds: limit, extra: extra, ending: ending, context: context)
            }
            if recording {
                record(item, closing: nil, at: event, .neverCompleted, measured: measure(item, until: event, context: context),
                       finding: finding, context: context)
            }
            lapsed.insert(key)
        }
        // The storage is kept for the launch's next openings (as the launch's clearing keeps it).
        open.removeAll(keepingCapacity: true)
    }

    /// Reports a breach; returns the finding's rule and number (for the work's record), or nil
    /// when the obligation does not report this kind of breach.
    @discardableResult
    private func emit(
        _ report: Obligation.Report?, opening: ReplayEvent?, at event: ReplayEvent, seconds: Double?,
        budget: BudgetName? = nil, budgetSeconds: Double? = nil, extra: [ReplayEvent] = [],
        ending: LaunchEnding? = nil, context: ReplayContext
    ) -> Caused? {
        guard let report else { return nil }
        let limit = budgetSeconds ?? budget.map { context.budgets[$0] }
        let breach = Obligation.Breach(
            opening: opening.map(context.resolved), at: context.resolved(event), seconds: seconds, budget: budget, budgetSeconds: limit, ending: ending)
        var events = [opening].compactMap { $0 } + extra + [event]
        events.sort { $0.ts < $1.ts }
        context.report(
            report.rule, at: event, events: events, message: report.message(breach), budget: budget,
            budgetSeconds: limit, measured: seconds)
        return Caused(rule: report.rule.id, number: context.latestFindingNumber)
    }

    // MARK: Records

    /// A finding an opening caused, for its record.
    private struct Caused {
        let rule: String
        let number: Int?
    }

    private func isRecording(_ context: ReplayContext) -> Bool { recordKind != nil && context.isRecordingWork }

    /// Writes down one opening as a ``TaskRecord``: `closing` is its discharge (nil when none
    /// came), `end` the event its time is measured to, `measured` what ``measure(_:until:context:)``
    /// found at `end`.
    private func record(
        _ item: Open, closing: ReplayEvent?, at end: ReplayEvent, _ outcome: TaskRecord.Outcome,
        measured: (BudgetName, Double, Double, [ReplayEvent])?, finding: Caused?, context: ReplayContext
    ) {
        guard let kind = recordKind else { return }
        let opening = context.resolved(item.opening)
        let identifier = kind == .backgroundTask ? opening.backgroundTaskName : opening.identifier
        context.record(TaskRecord(
            launch: context.launch.recordNumber, kind: kind, task: item.opening.task,
            call: opening.call, identifier: identifier, opened: item.opening.ts, closed: closing?.ts,
            expired: item.expiredBy?.ts, outcome: outcome, seconds: context.seconds(from: item.opening, to: end),
            budget: measured?.0.rawValue, budgetSeconds: measured?.2, measured: measured?.1,
            overBudget: measured.map { $0.1 > $0.2 }, findingNumber: finding?.number, findingRule: finding?.rule))
    }
}
