import TraceModel

/// What the replay writes down about one launch for the derived tables, made only when the
/// replay's caller wants records: the time the launch spends in each app state, each background
/// period, and every callback logged with a `phase`, paired begin to end. Its ``LaunchState``
/// shows it every event after the life cycle applied it; it emits an ``IntervalRecord`` when a
/// callback returns or is cut off, and the ``LaunchRecord``, with the launch's background periods,
/// when the launch ends.
///
/// A background period is the life cycle's (``AppLifecycle/backgroundSince``): from the move into
/// the background — `didEnterBackground` from the foreground, a launch or resume into the
/// background, app code run while suspended — to the move out of it (suspension, the foreground,
/// the process's end). A log that begins mid-launch begins in a background period (the life
/// cycle's guess).
///
/// A callback is paired by its name, its scene (a scene callback) and, for `expiringActivity`,
/// its `reason` (two activities may overlap). As the `did-enter-background-overrun` obligation
/// pairs them: a second `begin` before the `end` restarts the call, and a `suspend` or the
/// launch's end cuts off every call still running — measured to that event against the budget,
/// except at the end of the log, which is no evidence.
///
/// Its fields are read and written for every event of its launch: not checked for exclusivity at
/// run time, for the reason given at ``LaunchState`` (a recorder belongs to one launch's state).
final class LaunchRecorder {
    private let device: DeviceState
    private let number: Int
    private let isExtension: Bool
    /// The `did-enter-background` budget of the replay.
    private let didEnterBackgroundBudget: Double
    /// The app state after the events so far, and the event that moved it there.
    @exclusivity(unchecked) private var state = AppState.notRunning
    @exclusivity(unchecked) private var mark: ReplayEvent
    @exclusivity(unchecked) private var foreground = 0.0
    @exclusivity(unchecked) private var background = 0.0
    @exclusivity(unchecked) private var suspended = 0.0
    @exclusivity(unchecked) private var periods: [BackgroundPeriod] = []
    /// The `begin`s of the callbacks still running, oldest first (rarely more than one).
    @exclusivity(unchecked) private var running: [ReplayEvent] = []

    init(
        device: DeviceState, number: Int, first: ReplayEvent, isExtension: Bool,
        didEnterBackgroundBudget: Double
    ) {
        self.device = device
        self.number = number
        self.isExtension = isExtension
        self.didEnterBackgroundBudget = didEnterBackgroundBudget
        mark = first
    }

    /// Takes `event` of `kind`, after which the app is in state `after`. (The state before is the
    /// recorder's own: for the life cycle, its guess for a log that begins mid-launch is no move.)
    @inline(__always)
    func observe(_ event: ReplayEvent, kind: EventKind, state after: AppState) {
        if after != state { moved(to: after, at: event) }
        // Callbacks are followed only for their records (a launch's own record needs none).
        guard device.isRecordingWork else { return }
        if let phase = event.phase {
            callback(event, kind: kind, phase: phase)
        } else if kind == .suspend, !running.isEmpty {
            for begin in running { interval(begin, end: nil, cutAt: event, .suspended) }
            running.removeAll()
        }
    }

    /// The launch ended: every callback still running is cut off, and the launch is written down.
    func launchEnded(_ ending: LaunchEnding, launch: LaunchState) {
        let last = launch.lastEvent
        spent(ReplayContext.seconds(from: mark, to: last), in: state)
        // A period still open: a terminate has ended it already (the state moved).
        if state == .background { period(until: last, .logEnded) }
        let ended: LaunchRecord.Ending
        var endReason: String?
        let endState: AppState
        let cutOff: IntervalRecord.Outcome
        switch ending {
        case .terminated(let terminate):
            ended = .terminated
            endReason = terminate.reason.map(text)
            // The life cycle has applied the terminate last: the state before it is where it found the app.
            endState = launch.stateBefore
            cutOff = .terminated
        case .superseded:
            ended = launch.state == .suspended ? .reclaimed : .superseded
            endState = launch.state
            cutOff = .logEnded
        case .endOfLog:
            ended = .logEnded
            endState = launch.state
            cutOff = .logEnded
        }
        for begin in running { interval(begin, end: nil, cutAt: last, cutOff) }
        running.removeAll()
        var started = "unknown"
        var cause: String?
        if let launchEvent = launch.launchEvent {
            cause = launchEvent.cause.map(text)
            // As the life cycle reads it: a launch with a cause and no reason is the system's.
            started = launchEvent.reason.map(text) ?? (cause == nil ? "user" : "system")
        }
        // Its envelope as the launch's events completed it (a stream learns it as the lines come).
        let envelope = launch.envelope
        device.records?.sink.record(LaunchRecord(
            number: number, device: device.device, launch: launch.launch, app: envelope.app, appVersion: envelope.appVersion,
            os: envelope.os, model: envelope.model, process: envelope.process, firstTS: launch.firstEvent.ts, lastTS: last.ts,
            started: started, cause: cause, ended: ended, endReason: endReason, endState: endState.rawValue,
            foregroundSeconds: foreground, backgroundSeconds: background, suspendedSeconds: suspended,
            backgroundPeriods: periods, logCutShort: launch.logCutShort))
    }

