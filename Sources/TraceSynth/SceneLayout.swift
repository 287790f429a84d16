/// How a scene-based device shows the app: one window, or on an iPad sometimes two.
///
/// It derives from `(seed, device)` alone, like ``DeviceProfile``, but from a stream of its own so
/// that v1 profiles are untouched.
struct SceneLayout {
    static let iPadModels = ["iPad13,4", "iPad13,16", "iPad14,3", "iPad14,8", "iPad16,3"]

    /// The user sometimes opens a second window of the app beside the first.
    let multiwindow: Bool
    /// The iPad model that replaces the profile's iPhone on a multi-window device.
    let model: String?

    /// The layout of device `device`, or nil when its app runs its UI from the app delegate
    /// (a fifth of devices: apps not yet adopting scenes remain common).
    init?(seed: UInt64, device: Int) {
        var rng = SplitMix64(seed, 0x5CE4E, UInt64(device))
        guard rng.chance(0.8) else { return nil }
        multiwindow = rng.chance(0.3)
        model = multiwindow ? rng.pick(SceneLayout.iPadModels) : nil
    }
}

/// A connected scene of the running launch and its state, as rules.md's scene machine names them.
struct LiveScene {
    enum State { case unattached, foregroundInactive, foregroundActive, background }

    let id: String
    var state: State
}
