import TraceModel

/// A ``ReplayEvent`` with its texts at hand, for the sentence of a finding: the fields a message
/// quotes, as text. Made only when a finding is written (``ReplayContext/resolved(_:)``), so
/// the replay of events that break nothing never turns a number back into a string.
public struct ResolvedEvent {
    public let event: ReplayEvent
    private let texts: TextTable

    init(_ event: ReplayEvent, texts: TextTable) {
        self.event = event
        self.texts = texts
    }

    public var ts: Timestamp { event.ts }
    public var kind: EventKind { event.kind }
    public var task: Int64? { event.task }
    /// The event name (`"launch"`, `"bgtask.complete"`, or the unknown name as logged).
    public var name: String { event.otherName.map { texts[$0] } ?? event.kind.rawValue }
    public var phase: String? { event.phase?.text(in: texts) }
    public var reason: String? { event.reason?.text(in: texts) }
    public var cause: String? { event.cause?.text(in: texts) }
    public var identifier: String? { event.identifier.map { texts[$0] } }
    public var call: String? { event.call.map { texts[$0] } }
    /// The `scene` of a scene event or a `snapshot`.
    public var scene: String? { event.scene.map { texts[$0] } }

    /// The `name` attribute of a `beginBackgroundTask`.
    public var backgroundTaskName: String? {
        guard case .backgroundTask(let name?) = event.details else { return nil }
        return texts[name]
    }

    /// The `type` of a `bgtask.submit` (`refresh`, `processing`).
    public var requestType: String? {
        guard case .submit(let type?, _, _, _, _) = event.details else { return nil }
        return texts[type]
    }

    /// The `error` a `bgtask.submit` threw.
    public var requestError: String? {
        guard case .submit(_, let error?, _, _, _) = event.details else { return nil }
        return texts[error]
    }

    /// The `push_type` of a `push.receive` (the `apns-push-type` header).
    public var pushType: String? {
        guard case .push(_, _, let pushType?) = event.details else { return nil }
        return texts[pushType]
    }

    /// The `resource` a `resource.acquire` or `resource.release` names.
    public var resource: String? { event.resource.map { texts[$0] } }

    /// The `kind` of a `resource.acquire`, as logged.
    public var resourceKind: String? { event.resourceKind?.text(in: texts) }

    /// The pointer a finding keeps to this event.
    public var reference: EventRef {
        EventRef(rowID: event.rowID, seq: event.seq, name: name, ts: event.ts)
    }
}
