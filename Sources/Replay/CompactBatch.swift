import TraceModel

/// Events of one device made compact by their reader, on the reader's thread, for
/// ``Replayer/receive(_:emit:)``: the replay then does no text or attribute work at all.
///
/// A batch carries what its events need and the replay has not seen: the texts numbered since the
/// device's previous batch (appended to the device's ``TextTable`` in order, so the numbers agree)
/// and the launches begun since then (by serial, continuing the previous batch's). Batches of one
/// device come in order and come whole; each launch's events are contiguous in them.
public struct CompactBatch: Sendable {
    public let device: String
    public let newTexts: [String]
    public let newLaunches: [LaunchHeader]
    public let events: [ReplayEvent]
}

/// What the replay needs to know of a launch that its events do not say.
public struct LaunchHeader: Sendable, Hashable {
    /// The launch id.
    public var launch: String
    /// The `process` of its first event: nil or `"app"` for the app, `"extension:…"` otherwise.
    public var process: String?
    /// The envelope of its first event, which no rule reads: only its ``LaunchRecord`` quotes it.
    public var app: String?
    public var appVersion: String?
    public var os: String?
    public var model: String?

    public init(
        launch: String, process: String?, app: String? = nil, appVersion: String? = nil, os: String? = nil,
        model: String? = nil
    ) {
        self.launch = launch
        self.process = process
        self.app = app
        self.appVersion = appVersion
        self.os = os
        self.model = model
    }
}

/// Makes the ``CompactBatch``es of one device on its reader's thread.
///
/// Give it each launch as it begins (``beginLaunch(_:)``), make each event with ``event(_:launch:)``
/// in the launch's order, ``append(_:)`` it, and ``take()`` a batch whenever enough are held and
/// at the device's end.
public struct CompactBatchBuilder {
    public let device: String
    private var texts = TextTableFeed()
    private var launchCount: UInt32 = 0
    private var newLaunches: [LaunchHeader] = []
    private var events: [ReplayEvent] = []

    public init(device: String, capacity: Int) {
        self.device = device
        events.reserveCapacity(capacity)
    }

    /// How many events are held for the next batch.
    public var count: Int { events.count }

    /// Numbers a new launch of this device; its events carry the number.
    public mutating func beginLaunch(_ header: LaunchHeader) -> UInt32 {
        newLaunches.append(header)
        defer { launchCount &+= 1 }
        return launchCount
    }

    /// The compact form of an event of the launch numbered `launch`.
    public mutating func event(_ raw: RawEventFields, launch: UInt32) -> ReplayEvent {
        ReplayEvent(raw, launch: launch, texts: &texts)
    }

    /// The compact form of a decoded event of the launch numbered `launch`.
    public mutating func event(_ event: borrowing Event, launch: UInt32) -> ReplayEvent {
        ReplayEvent(event, launch: launch, numbering: &texts)
    }

    public mutating func append(_ event: ReplayEvent) {
        events.append(event)
    }

    /// The batch of what is held, which is then let go.
    public mutating func take() -> CompactBatch {
        let batch = CompactBatch(device: device, newTexts: texts.takeNewTexts(), newLaunches: newLaunches, events: events)
        newLaunches.removeAll()
        events.removeAll(keepingCapacity: true)
        return batch
    }
}
