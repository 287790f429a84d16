/// The parts of trace format v1.1 the generator writes, on top of v1.
///
/// Every part is opt-in: with none (the default) the generator writes v1 logs, byte for byte
/// the same as before v1.1 existed, so corpora generated earlier stay valid. With some, each
/// device-day draws its randomness in a different order, so a v1.1 corpus shares nothing but its
/// devices with the v1 corpus of the same seed.
public struct TraceFeatures: OptionSet, Sendable, Hashable {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Most devices manage their UI through scene delegates (`scene.*`), a few of them with two
    /// windows (iPad-like); the app-level notifications follow from the scenes.
    public static let scenes = TraceFeatures(rawValue: 1 << 0)
    /// The app takes shared resources and opens listeners (`resource.acquire` / `.release`).
    public static let sharedResources = TraceFeatures(rawValue: 1 << 1)
    /// Background URL session tasks are logged as they are created, delayed and finished.
    public static let urlSessionScheduling = TraceFeatures(rawValue: 1 << 2)
    /// `config` carries `build` and `debugger`; a breach may force a run from the debugger.
    public static let debugging = TraceFeatures(rawValue: 1 << 3)
    /// Readings at every launch, and devices on which a request never runs (Low Power Mode,
    /// refresh disabled, the app swiped away or unused, no charger), over more than a day.
    public static let neverRun = TraceFeatures(rawValue: 1 << 4)

    /// Everything v1.1 adds.
    public static let v1_1: TraceFeatures = [.scenes, .sharedResources, .urlSessionScheduling, .debugging, .neverRun]
}
