/// What a replay writes down besides findings, for the store's derived tables (`launches`,
/// `intervals`, `tasks`, `requests`): one record per subject, emitted once, when the subject is
/// finished — a launch when it ends, a callback when it returns or is cut off, a piece of work when
/// it is closed or due or its log ends, a task request when it runs, is replaced, cancelled or
/// refused, or when the device's log ends with it still pending.
///
/// Texts are resolved when the record is made (the replay numbers them while it runs); every
/// closed set is an enum whose raw values are the tables' public names. A launch is numbered, from
/// 0, in the order the replay began it (``LaunchRecord/number``); the other records name their
/// launch by that number, which the store turns into the launch's row id.
public enum DerivedRecord: Sendable, Hashable {
    /// Boxed: a launch's record is the largest by far, and rare.
    indirect case launch(LaunchRecord)
    case interval(IntervalRecord)
    case task(TaskRecord)
    case request(RequestRecord)
}

/// Where a replay's derived records go, one method per kind of record: a record is handed over,
/// not copied (a replay of a fleet hands over millions, and copying each into a ``DerivedRecord``
/// and on cost the replay more than making it).
public protocol DerivedRecordSink: AnyObject {
    /// False for a sink that takes only launches: the replay then makes no record of callbacks,
    /// work or task requests, which are most of what recording costs (`check --stdin --launches`).
    var takesWork: Bool { get }
    func record(_ record: consuming LaunchRecord)
    func record(_ record: consuming IntervalRecord)
    func record(_ record: consuming TaskRecord)
    func record(_ record: consuming RequestRecord)
    /// A launch began and was given `number` (``LaunchRecord/number``), long before its record
    /// comes: for a caller that merges several replays and numbers their launches anew.
    func launchBegan(number: Int)
}

extension DerivedRecordSink {
    public var takesWork: Bool { true }
    public func launchBegan(number: Int) {}
}

/// A ``DerivedRecordSink`` that passes each record, as a ``DerivedRecord``, to a closure.
public final class DerivedRecordClosure: DerivedRecordSink {
    private let body: (DerivedRecord) -> Void

    public init(_ body: @escaping (DerivedRecord) -> Void) {
        self.body = body
    }

    public func record(_ record: consuming LaunchRecord) { body(.launch(record)) }
    public func record(_ record: consuming IntervalRecord) { body(.interval(record)) }
    public func record(_ record: consuming TaskRecord) { body(.task(record)) }
    public func record(_ record: consuming RequestRecord) { body(.request(record)) }
}

/// One process lifetime (a `launch` id) as the replay saw it: a row of `launches`.
public struct LaunchRecord: Sendable, Hashable {
    /// How a launch's log ended.
    public enum Ending: String, Sendable, Hashable, CaseIterable {
        /// Its `terminate` was logged (``LaunchRecord/endReason`` says why).
        case terminated
        /// A new launch of the same process began while this one was suspended, with no
        /// `terminate` logged: the system reclaimed it quietly (a suspended app logs nothing).
        case reclaimed
        /// A new launch of the same process began while this one was running (not suspended),
        /// with no `terminate` logged: it ended without a word — as an app extension's process
        /// usually does; an app's was killed or crashed.
        case superseded
        /// The device's log ended with the process still running or suspended: the log does not
        /// say how it ended.
        case logEnded = "log-ended"
    }

