/// One lifecycle or task event of one process lifetime, as the trace format defines it.
///
/// The envelope and the attributes the rules read most get typed fields; every other field of the
/// input line, known or not, is kept verbatim in ``attrs`` as the text of a JSON object, so that
/// nothing a newer logger adds is lost on the way to the store.
public struct Event: Sendable, Hashable {
    /// Wall-clock time of the event.
    public var ts: Timestamp
    /// Opaque id of the installation on one device.
    public var device: String
    /// Opaque id of one process lifetime.
    public var launch: String
    /// What the event is: its name as a closed set, which the replay switches over.
    public private(set) var kind: EventKind
    /// The name's text when it is none of the known ones (``kind`` is ``EventKind/other``).
    private var otherName: String?
    /// Per-launch counter that orders events whose `ts` tie or run backwards.
    public var seq: Int64?
    /// Monotonic seconds since boot; durations prefer it over `ts`.
    public var mono: Double?
    public var app: String?
    public var appVersion: String?
    public var os: String?
    public var model: String?
    /// `"app"` (the default when absent) or `"extension:<name>"`.
    public var process: String?

    /// `"begin"` or `"end"` for callbacks whose duration matters.
    public var phase: String?
    public var reason: String?
    public var cause: String?
    public var task: Int64?
    public var identifier: String?
    /// Id of one completion-handler delivery; numbers are kept as their decimal text.
    public var call: String?
    public var success: Bool?
    public var result: String?
    /// Every other field of the line as a JSON object's text (`{"priority":5,…}`), or nil if none.
    public var attrs: String?
    /// The event's row id in the store (`events.id`), when it was read from one.
    public var rowID: Int64?

    public init(
        ts: Timestamp, device: String, launch: String, name: String, seq: Int64? = nil,
        mono: Double? = nil, app: String? = nil, appVersion: String? = nil, os: String? = nil,
        model: String? = nil, process: String? = nil, phase: String? = nil, reason: String? = nil,
        cause: String? = nil, task: Int64? = nil, identifier: String? = nil, call: String? = nil,
        success: Bool? = nil, result: String? = nil, attrs: String? = nil, rowID: Int64? = nil
    ) {
        self.ts = ts
        self.device = device
        self.launch = launch
        kind = EventKind(name: name)
        otherName = kind == .other ? name : nil
        self.seq = seq
        self.mono = mono
        self.app = app
        self.appVersion = appVersion
        self.os = os
        self.model = model
        self.process = process
        self.phase = phase
        self.reason = reason
        self.cause = cause
        self.task = task
        self.identifier = identifier
        self.call = call
        self.success = success
        self.result = result
        self.attrs = attrs
        self.rowID = rowID
    }
}

extension Event {
    /// The event name (`"launch"`, `"bgtask.complete"`, …). Kept as its ``kind``, and as text
    /// only when it is not a known one: a known name's text is the kind's static raw value, so an
    /// event holds no reference for it and its kind is looked up once, not at every replay.
    /// Copying events was the largest cost in the replay's profile.
    public var name: String {
        get { otherName ?? kind.rawValue }
        set {
            kind = EventKind(name: newValue)
            otherName = kind == .other ? newValue : nil
        }
    }

    /// True for events of an app extension process (`process` = `extension:…`).
    public var isExtension: Bool { process?.hasPrefix("extension:") ?? false }
}
