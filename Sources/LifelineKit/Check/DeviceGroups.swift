/// The devices of a stream that holds each device's lines together, device after device
/// (`check --stdin --grouped`): tells when the stream moves on to the next device, so that the
/// one before can be finished and its replay's state freed, and when a device comes back after
/// another, which such a stream must not do.
///
/// A finished device is remembered by a 64-bit hash of its id, not the id: 8 bytes a device, so
/// that a stream of a million devices holds megabytes, not the ids. Two devices whose hashes
/// collide (about one chance in 10¹⁰ with a million devices) would be taken for one come back.
struct DeviceGroups {
    enum Step {
        /// The device of the line before.
        case same
        /// A device not seen yet; `previous` (nil at the first line) is over.
        case next(previous: String?)
        /// A device whose lines came before another device's.
        case returned
    }

    private var current: String?
    private var finished = Set<Int>()

    /// Where the stream is, now that a line of `device` came.
    mutating func enter(_ device: String) -> Step {
        if device == current { return .same }
        let previous = current
        if let previous { finished.insert(Self.hash(previous)) }
        guard !finished.contains(Self.hash(device)) else { return .returned }
        current = device
        return .next(previous: previous)
    }

    private static func hash(_ device: String) -> Int {
        var hasher = Hasher()
        hasher.combine(device)
        return hasher.finalize()
    }
}

/// A stream said to be grouped by device (`--grouped`) in which a device came back.
public struct DeviceReturnedError: Error, CustomStringConvertible {
    public var line: Int
    public var device: String

    public var description: String {
        "line \(line): device \(ShownValue.shown(device)) came back after other devices' lines; --grouped needs each "
            + "device's lines together, device after device: give the files in device order (their names sorted, "
            + "when named by device), or drop --grouped"
    }
}