    /// The launch's number in the replay (from 0, in the order launches began).
    public var number: Int
    public var device: String
    public var launch: String
    /// The envelope of the launch's first stored event (nil when not logged or not known).
    public var app: String?
    public var appVersion: String?
    public var os: String?
    public var model: String?
    /// `app` (or nil) for the app, `extension:…` for an app extension.
    public var process: String?
    /// The launch's first event, and its last one when it ended (its `terminate`, or the last
    /// event before a new launch began or the log ended).
    public var firstTS: Timestamp
    public var lastTS: Timestamp
    /// How it started: `user`, `system`, `prewarm` or the `launch` event's reason as logged;
    /// `unknown` when its log began after its `launch` event.
    public var started: String
    /// What the system launched it for (`bgtask`, `push`, …), when it said.
    public var cause: String?
    public var ended: Ending
    /// The `terminate` event's reason, for a launch that was terminated.
    public var endReason: String?
    /// The app state it ended in: for a terminated launch, the state the `terminate` found it in.
    public var endState: String
    /// Seconds spent in the foreground (active or inactive), in the background and suspended,
    /// from its first event to its end (see ``lastTS``), from `mono` where both events carry it.
    public var foregroundSeconds: Double
    public var backgroundSeconds: Double
    public var suspendedSeconds: Double
    /// Its background periods, in order.
    public var backgroundPeriods: [BackgroundPeriod]
    /// True when the file holding its last event was cut short.
    public var logCutShort: Bool

    public init(
        number: Int, device: String, launch: String, app: String?, appVersion: String?, os: String?, model: String?,
        process: String?, firstTS: Timestamp, lastTS: Timestamp, started: String, cause: String?, ended: Ending,
        endReason: String?, endState: String, foregroundSeconds: Double, backgroundSeconds: Double,
        suspendedSeconds: Double, backgroundPeriods: [BackgroundPeriod] = [], logCutShort: Bool
    ) {
        self.number = number
        self.device = device
        self.launch = launch
        self.app = app
        self.appVersion = appVersion
        self.os = os
        self.model = model
        self.process = process
        self.firstTS = firstTS
        self.lastTS = lastTS
        self.started = started
        self.cause = cause
        self.ended = ended
        self.endReason = endReason
        self.endState = endState
        self.foregroundSeconds = foregroundSeconds
        self.backgroundSeconds = backgroundSeconds
        self.suspendedSeconds = suspendedSeconds
        self.backgroundPeriods = backgroundPeriods
        self.logCutShort = logCutShort
    }
}

/// One background period of a launch: from its move into the background (`didEnterBackground` from
/// the foreground, a launch or resume into the background, app code run while suspended) to its
/// move out, and how it ended. Kept in the launch's row (`launches.background_periods`): a table
/// row per period cost `check` a fifth of what the derived tables cost it.
public struct BackgroundPeriod: Sendable, Hashable {
    /// How a background period ended.
    public enum Ending: String, Sendable, Hashable, CaseIterable {
        /// The app was suspended.
        case suspended
        /// The app returned to the foreground.
        case foreground
        /// The process was terminated.
        case terminated
        /// The launch's log ended first: the seconds are a lower bound.
        case logEnded = "log-ended"
    }

    /// Seconds in the background (from `mono` where both events carry it).
    public var seconds: Double
    public var ended: Ending

    public init(seconds: Double, ended: Ending) {
        self.seconds = seconds
        self.ended = ended
    }
}

/// One callback logged with `phase` `begin` (and, when it returned, `end`): a row of `intervals`.
public struct IntervalRecord: Sendable, Hashable {
    /// What became of a callback that began.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// Its `end` was logged.
        case returned
        /// The app was suspended before it returned.
        case suspended
        /// The process was terminated before it returned.
        case terminated
        /// The same callback began again before this call's `end` was logged.
        case restarted
        /// The launch's log ended (nothing more was logged, or a new launch began with no
        /// `terminate`) while it ran: the log cannot say how long it took.
        case logEnded = "log-ended"
    }

    /// The number of its launch (``LaunchRecord/number``).
    public var launch: Int
    /// The event name: `didEnterBackground`, `scene.didEnterBackground`, `didFinishLaunching`, …
    public var callback: String
    /// The scene of a scene callback.
    public var scene: String?
    public var begin: Timestamp
    /// Its `end` (nil unless it returned).
    public var end: Timestamp?
    public var outcome: Outcome
    /// Seconds from its begin to its end, or — when it did not return — to the event that cut it
    /// off (the `suspend`, the `terminate`, the new begin, the launch's last event): a lower bound.
    public var seconds: Double
    /// The budget it is measured against, by name, and its value (nil for a callback with none).
    public var budget: String?
    public var budgetSeconds: Double?
    /// Whether `seconds` exceeded the budget; nil without a budget and when the outcome is
    /// `restarted` or `log-ended` (no evidence either way).
    public var overBudget: Bool?

    public init(
        launch: Int, callback: String, scene: String?, begin: Timestamp, end: Timestamp?,
        outcome: Outcome, seconds: Double, budget: String?, budgetSeconds: Double?, overBudget: Bool?
    ) {
        self.launch = launch
        self.callback = callback
        self.scene = scene
        self.begin = begin
        self.end = end
        self.outcome = outcome
        self.seconds = seconds
        self.budget = budget
        self.budgetSeconds = budgetSeconds
        self.overBudget = overBudget
    }
}

