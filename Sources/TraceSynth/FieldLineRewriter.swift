import TraceModel

/// Rewrites the generator's tidy lines of one device-file the way a field logger would have
/// written them (see ``FieldMix``): without `seq`, with another clock format, with unknown
/// nested fields, or damaged.
///
/// It works on the bytes the ``LineBuilder`` wrote, whose layout it knows: every line opens with
/// `{"ts":"YYYY-MM-DDTHH:MM:SS.mmmZ","device":…,"launch":…,"seq":N,` and ends with `}`.
struct FieldLineRewriter {
    private let mix: FieldMix
    private let style: TimeStyle
    private let dropsSeq: Bool
    /// The device's UTC offset in minutes, for ``TimeStyle/offsetMicros``.
    private let offsetMinutes: Int64
    private var random: SplitMix64
    /// Microseconds rise within one millisecond so that equal-millisecond events keep their
    /// order for devices without `seq`.
    private var lastMillis: Int64 = .min
    private var micros: Int64 = 0

    /// Lines damaged so far (the corpus's expected reject count).
    private(set) var damagedLines = 0

    init(mix: FieldMix, seed: UInt64, device: Int, day: Int) {
        var perDevice = SplitMix64(seed, 0xF1E1D, UInt64(device))
        self.mix = mix
        style = mix.timeStyle(&perDevice)
        dropsSeq = perDevice.chance(mix.unsequencedDevices)
        offsetMinutes = perDevice.pick([-480, -300, 60, 120, 330, 540])
        random = SplitMix64(seed, 0xF1E1D, UInt64(device), UInt64(day))
    }

    /// Appends the rewritten `line` (without its newline) and a newline to `output`.
    mutating func rewrite(_ line: ArraySlice<UInt8>, into output: inout [UInt8]) {
        let start = output.count
        guard let tsEnd = timestampEnd(line) else {
            output.append(contentsOf: line)
            output.append(UInt8(ascii: "\n"))
            return
        }
        output.append(contentsOf: line[line.startIndex..<(line.startIndex + 6)])  // {"ts":
        appendTime(line[(line.startIndex + 7)..<(tsEnd - 2)], into: &output)  // without `Z"`
        var rest = line[tsEnd...]
        if dropsSeq { rest = withoutSeq(rest) }
        if random.chance(mix.extraFieldLines), rest.last == UInt8(ascii: "}") {
            output.append(contentsOf: rest.dropLast())
            output.append(contentsOf: Self.extraFields)
        } else {
            output.append(contentsOf: rest)
        }
        if random.chance(mix.badLines) { damage(from: start, in: &output) }
        output.append(UInt8(ascii: "\n"))
    }

