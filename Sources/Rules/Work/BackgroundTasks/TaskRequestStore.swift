import Replay
import TraceModel

/// The BGTaskScheduler requests of one device, across its launches: which are pending, and the
/// type each identifier was last submitted with. ``PendingRequestsCheck`` keeps it; the BGTask
/// obligation reads the types to pick a launched task's budget.
///
/// Its state is not checked for exclusivity at run time, for the reason given at ``LaunchState``.
final class TaskRequestStore: DeviceStore {
    /// A task request's class: `BGAppRefreshTaskRequest` or `BGProcessingTaskRequest`.
    enum Kind: String, Sendable {
        case refresh, processing

        /// "There can be a total of 1 refresh task and 10 processing tasks scheduled at any time."
        var limit: Int { self == .refresh ? 1 : 10 }
        var budget: BudgetName { self == .refresh ? .refreshTask : .processingTask }
    }

    struct Request {
        var kind: Kind
        /// The submit that scheduled it.
        var submit: ReplayEvent
        /// The submit's number in the device's replay (``DeviceState/eventNumber``).
        var number: Int
    }

    /// Requests scheduled and neither run nor cancelled, by identifier.
    @exclusivity(unchecked) private(set) var pending: [TextID: Request] = [:]
    /// The type of the latest submit of each identifier, even one that threw: it says what kind
    /// of task the identifier names.
    @exclusivity(unchecked) private(set) var kinds: [TextID: Kind] = [:]

    init() {}

    /// Notes the type an identifier was submitted with.
    func noteKind(_ kind: Kind, of identifier: TextID) { kinds[identifier] = kind }

    /// Other pending requests of `kind`, oldest first, not counting `identifier` (which a
    /// submit of it would replace).
    func pending(_ kind: Kind, besides identifier: TextID) -> [Request] {
        pending.filter { $0.key != identifier && $0.value.kind == kind }.map(\.value)
            .sorted { $0.submit.ts < $1.submit.ts }
    }

    /// How many ``pending(_:besides:)`` would list, counted without making the list: asked at
    /// every submit, where the list is wanted only for a finding.
    func pendingCount(_ kind: Kind, besides identifier: TextID) -> Int {
        var count = 0
        for (key, request) in pending where key != identifier && request.kind == kind { count += 1 }
        return count
    }

    /// Schedules (or replaces) the request of `identifier`.
    func schedule(_ identifier: TextID, _ request: Request) { pending[identifier] = request }

    /// The system ran the task of `identifier`: its request is no longer pending.
    func consume(_ identifier: TextID) { pending[identifier] = nil }

    /// Cancels one request, or every request when `identifier` is nil.
    func cancel(_ identifier: TextID?) {
        if let identifier { pending[identifier] = nil } else { pending.removeAll() }
    }
}
