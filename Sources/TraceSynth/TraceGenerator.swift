import TraceModel

/// A deterministic generator of field traces of `com.example.news`: the lines a device's logger
/// writes in one UTC day, with clean life cycles and, at the spec's rate, injected breaches.
///
/// Every device-day derives from `(seed, device, day)` alone: any file can be generated on its
/// own, in any order, on any machine, and always comes out byte for byte the same. (With
/// ``TraceFeatures/neverRun``, a device whose request never runs also depends on its earlier
/// days, which are simulated again to know when its wait began: still deterministic.)
///
/// ``CorpusSpec/features`` chooses the trace format: empty for v1, ``TraceFeatures/v1_1`` (or
/// some of its parts) for v1.1 logs with their own ``BreachKind``s (``BreachKind/isV1_1``).
public struct TraceGenerator: Sendable {
    public let spec: CorpusSpec

    public init(spec: CorpusSpec) { self.spec = spec }

    /// The lines of one device-day in order, as JSON text without the trailing newline.
    public func lines(device: Int, day: Int) -> [String] {
        var result: [String] = []
        forEachLine(device: device, day: day) { result.append($0) }
        return result
    }

    /// Calls `body` with each line of one device-day in order (JSON text, no newline).
    public func forEachLine(device: Int, day: Int, _ body: (String) -> Void) {
        let output = simulate(device: device, day: day).out
        output.bytes.withUnsafeBufferPointer { bytes in
            var start = 0
            for end in output.lineEnds {
                body(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(end - 1)]), as: UTF8.self))
                start = end
            }
        }
    }

    /// The lines of one device-day as UTF-8, each followed by `\n`, with the offset just past
    /// each line's newline: what a writer needs without making a `String` per line.
    public func lineBytes(device: Int, day: Int) -> (bytes: [UInt8], lineEnds: [Int]) {
        let output = simulate(device: device, day: day).out
        return (output.bytes, output.lineEnds)
    }

    /// The breaches written into one device-day, in order of time.
    public func injectedBreaches(device: Int, day: Int) -> [InjectedBreach] {
        simulate(device: device, day: day).breaches
    }

    /// The stable `device` id of device number `device`.
    public func deviceID(_ device: Int) -> String { profile(device).id }

    /// The file a field upload of this device-day would come as, e.g. `dev-0007-2026-11-21.jsonl.zst`.
    public func fileName(device: Int, day: Int, extension ext: String = "jsonl.zst") -> String {
        let (year, month, date) = CivilDate.fromDays(spec.startDay + Int64(day))
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "dev-\(pad(Int64(device), 4))-\(pad(year, 4))-\(pad(month, 2))-\(pad(date, 2)).\(ext)"
    }

    private func profile(_ device: Int) -> DeviceProfile {
        DeviceProfile(seed: spec.seed, device: device)
    }

    /// The lines of a device-day on which the app never ran, only its notification service
    /// extension, each followed by `\n`.
    func extensionOnlyLineBytes(device: Int, day: Int) -> [UInt8] {
        simulate(device: device, day: day, extensionOnly: true).out.bytes
    }

    private func simulate(device: Int, day: Int, extensionOnly: Bool = false) -> DaySimulator {
        var history = NeverRunHistory()
        // A request that never runs waits across days: replay the days before until they have
        // decided all they can (when the wait began, whether its breach was written).
        if spec.features.contains(.neverRun), NeverRunPlan(seed: spec.seed, device: device, rate: spec.breachRate) != nil {
            for earlier in 0..<day where !history.reported {
                history = simulate(device: device, day: earlier, history: history, extensionOnly: false).neverRun
            }
        }
        return simulate(device: device, day: day, history: history, extensionOnly: extensionOnly)
    }

    private func simulate(device: Int, day: Int, history: NeverRunHistory, extensionOnly: Bool) -> DaySimulator {
        var simulator = DaySimulator(spec: spec, device: device, day: day, profile: profile(device))
        simulator.continueNeverRun(from: history)
        if extensionOnly || simulator.appRetired { simulator.runExtensionOnly() } else { simulator.run() }
        return simulator
    }
}
