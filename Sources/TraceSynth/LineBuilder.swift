import TraceModel

/// Builds JSON lines straight into a byte buffer.
///
/// Speed matters (a benchmark generates millions of lines), so nothing here goes through
/// `JSONSerialization` or `DateFormatter`: keys and event names are static ASCII, values are
/// known to need no escaping, and times are formatted by hand.
struct LineBuilder {
    /// The finished lines, each followed by `\n`.
    private(set) var bytes: [UInt8] = []
    /// Offset in ``bytes`` just past each line's `\n`.
    private(set) var lineEnds: [Int] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity * 190)
        lineEnds.reserveCapacity(capacity)
    }

    var lineCount: Int { lineEnds.count }

    /// Opens a line: `{"ts":"…","device":…,"launch":…,"seq":…,"mono":…,"event":"name"`.
    mutating func begin(ts: Int64, process: ProcessLog, seq: Int, monoMillis: Int64, event: StaticString) {
        append("{\"ts\":\"")
        appendTime(ts)
        bytes.append(contentsOf: process.identityFields)
        appendInt(Int64(seq))
        append(",\"mono\":")
        appendInt(monoMillis / 1000)
        bytes.append(UInt8(ascii: "."))
        appendPadded(monoMillis % 1000, width: 3)
        append(",\"event\":\"")
        append(event)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Closes the line with the envelope fields that follow the event's own attributes.
    mutating func end(process: ProcessLog) {
        bytes.append(contentsOf: process.envelopeTail)
        bytes.append(UInt8(ascii: "\n"))
        lineEnds.append(bytes.count)
    }

    mutating func field(_ key: StaticString, _ value: StaticString) {
        openField(key)
        bytes.append(UInt8(ascii: "\""))
        append(value)
        bytes.append(UInt8(ascii: "\""))
    }

    /// A string value; callers pass only text that needs no JSON escaping (identifiers, names).
    mutating func field(_ key: StaticString, string value: String) {
        openField(key)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: value.utf8)
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func field(_ key: StaticString, _ value: Int64) {
        openField(key)
        appendInt(value)
    }

    mutating func field(_ key: StaticString, _ value: Bool) {
        openField(key)
        append(value ? "true" : "false")
    }

    /// A number with two decimals, e.g. a battery level `0.57` or seconds `29.41`.
    mutating func field(_ key: StaticString, hundredths value: Int64) {
        openField(key)
        appendInt(value / 100)
        bytes.append(UInt8(ascii: "."))
        appendPadded(value % 100, width: 2)
    }

    /// A time as an RFC 3339 string with milliseconds.
    mutating func field(_ key: StaticString, time millis: Int64) {
        openField(key)
        bytes.append(UInt8(ascii: "\""))
        appendTime(millis)
        bytes.append(UInt8(ascii: "\""))
    }

    /// A JSON array of strings that need no escaping, given as its literal text.
    mutating func field(_ key: StaticString, raw value: StaticString) {
        openField(key)
        append(value)
    }

    private mutating func openField(_ key: StaticString) {
        append(",\"")
        append(key)
        append("\":")
    }

    private mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func appendInt(_ value: Int64) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            appendInt(-value)
            return
        }
        var divisor: Int64 = 1
        while divisor <= value / 10 { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(truncatingIfNeeded: value / divisor % 10) &+ 48)
            divisor /= 10
        }
    }

    private mutating func appendPadded(_ value: Int64, width: Int) {
        var divisor: Int64 = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(truncatingIfNeeded: rest / divisor) &+ 48)
            rest %= divisor
            divisor /= 10
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` in UTC.
    private mutating func appendTime(_ millis: Int64) {
        let days = millis >= 0 ? millis / 86_400_000 : (millis + 1) / 86_400_000 - 1
        let ofDay = millis - days * 86_400_000
        let (year, month, day) = CivilDate.fromDays(days)
        appendPadded(year, width: 4)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(month, width: 2)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(day, width: 2)
        bytes.append(UInt8(ascii: "T"))
        appendPadded(ofDay / 3_600_000, width: 2)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(ofDay / 60_000 % 60, width: 2)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(ofDay / 1000 % 60, width: 2)
        bytes.append(UInt8(ascii: "."))
        appendPadded(ofDay % 1000, width: 3)
        bytes.append(UInt8(ascii: "Z"))
    }
}
