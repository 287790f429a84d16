import TraceModel

/// A run of consecutive lines of one file, decoded, ready to be committed in one transaction.
public struct IngestBatch: Sendable {
    public var fileID: Int64
    /// Decoded events, with the input line number of each at the same index in `eventLines`.
    public private(set) var events: [Event] = []
    public private(set) var eventLines: [Int] = []
    /// The body of each event's packed record (``EventPack``), written here, on the thread that
    /// decodes, so that the writing thread only adds a few numbers and copies it; where each ends.
    let packedBodies = ByteBuffer()
    private(set) var packedBodyEnds: [Int] = []
    public var rejects: [RejectedLine] = []
    /// Every line up to and including this one is in this batch or an earlier one.
    public var throughLine: Int = 0

    /// `expectedEvents` reserves room up front: growing the array of ~300-byte events by
    /// doubling copied each of them once on average (3% of the reading thread's instructions).
    public init(fileID: Int64, expectedEvents: Int = 0) {
        self.fileID = fileID
        events.reserveCapacity(expectedEvents)
        eventLines.reserveCapacity(expectedEvents)
        packedBodyEnds.reserveCapacity(expectedEvents)
    }

    /// The packed body of the event at `index`, valid while the batch is.
    func packedBody(_ index: Int) -> UnsafeRawBufferPointer {
        let bytes = packedBodies.bytes
        return UnsafeRawBufferPointer(rebasing: bytes[(index == 0 ? 0 : packedBodyEnds[index - 1]) ..< packedBodyEnds[index]])
    }

    public var isEmpty: Bool { events.isEmpty && rejects.isEmpty }

    /// Takes the event over rather than copying it: a copy retained and later released each of its
    /// strings (6% of the reading thread's instructions).
    public mutating func append(_ event: consuming Event, line: Int) {
        EventPack.appendBody(of: event, to: packedBodies)
        packedBodyEnds.append(packedBodies.count)
        events.append(event)
        eventLines.append(line)
    }
}

/// A line kept aside: where it was, why it is not an event, and its first bytes.
public struct RejectedLine: Sendable, Hashable {
    public var line: Int
    public var issue: LineIssue
    /// The line's bytes, capped (see ``RejectedLine/rawCap``).
    public var raw: [UInt8]
    /// The line's full length in bytes.
    public var rawBytes: Int

    /// How many bytes of a bad line are kept: enough to see what went wrong.
    public static let rawCap = 4096

    public init(line: Int, issue: LineIssue, raw: some Collection<UInt8>, rawBytes: Int? = nil) {
        self.line = line
        self.issue = issue
        self.raw = Array(raw.prefix(Self.rawCap))
        self.rawBytes = rawBytes ?? raw.count
    }
}

/// What one committed batch changed.
public struct BatchOutcome: Sendable, Hashable {
    public var inserted = 0
    public var duplicates = 0
    /// Rejected lines of the batch, stored now or already stored (a bad line seen again is
    /// still bad input, and counts as such in the file's row).
    public var rejects = 0
    /// Of ``rejects``, those already in `rejects` from an earlier ingest (see `RejectIdentity`).
    public var rejectsAlreadyStored = 0
}