    private static let extraFields = Array(
        #","ctx":{"screen":"feed","ab":[1,2,{"variant":"b","weight":0.25}],"flags":{"beta":true}},"build":"5120.3"}"#.utf8)

    /// The index just past the closing quote of the `ts` string, if the line has the layout.
    private func timestampEnd(_ line: ArraySlice<UInt8>) -> Int? {
        let quote = line.startIndex + 31
        guard line.count > 32, line[line.startIndex + 6] == UInt8(ascii: "\""), line[quote] == UInt8(ascii: "\"")
        else { return nil }
        return quote + 1
    }

    /// Drops `,"seq":N` from the fields after `ts`.
    private func withoutSeq(_ fields: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let key = Array(#","seq":"#.utf8)
        guard let at = fields.firstRange(of: key) else { return fields }
        var end = at.upperBound
        while end < fields.endIndex, fields[end] != UInt8(ascii: ",") { end += 1 }
        return fields[..<at.lowerBound] + fields[end...]
    }

    /// Writes `YYYY-MM-DDTHH:MM:SS.mmm` (the generator's time, `Z` excluded) in the device's style.
    private mutating func appendTime(_ text: ArraySlice<UInt8>, into output: inout [UInt8]) {
        let millis = Self.millis(text)
        if millis == lastMillis { micros = min(micros + 1, 999) } else { micros = random.int(0...499) }
        lastMillis = millis
        switch style {
        case .zuluMillis:
            output.append(UInt8(ascii: "\""))
            output.append(contentsOf: text)
            output.append(contentsOf: Array("Z\"".utf8))
        case .zuluMicros:
            output.append(UInt8(ascii: "\""))
            output.append(contentsOf: text)
            Self.appendPadded(micros, width: 3, into: &output)
            output.append(contentsOf: Array("Z\"".utf8))
        case .offsetMicros:
            let local = millis + offsetMinutes * 60_000
            output.append(UInt8(ascii: "\""))
            output.append(contentsOf: Self.isoText(millis: local).utf8)
            Self.appendPadded(micros, width: 3, into: &output)
            output.append(UInt8(ascii: offsetMinutes < 0 ? "-" : "+"))
            Self.appendPadded(abs(offsetMinutes) / 60, width: 2, into: &output)
            output.append(UInt8(ascii: ":"))
            Self.appendPadded(abs(offsetMinutes) % 60, width: 2, into: &output)
            output.append(UInt8(ascii: "\""))
        case .epochSeconds:
            output.append(contentsOf: String(millis / 1000).utf8)
            output.append(UInt8(ascii: "."))
            Self.appendPadded(millis % 1000 * 1000 + micros, width: 6, into: &output)
        }
    }

    /// Replaces the line written from `start` with one of the ways field lines go bad.
    private mutating func damage(from start: Int, in output: inout [UInt8]) {
        damagedLines += 1
        let line = Array(output[start...])
        output.removeSubrange(start...)
        switch random.int(0...4) {
        case 0: output.append(contentsOf: line.prefix(line.count / 2))  // cut mid-line
        case 1: output.append(contentsOf: Array("<html><body>502 Bad Gateway</body></html>".utf8))
        case 2:  // invalid UTF-8 inside a string
            output.append(contentsOf: line.prefix(20))
            output.append(contentsOf: [0xC3, 0x28, 0xFF])
            output.append(contentsOf: line.dropFirst(20))
        case 3: output.append(contentsOf: Array(#"{"ts":"2026-11-21T00:00:00Z","event":"launch"}"#.utf8))  // no device
        default: output.append(contentsOf: Array(#"{"ts":"yesterday","device":"d","launch":"l","event":"launch"}"#.utf8))
        }
    }

    private static func millis(_ text: ArraySlice<UInt8>) -> Int64 {
        func number(_ from: Int, _ count: Int) -> Int64 {
            var value: Int64 = 0
            for byte in text[(text.startIndex + from)..<(text.startIndex + from + count)] {
                value = value * 10 + Int64(byte &- 48)
            }
            return value
        }
        let days = CivilDate.days(year: number(0, 4), month: number(5, 2), day: number(8, 2))
        let seconds = number(11, 2) * 3600 + number(14, 2) * 60 + number(17, 2)
        return (days * 86_400 + seconds) * 1000 + number(20, 3)
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmm` of a count of milliseconds since the epoch.
    private static func isoText(millis: Int64) -> String {
        let day = millis / 86_400_000
        let ofDay = millis % 86_400_000
        let (year, month, date) = CivilDate.fromDays(day)
        var bytes: [UInt8] = []
        appendPadded(year, width: 4, into: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(month, width: 2, into: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(date, width: 2, into: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendPadded(ofDay / 3_600_000, width: 2, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(ofDay / 60_000 % 60, width: 2, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(ofDay / 1000 % 60, width: 2, into: &bytes)
        bytes.append(UInt8(ascii: "."))
        appendPadded(ofDay % 1000, width: 3, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func appendPadded(_ value: Int64, width: Int, into output: inout [UInt8]) {
        var digits = String(value).utf8.map { $0 }
        while digits.count < width { digits.insert(UInt8(ascii: "0"), at: 0) }
        output.append(contentsOf: digits)
    }
}
