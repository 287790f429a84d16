/// One lifecycle or task event of one process lifetime, as the trace format defines it.
///
/// The envelope and the attributes the rules read most get typed fields; every other field of the
/// input line, known or not, is kept verbatim in ``attrs`` as the text of a JSON object, so that
/// nothing a newer logger adds is lost on the way to the store.
///
/// A value type whose fields live in one shared box, copied only when a copy is changed (copy on
/// write): the replay passes and keeps events by the hundred thousand (a launch's latest event,
/// the event an open task began with, the start of a background period), and copying the fields
/// themselves — 280 bytes and a dozen strings to retain and release — was most of its cost
/// (callgrind, 41k events: memcpy 50M, retain and release of strings 95M of 290M instructions).
public struct Event: Sendable, Hashable {
    @usableFromInline var storage: EventStorage

    public init(
        ts: Timestamp, device: String, launch: String, name: String, seq: Int64? = nil,
        mono: Double? = nil, app: String? = nil, appVersion: String? = nil, os: String? = nil,
        model: String? = nil, process: String? = nil, phase: String? = nil, reason: String? = nil,
        cause: String? = nil, task: Int64? = nil, identifier: String? = nil, call: String? = nil,
        success: Bool? = nil, result: String? = nil, attrs: String? = nil, rowID: Int64? = nil
    ) {
        let kind = EventKind(name: name)
        storage = EventStorage(EventFields(
            ts: ts, device: device, launch: launch, kind: kind, otherName: kind == .other ? name : nil,
            seq: seq, mono: mono, app: app, appVersion: appVersion, os: os, model: model, process: process,
            phase: phase, reason: reason, cause: cause, task: task, identifier: identifier, call: call,
            success: success, result: result, attrs: attrs, rowID: rowID))
    }

    /// The box to change: this event's own, made so first if another event shares it.
    @inlinable
    mutating func unique() -> EventStorage {
        if !isKnownUniquelyReferenced(&storage) { storage = EventStorage(storage.fields) }
        return storage
    }

    public static func == (lhs: Event, rhs: Event) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(storage.fields) }
}

extension Event {
    /// Wall-clock time of the event.
    @inlinable public var ts: Timestamp {
        get { storage.fields.ts }
        set { unique().fields.ts = newValue }
    }
    /// Opaque id of the installation on one device.
    @inlinable public var device: String {
        get { storage.fields.device }
        set { unique().fields.device = newValue }
    }
    /// Opaque id of one process lifetime.
    @inlinable public var launch: String {
        get { storage.fields.launch }
        set { unique().fields.launch = newValue }
    }
    /// What the event is: its name as a closed set, which the replay switches over.
    @inlinable public var kind: EventKind { storage.fields.kind }
    /// Per-launch counter that orders events whose `ts` tie or run backwards.
    @inlinable public var seq: Int64? {
        get { storage.fields.seq }
        set { unique().fields.seq = newValue }
    }
    /// Monotonic seconds since boot; durations prefer it over `ts`.
    @inlinable public var mono: Double? {
        get { storage.fields.mono }
        set { unique().fields.mono = newValue }
    }
    @inlinable public var app: String? {
        get { storage.fields.app }
        set { unique().fields.app = newValue }
    }
    @inlinable public var appVersion: String? {
        get { storage.fields.appVersion }
        set { unique().fields.appVersion = newValue }
    }
    @inlinable public var os: String? {
        get { storage.fields.os }
        set { unique().fields.os = newValue }
    }
    @inlinable public var model: String? {
        get { storage.fields.model }
        set { unique().fields.model = newValue }
    }
    /// `"app"` (the default when absent) or `"extension:<name>"`.
    @inlinable public var process: String? {
        get { storage.fields.process }
        set { unique().fields.process = newValue }
    }
    /// `"begin"` or `"end"` for callbacks whose duration matters.
    @inlinable public var phase: String? {
        get { storage.fields.phase }
        set { unique().fields.phase = newValue }
    }
    @inlinable public var reason: String? {
        get { storage.fields.reason }
        set { unique().fields.reason = newValue }
    }
    @inlinable public var cause: String? {
        get { storage.fields.cause }
        set { unique().fields.cause = newValue }
    }
    @inlinable public var task: Int64? {
        get { storage.fields.task }
        set { unique().fields.task = newValue }
    }
    @inlinable public var identifier: String? {
        get { storage.fields.identifier }
        set { unique().fields.identifier = newValue }
    }
    /// Id of one completion-handler delivery; numbers are kept as their decimal text.
    @inlinable public var call: String? {
        get { storage.fields.call }
        set { unique().fields.call = newValue }
    }
    @inlinable public var success: Bool? {
        get { storage.fields.success }
        set { unique().fields.success = newValue }
    }
    @inlinable public var result: String? {
        get { storage.fields.result }
        set { unique().fields.result = newValue }
    }
    /// Every other field of the line as a JSON object's text (`{"priority":5,…}`), or nil if none.
    @inlinable public var attrs: String? {
        get { storage.fields.attrs }
        set { unique().fields.attrs = newValue }
    }
    /// The event's row id in the store (`events.id`), when it was read from one.
    @inlinable public var rowID: Int64? {
        get { storage.fields.rowID }
        set { unique().fields.rowID = newValue }
    }

    /// The event name (`"launch"`, `"bgtask.complete"`, …). Kept as its ``kind``, and as text
    /// only when it is not a known one: a known name's text is the kind's static raw value, so an
    /// event holds no reference for it and its kind is looked up once, not at every replay.
    public var name: String {
        get { storage.fields.otherName ?? kind.rawValue }
        set {
            let kind = EventKind(name: newValue)
            let fields = unique()
            fields.fields.kind = kind
            fields.fields.otherName = kind == .other ? newValue : nil
        }
    }

    /// True for events of an app extension process (`process` = `extension:…`).
    public var isExtension: Bool { process?.hasPrefix("extension:") ?? false }
}

/// The fields of one ``Event``, one stored property each.
@usableFromInline
struct EventFields: Sendable, Hashable {
    @usableFromInline var ts: Timestamp
    @usableFromInline var device: String
    @usableFromInline var launch: String
    @usableFromInline var kind: EventKind
    /// The name's text when it is none of the known ones (``kind`` is ``EventKind/other``).
    @usableFromInline var otherName: String?
    @usableFromInline var seq: Int64?
    @usableFromInline var mono: Double?
    @usableFromInline var app: String?
    @usableFromInline var appVersion: String?
    @usableFromInline var os: String?
    @usableFromInline var model: String?
    @usableFromInline var process: String?
    @usableFromInline var phase: String?
    @usableFromInline var reason: String?
    @usableFromInline var cause: String?
    @usableFromInline var task: Int64?
    @usableFromInline var identifier: String?
    @usableFromInline var call: String?
    @usableFromInline var success: Bool?
    @usableFromInline var result: String?
    @usableFromInline var attrs: String?
    @usableFromInline var rowID: Int64?
}

/// The box an ``Event`` and its copies share.
///
/// `@unchecked Sendable` and `@exclusivity(unchecked)`: `fields` is changed only through
/// ``Event/unique()``, after `isKnownUniquelyReferenced` proved that no other event (so no other
/// thread) holds this box; the event's own accesses are checked statically as a struct's. A
/// dynamic check on every read of a field would cost more than the field.
@usableFromInline
final class EventStorage: @unchecked Sendable {
    @exclusivity(unchecked) @usableFromInline var fields: EventFields

    @usableFromInline
    init(_ fields: EventFields) { self.fields = fields }
}