/// One piece of work the replay tracked from its opening to its discharge (a background task, a
/// BGTask run, a completion handler): a row of `tasks`.
public struct TaskRecord: Sendable, Hashable {
    /// The API the work belongs to.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// `beginBackgroundTask` … `endBackgroundTask`.
        case backgroundTask = "background-task"
        /// `bgtask.launch` … `bgtask.complete` (`setTaskCompleted(success:)`).
        case bgtask
        /// `fetch.perform` … `fetch.complete`.
        case fetch
        /// `push.receive` … `push.complete`.
        case push
        /// `urlsession.handleEvents` … `urlsession.complete`.
        case urlsessionEvents = "urlsession-events"
        /// `nse.receive` … `nse.contentHandler` (a Notification Service Extension).
        case nse
        /// `urlsession.willBeginDelayedRequest` … `urlsession.delayedRequest.complete`.
        case delayedRequest = "delayed-request"
    }

    /// What became of it.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// Closed within its budget (or it has none), with no expiration handler run.
        case completed
        /// Closed after its budget.
        case overBudget = "over-budget"
        /// Closed after its expiration handler ran.
        case expired
        /// Not closed when it was due: the app was suspended or the process terminated first.
        case neverCompleted = "never-completed"
        /// Opened again under the same task or call id before it was closed.
        case replaced
        /// Still open when the launch's log ended (nothing more was logged, or a new launch began
        /// with no `terminate`): the log cannot say whether it finished.
        case logEnded = "log-ended"
    }

    /// The number of its launch (``LaunchRecord/number``).
    public var launch: Int
    public var kind: Kind
    /// The `task` id that pairs it (background tasks, BGTask runs).
    public var task: Int64?
    /// The `call` id that pairs it (completion handlers).
    public var call: String?
    /// What it is for: the BGTask identifier, the URL session's identifier, or the name given to
    /// `beginBackgroundTask`.
    public var identifier: String?
    public var opened: Timestamp
    /// When it was closed (nil unless it was).
    public var closed: Timestamp?
    /// When its expiration handler ran, if it did before it was closed or due.
    public var expired: Timestamp?
    public var outcome: Outcome
    /// Seconds from its opening to its closing, or — when it was not closed — to the moment it
    /// was due (the `suspend` or `terminate`), replaced, or its launch's last event.
    public var seconds: Double
    /// The budget it is measured against, by name, its value, and the seconds counted against it
    /// (for a background task, from the start of the background period, or the latest
    /// `backgroundTimeRemaining` reading); nil when the work has no budget or was not measured.
    public var budget: String?
    public var budgetSeconds: Double?
    public var measured: Double?
    public var overBudget: Bool?
    /// The finding it caused, as its position (from 0) in the order the replay reported its
    /// findings; nil when it caused none.
    public var findingNumber: Int?
    /// That finding's rule.
    public var findingRule: String?

    public init(
        launch: Int, kind: Kind, task: Int64?, call: String?, identifier: String?,
        opened: Timestamp, closed: Timestamp?, expired: Timestamp?, outcome: Outcome, seconds: Double,
        budget: String?, budgetSeconds: Double?, measured: Double?, overBudget: Bool?, findingNumber: Int?,
        findingRule: String?
    ) {
        self.launch = launch
        self.kind = kind
        self.task = task
        self.call = call
        self.identifier = identifier
        self.opened = opened
        self.closed = closed
        self.expired = expired
        self.outcome = outcome
        self.seconds = seconds
        self.budget = budget
        self.budgetSeconds = budgetSeconds
        self.measured = measured
        self.overBudget = overBudget
        self.findingNumber = findingNumber
        self.findingRule = findingRule
    }
}

