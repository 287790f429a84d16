/// The named time budgets the rules measure against, with their documented defaults.
/// Every one can be changed in the config file or with `--budget NAME=SECONDS`.
public enum BudgetName: String, Sendable, Codable, CaseIterable, Hashable {
    /// `applicationDidEnterBackground(_:)`: "That method has five seconds to perform any tasks and return."
    case didEnterBackground = "did-enter-background"
    /// Extra background time from `beginBackgroundTask`, counted from `didEnterBackground` begin
    /// or from the last `backgroundTimeRemaining` reading plus its value.
    case backgroundTime = "background-time"
    /// A `BGAppRefreshTask`: "up to 30 seconds of background runtime".
    case refreshTask = "refresh-task"
    /// A `BGProcessingTask`: Apple says "several minutes"; 600 s is our pick, not Apple's number.
    case processingTask = "processing-task"
    /// `performFetchWithCompletionHandler` completion, from delivery.
    case fetchCompletion = "fetch-completion"
    /// Background push completion: "your app has up to 30 seconds to complete its work".
    case pushCompletion = "push-completion"
    /// Notification Service Extension content handler, from `nse.receive`.
    case nseCompletion = "nse-completion"
    /// How long after an expiration handler runs the end/complete call may still come.
    case expirationGrace = "expiration-grace"
    /// How long a task request (or an explicit minimum fetch interval) may wait for the system to
    /// run it, on the device's wall clock across launches. Apple promises no time: 24 h is
    /// Lifeline's pick, not Apple's number.
    case taskWait = "task-wait"

    public var defaultSeconds: Double {
        switch self {
        case .didEnterBackground: 5
        case .backgroundTime, .refreshTask, .fetchCompletion, .pushCompletion, .nseCompletion: 30
        case .processingTask: 600
        case .expirationGrace: 5
        case .taskWait: 86_400
        }
    }
}

/// Budget values in seconds: the defaults, overridden by configuration.
public struct Budgets: Sendable, Hashable, Codable {
    private var overrides: [BudgetName: Double] = [:]

    public init(_ overrides: [BudgetName: Double] = [:]) {
        self.overrides = overrides
    }

    public subscript(name: BudgetName) -> Double {
        get { overrides[name] ?? name.defaultSeconds }
        set { overrides[name] = newValue }
    }

    /// Every budget with its value, in declaration order.
    public var all: [(name: BudgetName, seconds: Double)] {
        BudgetName.allCases.map { ($0, self[$0]) }
    }
}
