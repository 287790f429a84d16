import TraceModel

/// An event's identity, which decides what counts as "the same event" across files.
///
/// With a `seq` (the per-launch counter every conforming logger writes) an event is
/// `(device, launch, seq)`: a second line with the same three is the same event, whatever else
/// it says, and its row id is `(launch id << 32) | seq`. Without one, it is its launch plus its
/// whole content (time, name, every field), looked up through ``UnsequencedIndex``; its row id
/// is `(launch id << 32) | (2^31 + ordinal)`, the ordinal counting the launch's such events in
/// the order they were first stored.
public enum EventIdentity {
    /// Sequence numbers at or above this do not fit the row id's low 32 bits beside the
    /// unsequenced range; such events are identified by content, like events without `seq`.
    static let sequencedLimit: Int64 = 1 << 31

    /// Whether an event with this `seq` is identified by `(device, launch, seq)` (and replayed in
    /// `seq` order before its launch's other events); false: by its content.
    public static func identifiesBySeq(_ seq: Int64?) -> Bool {
        guard let seq else { return false }
        return seq >= 0 && seq < sequencedLimit
    }

    /// The row id of a sequenced event, or nil if it must be identified by content.
    static func sequencedRowID(launchID: Int64, seq: Int64?) -> Int64? {
        guard let seq, seq >= 0, seq < sequencedLimit else { return nil }
        return launchID << 32 | seq
    }

    /// The row id given to the `ordinal`-th unsequenced event of a launch.
    static func unsequencedRowID(launchID: Int64, ordinal: Int64) -> Int64 {
        launchID << 32 | (sequencedLimit + ordinal)
    }

    /// The ordinal of an unsequenced event's row id (the inverse of ``unsequencedRowID``).
    static func unsequencedOrdinal(of rowID: Int64) -> Int64 {
        (rowID & 0xFFFF_FFFF) - sequencedLimit
    }

    /// The first row id of a launch's events.
    static func launchStart(_ launchID: Int64) -> Int64 {
        launchID << 32
    }

    /// The first row id past every event of a launch; the largest row id for the last launch id
    /// the store allows (``LaunchDirectory/maxLaunchID``), whose next would not fit.
    static func launchEnd(_ launchID: Int64) -> Int64 {
        launchID < LaunchDirectory.maxLaunchID ? (launchID + 1) << 32 : .max
    }
}
