import Testing
import TraceSynth

/// The v1.1 capabilities are opt-in: without them the generator must write exactly what it wrote
/// before they existed, so the benchmark corpora, the golden files and `traces/` stay valid.
@Suite struct DefaultOutputTests {
    /// FNV-1a over every line of a small corpus with breaches. Recorded before v1.1 was added, and
    /// again when `bgtask-never-ran` came: a v1 device now keeps its requests from waiting more
    /// than a day (the refresh runs at least every 12 h, the cleanup early each day, a leftover
    /// fetch interval is backgroundFetchIntervalMinimum), so that a clean corpus stays clean.
    static let recordedHash: UInt64 = 10_675_037_269_707_241_652
    /// The same corpus as written before `bgtask-never-ran` (and before v1.1), which
    /// ``CorpusSpec/requestsMayWait`` still writes for `traces/` and the benchmark.
    static let hashBeforeTaskWait: UInt64 = 3_706_104_872_048_261_669

    @Test func defaultOutputIsByteForByteUnchanged() {
        var spec = CorpusSpec(devices: 8, days: 3, seed: 2026, breachRate: 0.3)
        #expect(spec.features.isEmpty)
        #expect(Self.hash(TraceGenerator(spec: spec)) == Self.recordedHash)
        spec.requestsMayWait = true
        #expect(Self.hash(TraceGenerator(spec: spec)) == Self.hashBeforeTaskWait)
    }

    static func hash(_ generator: TraceGenerator) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for device in 0..<generator.spec.devices {
            for day in 0..<generator.spec.days {
                for byte in generator.lineBytes(device: device, day: day).bytes {
                    hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                }
                for breach in generator.injectedBreaches(device: device, day: day) {
                    for byte in "\(breach.kind)\(breach.launch)\(breach.ts.microseconds)".utf8 {
                        hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                    }
                }
            }
        }
        return hash
    }
}
