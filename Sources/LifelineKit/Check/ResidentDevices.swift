import TraceStore

/// The devices a `check --stdin` of a stream in any order replays as their lines come: the first
/// `limit` devices to appear (`--devices-in-memory`). A device after them is spilled
/// (``DeviceSpill``) and replayed once the stream ends, so that the replay's state — about 20 kB a
/// device until the stream ends, since any device may log again — stays bounded.
struct ResidentDevices {
    /// Enough for a fleet of a couple of thousand devices to be replayed in one pass, in some
    /// tens of megabytes of replay state.
    static let defaultLimit = 2000

    let limit: Int
    private let selection: Store.DeviceSelection
    private var held = Set<String>()
    /// The devices admitted and refused last: most lines follow one of the same device.
    private var last: String?
    private var lastRefused: String?

    init(limit: Int, selection: Store.DeviceSelection) {
        self.limit = max(1, limit)
        self.selection = selection
    }

    /// Whether a line of `device` is replayed as it comes (false: it is spilled). A device that
    /// `--device` leaves out is never replayed, so it holds no replay state: its lines pass and
    /// are dropped, as when nothing is spilled.
    @inline(__always)
    mutating func admits(_ device: String) -> Bool {
        if device == last { return true }
        if device == lastRefused { return false }
        return admitsAnother(device)
    }

    private mutating func admitsAnother(_ device: String) -> Bool {
        if case .only(let names) = selection, !names.contains(device) { return true }
        guard held.contains(device) || held.count < limit else {
            lastRefused = device
            return false
        }
        held.insert(device)
        last = device
        return true
    }
}
