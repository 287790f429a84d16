/// How untidy a field-like corpus is: the proportions of a real fleet-day's uploads, which the
/// generator's own output (every device logs `seq`, every file is zstd, every time is `Z` with
/// milliseconds) is not.
///
/// The defaults are the mix the benchmark documents: loggers that predate `seq`, uploads that
/// arrive gzip'd or plain, clocks written with offsets and microseconds or as epoch numbers,
/// events that carry fields Lifeline does not know, a few damaged lines and a file cut short.
public struct FieldMix: Sendable, Hashable {
    /// Share of devices whose logger writes no `seq` (their events are known by content).
    public var unsequencedDevices = 0.15
    /// Share of files uploaded as gzip, and as plain text; the rest are multi-frame zstd.
    public var gzipFiles = 0.10
    public var plainFiles = 0.10
    /// Shares of devices writing `ts` as RFC 3339 `Z` with microseconds, with a UTC offset and
    /// microseconds, and as a Unix epoch number; the rest write `Z` with milliseconds.
    public var microsecondTimes = 0.15
    public var offsetTimes = 0.20
    public var epochTimes = 0.15
    /// Share of lines carrying unknown fields, one of them a nested object with an array.
    public var extraFieldLines = 0.05
    /// Share of lines damaged in one of the ways field logs are (cut, not JSON, bad UTF-8, a
    /// missing field, a time that does not parse).
    public var badLines = 0.02
    /// Share of zstd files whose last frame is cut short, as when a process dies mid-write.
    public var cutFiles = 0.01

    public init() {}
}

/// The way one device writes its clock.
enum TimeStyle: CaseIterable {
    case zuluMillis, zuluMicros, offsetMicros, epochSeconds
}

/// How one file of a field-like corpus is stored.
enum FieldCompression {
    case zstd, gzip, plain

    var fileExtension: String {
        switch self {
        case .zstd: "jsonl.zst"
        case .gzip: "jsonl.gz"
        case .plain: "jsonl"
        }
    }
}

extension FieldMix {
    func timeStyle(_ random: inout SplitMix64) -> TimeStyle {
        let draw = random.unit()
        if draw < microsecondTimes { return .zuluMicros }
        if draw < microsecondTimes + offsetTimes { return .offsetMicros }
        if draw < microsecondTimes + offsetTimes + epochTimes { return .epochSeconds }
        return .zuluMillis
    }

    func compression(_ random: inout SplitMix64) -> FieldCompression {
        let draw = random.unit()
        if draw < gzipFiles { return .gzip }
        if draw < gzipFiles + plainFiles { return .plain }
        return .zstd
    }
}
