import Crypto
import TraceModel

/// An event's identity, which decides what counts as "the same event" across files.
///
/// With a `seq` (the per-launch counter every conforming logger writes) an event is
/// `(device, launch, seq)`: a second line with the same three is the same event, whatever else
/// it says. Without one, it is its launch plus a hash of its content (time, name, every field);
/// the hash lives in the partial unique index `event_rows_unsequenced`.
enum EventIdentity {
    /// Sequence numbers at or above this do not fit the row id's low 32 bits beside the
    /// unsequenced range; such events are identified by content, like events without `seq`.
    static let sequencedLimit: Int64 = 1 << 31

    /// The row id of a sequenced event, or nil if it must be identified by content.
    static func sequencedRowID(launchID: Int64, seq: Int64?) -> Int64? {
        guard let seq, seq >= 0, seq < sequencedLimit else { return nil }
        return launchID << 32 | seq
    }

    /// The row id given to the `ordinal`-th unsequenced event of a launch.
    static func unsequencedRowID(launchID: Int64, ordinal: Int64) -> Int64 {
        launchID << 32 | (sequencedLimit + ordinal)
    }

    /// A 63-bit content hash of everything the event says, keyed by its launch.
    static func contentHash(_ event: Event, launchID: Int64) -> Int64 {
        var hasher = SHA256()
        func add(_ text: String?) {
            if let text { hasher.update(data: Array(text.utf8)) }
            hasher.update(data: [0])
        }
        add(String(launchID))
        add(String(event.ts.microseconds))
        add(event.name)
        add(event.seq.map(String.init))
        add(event.mono.map { "\($0)" })
        for field in [event.app, event.appVersion, event.os, event.model, event.process,
                      event.phase, event.reason, event.cause, event.task.map(String.init),
                      event.identifier, event.call, event.success.map { "\($0)" }, event.result, event.attrs]
        {
            add(field)
        }
        let digest = Array(hasher.finalize())
        let value = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int64(bitPattern: value & UInt64(Int64.max))
    }
}