/// One BGTaskScheduler request, from its `bgtask.submit` to what became of it: a row of `requests`.
public struct RequestRecord: Sendable, Hashable {
    /// What became of a submitted request.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// The system ran its task (`bgtask.launch` of its identifier).
        case launched
        /// A later submit of the same identifier replaced it while it was pending.
        case replaced
        /// `bgtask.cancel` of its identifier, or of every request, while it was pending.
        case cancelled
        /// The submit threw (``RequestRecord/error``): nothing was scheduled.
        case rejected
        /// The submit would have made more pending requests of its type than the system allows
        /// (1 refresh, 10 processing), so the system refused it (`bgtask-too-many-pending`).
        case overLimit = "over-limit"
        /// The submit named no type Lifeline knows (`refresh` or `processing`): it was not followed.
        case untyped
        /// Still pending when the device's log ended.
        case pending
    }

    /// The number of the launch that submitted it (``LaunchRecord/number``).
    public var launch: Int
    public var identifier: String
    /// `refresh` or `processing`, as logged.
    public var type: String?
    public var submitted: Timestamp
    public var earliestBegin: Timestamp?
    public var requiresPower: Bool?
    public var requiresNetwork: Bool?
    public var outcome: Outcome
    /// The error the submit threw (`tooManyPendingTaskRequests`, `notPermitted`, …).
    public var error: String?
    /// When it stopped being pending: launched, replaced or cancelled.
    public var ended: Timestamp?
    /// For a launched request: the number of the launch its task ran in, and the task id.
    public var ranIn: Int?
    public var task: Int64?
    /// For a launched request: seconds on the wall clock from when it could first run (its
    /// earliest begin date, or its submit when that is later or absent) to its launch.
    public var waitSeconds: Double?

    public init(
        launch: Int, identifier: String, type: String?, submitted: Timestamp,
        earliestBegin: Timestamp?, requiresPower: Bool?, requiresNetwork: Bool?, outcome: Outcome, error: String?,
        ended: Timestamp?, ranIn: Int?, task: Int64?, waitSeconds: Double?
    ) {
        self.launch = launch
        self.identifier = identifier
        self.type = type
        self.submitted = submitted
        self.earliestBegin = earliestBegin
        self.requiresPower = requiresPower
        self.requiresNetwork = requiresNetwork
        self.outcome = outcome
        self.error = error
        self.ended = ended
        self.ranIn = ranIn
        self.task = task
        self.waitSeconds = waitSeconds
    }
}

extension DerivedRecord {
    /// The record with its launch and finding numbers moved by these offsets: for a caller that
    /// merges replays of devices made apart, where a device's launches and findings are numbered
    /// contiguously, into the numbering of one replay of them all.
    public func renumbered(launches: Int, findings: Int) -> DerivedRecord {
        switch self {
        case .launch(var record):
            record.number += launches
            return .launch(record)
        case .interval(var record):
            record.launch += launches
            return .interval(record)
        case .task(var record):
            record.launch += launches
            record.findingNumber = record.findingNumber.map { $0 + findings }
            return .task(record)
        case .request(var record):
            record.launch += launches
            record.ranIn = record.ranIn.map { $0 + launches }
            return .request(record)
        }
    }
}