    /// A reason as logged: by a switch rather than ``OpenSet``'s search of its listed texts.
    private func text(_ reason: Reason) -> String {
        switch reason {
        case .user: "user"
        case .system: "system"
        case .prewarm: "prewarm"
        case .quiet: "quiet"
        case .watchdog: "watchdog"
        case .memory: "memory"
        case .assertionTimeout: "assertion-timeout"
        case .crash: "crash"
        case .resource: "resource"
        case .other(let id): device.texts[id]
        }
    }

    /// A cause as logged (see ``text(_:)-(Reason)``).
    private func text(_ cause: Cause) -> String {
        switch cause {
        case .bgtask: "bgtask"
        case .fetch: "fetch"
        case .push: "push"
        case .urlsession: "urlsession"
        case .location: "location"
        case .audio: "audio"
        case .nse: "nse"
        case .other(let id): device.texts[id]
        }
    }

    /// The app moved to `after` at `event`: the time since the last move is counted in the state it
    /// left, and a background period ends or begins.
    private func moved(to after: AppState, at event: ReplayEvent) {
        spent(ReplayContext.seconds(from: mark, to: event), in: state)
        if state == .background {
            period(until: event, after == .suspended ? .suspended : after == .notRunning ? .terminated : .foreground)
        }
        state = after
        mark = event
    }

    /// Notes the background period that began at ``mark`` and ended at `end`.
    private func period(until end: ReplayEvent, _ ended: BackgroundPeriod.Ending) {
        periods.append(BackgroundPeriod(seconds: ReplayContext.seconds(from: mark, to: end), ended: ended))
    }

    private func spent(_ seconds: Double, in state: AppState) {
        switch state {
        case .active, .inactive: foreground += seconds
        case .background: background += seconds
        case .suspended: suspended += seconds
        case .notRunning: break
        }
    }

    private func callback(_ event: ReplayEvent, kind: EventKind, phase: Phase) {
        switch phase {
        case .begin:
            if let index = runningCall(like: event) {
                interval(running.remove(at: index), end: nil, cutAt: event, .restarted)
            }
            running.append(event)
        case .end:
            // An end with no begin (the log began while it ran) has nothing to measure.
            guard let index = runningCall(like: event) else { return }
            interval(running.remove(at: index), end: event, cutAt: event, .returned)
        case .other:
            return
        }
    }

    /// The latest running call of the callback `event` begins or ends (rarely more than one runs).
    private func runningCall(like event: ReplayEvent) -> Int? {
        var index = running.count
        while index > 0 {
            index -= 1
            if Self.sameCall(running[index], event) { return index }
        }
        return nil
    }

    /// Whether two events are the begin and end (or two begins) of one callback.
    private static func sameCall(_ a: ReplayEvent, _ b: ReplayEvent) -> Bool {
        a.kind == b.kind && a.otherName == b.otherName && a.scene == b.scene
            && (a.kind != .expiringActivity || a.reason == b.reason)
    }

    /// The budget a callback is measured against: `didEnterBackground`'s, for the app's and each
    /// scene's (as the overrun rule measures them; extensions have no such callback).
    private func budget(of kind: EventKind) -> BudgetName? {
        guard !isExtension, kind == .didEnterBackground || kind == .sceneDidEnterBackground else { return nil }
        return .didEnterBackground
    }

    private func interval(_ begin: ReplayEvent, end: ReplayEvent?, cutAt cut: ReplayEvent, _ outcome: IntervalRecord.Outcome) {
        let seconds = ReplayContext.seconds(from: begin, to: cut)
        let budget = budget(of: begin.kind)
        let limit = budget == nil ? nil : didEnterBackgroundBudget
        let judged = outcome != .restarted && outcome != .logEnded
        device.records?.sink.record(IntervalRecord(
            launch: number, callback: begin.otherName.map { device.texts[$0] } ?? begin.kind.rawValue,
            scene: begin.scene.map { device.texts[$0] }, begin: begin.ts, end: end?.ts, outcome: outcome,
            seconds: seconds, budget: budget?.rawValue, budgetSeconds: limit,
            overBudget: judged ? limit.map { seconds > $0 } : nil))
    }
}
