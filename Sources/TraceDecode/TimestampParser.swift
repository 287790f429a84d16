import TraceModel

/// Parses the two time forms of the trace format without Foundation and without allocating:
/// RFC 3339 text and Unix epoch seconds.
public enum TimestampParser {
    /// Parses RFC 3339 (`2026-11-21T08:00:00.1Z`) or a decimal number of epoch seconds
    /// (`1763712000.25`), as `--since` and `--until` accept them.
    public static func parse(_ text: String) -> Timestamp? {
        var text = text
        return text.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            return parse(rfc3339: bytes) ?? parse(epochSeconds: bytes)
        }
    }

    /// Parses `YYYY-MM-DD(T|t| )hh:mm:ss[.fraction](Z|z|±hh:mm)`.
    ///
    /// The fraction may have any number of digits; those beyond microseconds are dropped. A leap
    /// second (`:60`) counts as the first second of the next minute. Returns nil for text that
    /// does not match or names no real date or time (month 13, Feb 30, hour 24).
    public static func parse(rfc3339 text: UnsafeRawBufferPointer) -> Timestamp? {
        guard text.count >= 20,
              let year = digits(text, 0, 4), text[4] == .minus,
              let month = digits(text, 5, 2), text[7] == .minus,
              let day = digits(text, 8, 2),
              text[10] | 0x20 == UInt8(ascii: "t") || text[10] == .space,
              let hour = digits(text, 11, 2), text[13] == .colon,
              let minute = digits(text, 14, 2), text[16] == .colon,
              let second = digits(text, 17, 2),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second <= 60
        else { return nil }

        var index = 19
        var micros: Int64 = 0
        if text[index] == .period {
            index += 1
            let start = index
            while index < text.count, text[index] &- .zero < 10 {
                if index - start < 6 { micros = micros * 10 + Int64(text[index] &- .zero) }
                index += 1
            }
            guard index > start else { return nil }
            for _ in min(index - start, 6) ..< 6 { micros *= 10 }
        }

        guard index < text.count else { return nil }
        var offsetSeconds: Int64 = 0
        switch text[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case .plus, .minus:
            guard index + 6 <= text.count,
                  let offsetHours = digits(text, index + 1, 2), text[index + 3] == .colon,
                  let offsetMinutes = digits(text, index + 4, 2),
                  offsetHours < 24, offsetMinutes < 60
            else { return nil }
            offsetSeconds = (offsetHours * 60 + offsetMinutes) * 60
            if text[index] == .minus { offsetSeconds = -offsetSeconds }
            index += 6
        default:
            return nil
        }
        guard index == text.count else { return nil }

        let days = CivilDate.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offsetSeconds
        return Timestamp(microseconds: seconds * 1_000_000 + micros)
    }

    /// The times the text form can write, 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999999Z.
    /// A number of epoch seconds beyond them is no time a device logged — most likely a count of
    /// milliseconds, which as seconds reads as the year 58,000 and makes every duration a thousand
    /// times too long — so ``EventDecoder`` refuses it as a `bad-ts`.
    public static let writableRange = Timestamp(microseconds: CivilDate.days(year: 0, month: 1, day: 1) * 86_400_000_000)
        ... Timestamp(microseconds: CivilDate.days(year: 10_000, month: 1, day: 1) * 86_400_000_000 - 1)

    /// Parses a JSON number of seconds since the Unix epoch (`1763712000`, `1763712000.25`,
    /// `1.76371200025e9`) exactly, digit by digit, without rounding through `Double`.
    ///
    /// Digits beyond microseconds are dropped towards the earlier microsecond. Returns nil for
    /// text that is not a JSON number or lies beyond the range of ``Timestamp``.
    public static func parse(epochSeconds text: UnsafeRawBufferPointer) -> Timestamp? {
        guard let number = DecimalNumber(text) else { return nil }
        // Digits (integer part then fraction) at index < keep lie at or above the microsecond.
        let keep = number.integerDigits.count + number.exponent + 6
        var micros: Int64 = 0
        var droppedNonZero = false
        let count = number.integerDigits.count + number.fractionDigits.count
        for index in 0 ..< count {
            let digit = number.digit(at: index)
            if index < keep {
                guard let next = appending(digit, to: micros) else { return nil }
                micros = next
            } else if digit != 0 {
                droppedNonZero = true
            }
        }
        if micros != 0 {
            for _ in count ..< max(count, keep) {
                guard let next = appending(0, to: micros) else { return nil }
                micros = next
            }
        }
        if number.negative {
            micros = -micros - (droppedNonZero ? 1 : 0)
        }
        return Timestamp(microseconds: micros)
    }

    private static func appending(_ digit: Int64, to value: Int64) -> Int64? {
        let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
        let (sum, carry) = shifted.addingReportingOverflow(digit)
        return overflow || carry ? nil : sum
    }

    /// The value of `count` decimal digits at `offset`, or nil if one is not a digit.
    @inline(__always)
    private static func digits(
        _ text: UnsafeRawBufferPointer, _ offset: Int, _ count: Int
    ) -> Int64? {
        var value: Int64 = 0
        for index in offset ..< offset + count {
            let digit = text[index] &- .zero
            guard digit < 10 else { return nil }
            value = value * 10 + Int64(digit)
        }
        return value
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// The parts of a JSON number's text: sign, digits before and after the point, and exponent.
private struct DecimalNumber {
    var negative: Bool
    var integerDigits: UnsafeRawBufferPointer
    var fractionDigits: UnsafeRawBufferPointer
    /// The exponent, clamped to ±1000: beyond that a value is zero or out of range anyway.
    var exponent: Int

    init?(_ text: UnsafeRawBufferPointer) {
        var index = 0
        negative = text.first == .minus
        if negative { index += 1 }
        let integerStart = index
        while index < text.count, text[index] &- .zero < 10 { index += 1 }
        integerDigits = UnsafeRawBufferPointer(rebasing: text[integerStart ..< index])
        guard !integerDigits.isEmpty, integerDigits.count == 1 || integerDigits[0] != .zero else {
            return nil
        }
        let fractionStart = index < text.count && text[index] == .period ? index + 1 : index
        index = fractionStart
        while index < text.count, text[index] &- .zero < 10 { index += 1 }
        fractionDigits = UnsafeRawBufferPointer(rebasing: text[fractionStart ..< index])
        let hasPoint = fractionStart != integerStart + integerDigits.count
        if hasPoint, fractionDigits.isEmpty { return nil }

        exponent = 0
        if index < text.count, text[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            let exponentNegative = index < text.count && text[index] == .minus
            if index < text.count, text[index] == .minus || text[index] == .plus { index += 1 }
            let exponentStart = index
            while index < text.count, text[index] &- .zero < 10 {
                exponent = min(exponent * 10 + Int(text[index] &- .zero), 1000)
                index += 1
            }
            guard index > exponentStart else { return nil }
            if exponentNegative { exponent = -exponent }
        }
        guard index == text.count else { return nil }
    }

    /// The digit at `index` of the integer digits followed by the fraction digits.
    func digit(at index: Int) -> Int64 {
        let byte = index < integerDigits.count
            ? integerDigits[index] : fractionDigits[index - integerDigits.count]
        return Int64(byte &- .zero)
    }
}
