/// The fields of one event as a reader holds them: numbers, and texts as UTF-8 bytes that the
/// reader owns only for the call (a row of the store, before the next step; a pack's bytes), for
/// making the replay's compact event with no `Event` and no strings in between.
///
/// Here rather than in the replay so that the store's reader fills it in as it decodes a row or
/// a pack: copying the fields from one struct to another, column by column, was a sixth of the
/// reading thread's work.
public struct RawEventFields {
    public var ts: Timestamp
    public var mono: Double?
    public var seq: Int64?
    public var task: Int64?
    public var rowID: Int64?
    public var success: Bool?
    /// The event's name (`event`).
    public var name: UnsafeRawBufferPointer
    /// The name's kind if the reader has it already (a pack of the store writes it as a number);
    /// nil to look it up from ``name``.
    public var kind: EventKind?
    public var phase: UnsafeRawBufferPointer?
    public var reason: UnsafeRawBufferPointer?
    public var cause: UnsafeRawBufferPointer?
    public var identifier: UnsafeRawBufferPointer?
    public var call: UnsafeRawBufferPointer?
    public var result: UnsafeRawBufferPointer?
    public var attrs: UnsafeRawBufferPointer?

    public init(
        ts: Timestamp, mono: Double?, seq: Int64?, task: Int64?, rowID: Int64?, success: Bool?,
        name: UnsafeRawBufferPointer, phase: UnsafeRawBufferPointer?, reason: UnsafeRawBufferPointer?,
        cause: UnsafeRawBufferPointer?, identifier: UnsafeRawBufferPointer?, call: UnsafeRawBufferPointer?,
        result: UnsafeRawBufferPointer?, attrs: UnsafeRawBufferPointer?, kind: EventKind? = nil
    ) {
        self.kind = kind
        self.ts = ts
        self.mono = mono
        self.seq = seq
        self.task = task
        self.rowID = rowID
        self.success = success
        self.name = name
        self.phase = phase
        self.reason = reason
        self.cause = cause
        self.identifier = identifier
        self.call = call
        self.result = result
        self.attrs = attrs
    }
}
