import Replay
import TraceModel

/// Writes down every BGTask request of the device for the `requests` table: each `bgtask.submit`,
/// once, when what became of it is known — run (`bgtask.launch` of its identifier), replaced by a
/// later submit, cancelled, refused at once (an error, the pending limit, no known type), or still
/// pending when the device's log ended. Reports nothing, and does nothing unless the replay records.
///
/// It takes ``TaskRequestStore``'s word on which submits scheduled a request, so that the table
/// and `bgtask-too-many-pending`, `bgtask-never-ran` and the task budgets agree on what was
/// pending: it must run after ``PendingRequestsCheck``, which keeps the store.
final class RequestRecordCheck: Check {
    static let blueprint = CheckBlueprint(
        scope: .device, interests: [.bgtaskSubmit, .bgtaskCancel, .bgtaskLaunch], runsOnExtensions: true,
        rules: [], make: { _ in RequestRecordCheck() })

    /// A request pending: its identifier, its submit and the launch that made it.
    private struct Pending {
        var identifier: TextID
        var submit: ReplayEvent
        /// Its launch's ``LaunchState/recordNumber``.
        var launch: Int
    }

    /// The device's pending requests, in the order they were submitted (a handful: one per identifier).
    private var pending: [Pending] = []
    private var store: TaskRequestStore?

    override func receive(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
        guard context.isRecordingWork else { return }
        if kind == .bgtaskSubmit {
            submitted(event, context: context)
        } else if kind == .bgtaskCancel {
            let cancelled = pending.filter { event.identifier == nil || $0.identifier == event.identifier }
            pending.removeAll { event.identifier == nil || $0.identifier == event.identifier }
            for request in cancelled { write(request, .cancelled, ended: event, context: context) }
        } else if kind == .bgtaskLaunch, let identifier = event.identifier,
                  let index = pending.firstIndex(where: { $0.identifier == identifier }) {
            write(pending.remove(at: index), .launched, ended: event, context: context)
        }
    }

    override func logEnded(context: ReplayContext) {
        for request in pending { write(request, .pending, ended: nil, context: context) }
        pending.removeAll()
    }

    private func submitted(_ event: ReplayEvent, context: ReplayContext) {
        guard let identifier = event.identifier else { return }
        let request = Pending(identifier: identifier, submit: event, launch: context.launch.recordNumber)
        let store = store ?? context.device.store(TaskRequestStore.self)
        self.store = store
        // Scheduled only if the store took this very submit as the identifier's pending request.
        guard let scheduled = store.pending[identifier], scheduled.number == context.device.eventNumber
        else {
            let submit = context.resolved(event)
            let outcome: RequestRecord.Outcome = submit.requestError != nil ? .rejected
                : submit.requestType.flatMap(TaskRequestStore.Kind.init(rawValue:)) == nil ? .untyped : .overLimit
            return write(request, outcome, ended: nil, context: context)
        }
        if let index = pending.firstIndex(where: { $0.identifier == identifier }) {
            write(pending.remove(at: index), .replaced, ended: event, context: context)
        }
        pending.append(request)
    }

    /// The record of `request`; `ended` is the event that ended its wait (its launch, the submit
    /// that replaced it, the cancel).
    private func write(_ request: Pending, _ outcome: RequestRecord.Outcome, ended: ReplayEvent?, context: ReplayContext) {
        let submit = context.resolved(request.submit)
        var earliest: Timestamp?
        var requiresPower: Bool?
        var requiresNetwork: Bool?
        if case .submit(_, _, let begin, let power, let network) = request.submit.details {
            (earliest, requiresPower, requiresNetwork) = (begin, power, network)
        }
        let launched = outcome == .launched ? ended : nil
        // It could run from its earliest begin date, or from its submit when that came later.
        let eligible = max(request.submit.ts, earliest ?? request.submit.ts)
        context.record(RequestRecord(
            launch: request.launch, identifier: submit.identifier ?? "",
            type: submit.requestType, submitted: request.submit.ts, earliestBegin: earliest,
            requiresPower: requiresPower, requiresNetwork: requiresNetwork, outcome: outcome, error: submit.requestError,
            ended: ended?.ts, ranIn: launched.map { _ in context.launch.recordNumber }, task: launched?.task,
            waitSeconds: launched.map { $0.ts.seconds(since: eligible) }))
    }
}
