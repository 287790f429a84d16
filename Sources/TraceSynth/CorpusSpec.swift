import TraceModel

/// What corpus to generate: how many devices over how many days, from which seed, how dense and
/// how dirty. The same spec always yields byte-identical files.
public struct CorpusSpec: Sendable, Hashable {
    /// Number of devices (installations), numbered from 0.
    public var devices: Int
    /// Number of consecutive UTC days, numbered from 0.
    public var days: Int
    /// The seed every device and day derives its randomness from.
    public var seed: UInt64
    /// Days since 1970-01-01 of day 0 (see ``init(devices:days:seed:year:month:day:breachRate:approxEventsPerDeviceDay:)``).
    public var startDay: Int64
    /// Probability, per process launch or resume, of injecting one rule breach; 0 gives a clean corpus.
    public var breachRate: Double
    /// The number of lines one device-day should hold on average (the generator aims at it; the
    /// count of a given day varies with its activity).
    public var approxEventsPerDeviceDay: Int
    /// The parts of trace format v1.1 to write; empty (the default) writes v1.
    public var features: TraceFeatures = []
    /// Whether, in a v1 corpus, a request may wait more than a day to run, as v1 days were
    /// simulated before `bgtask-never-ran` existed: each day on its own, so a request submitted
    /// late one day could wait past 24 h into the next, which the rule rightly reports. Off by
    /// default: a device keeps its requests from waiting (see `DaySimulator.refreshOverdue`), so a
    /// clean corpus has no findings. On, v1 is written byte for byte as before: the sample traces
    /// (which so show the rule), the benchmark's and the fuzzer's corpora keep their bytes. A v1.1
    /// corpus with ``TraceFeatures/neverRun`` keeps requests from waiting either way.
    public var requestsMayWait = false

    /// A spec starting on the UTC calendar date `year-month-day`.
    public init(
        devices: Int, days: Int, seed: UInt64, year: Int = 2026, month: Int = 11, day: Int = 21,
        breachRate: Double = 0, approxEventsPerDeviceDay: Int = 250
    ) {
        self.init(
            devices: devices, days: days, seed: seed,
            startDay: CivilDate.days(year: Int64(year), month: Int64(month), day: Int64(day)),
            breachRate: breachRate, approxEventsPerDeviceDay: approxEventsPerDeviceDay)
    }

    /// A spec starting on the UTC day that holds `start`.
    public init(
        devices: Int, days: Int, seed: UInt64, start: Timestamp, breachRate: Double = 0,
        approxEventsPerDeviceDay: Int = 250
    ) {
        let day = start.microseconds >= 0
            ? start.microseconds / 86_400_000_000 : (start.microseconds + 1) / 86_400_000_000 - 1
        self.init(
            devices: devices, days: days, seed: seed, startDay: day, breachRate: breachRate,
            approxEventsPerDeviceDay: approxEventsPerDeviceDay)
    }

    private init(
        devices: Int, days: Int, seed: UInt64, startDay: Int64, breachRate: Double,
        approxEventsPerDeviceDay: Int
    ) {
        self.devices = devices
        self.days = days
        self.seed = seed
        self.startDay = startDay
        self.breachRate = breachRate
        self.approxEventsPerDeviceDay = approxEventsPerDeviceDay
    }

    /// Midnight UTC of day `day` of the corpus, in milliseconds since the epoch.
    func dayStartMillis(_ day: Int) -> Int64 { (startDay + Int64(day)) * 86_400_000 }
}
