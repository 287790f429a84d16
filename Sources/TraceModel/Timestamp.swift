/// A point in wall-clock time as whole microseconds since the Unix epoch (UTC).
///
/// Microseconds are what the store keeps in `events.ts`, so that SQL can compare and subtract
/// them as plain integers; `datetime(ts / 1e6, 'unixepoch')` turns one into text.
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible, BitwiseCopyable {
    public var microseconds: Int64

    public init(microseconds: Int64) { self.microseconds = microseconds }

    /// The time `seconds` after the epoch, saturating at the ends of the range (NaN reads as the
    /// epoch): a number from input must never trap.
    public init(seconds: Double) {
        let micros = (seconds * 1_000_000).rounded()
        if micros.isNaN {
            microseconds = 0
        } else if micros >= 0x1p63 {
            microseconds = .max
        } else if micros < -0x1p63 {
            microseconds = .min
        } else {
            microseconds = Int64(micros)
        }
    }

    public var seconds: Double { Double(microseconds) / 1_000_000 }

    /// Seconds from `start` to this time (negative if earlier). Subtracts as doubles, so two
    /// times at opposite ends of the range give a huge number instead of an integer overflow.
    public func seconds(since start: Timestamp) -> Double {
        (Double(microseconds) - Double(start.microseconds)) / 1_000_000
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.microseconds < rhs.microseconds
    }

    /// RFC 3339 in UTC with microseconds, e.g. `2026-11-21T08:00:00.000100Z`.
    ///
    /// Written digit by digit into the string's own bytes for years 0 to 9999: a finding's
    /// message names a time or three, and building it from padded pieces cost thousands of
    /// instructions a time. Other years take ``paddedDescription``, which says the same.
    public var description: String {
        let parts = CivilTime(self)
        guard (0 ... 9999).contains(parts.year) else { return paddedDescription }
        return String(unsafeUninitializedCapacity: 27) { bytes in
            func put(_ value: Int64, _ width: Int, at offset: Int) {
                var rest = value
                for index in (offset ..< offset + width).reversed() {
                    bytes[index] = UInt8(truncatingIfNeeded: 48 + rest % 10)
                    rest /= 10
                }
            }
            put(parts.year, 4, at: 0)
            put(parts.month, 2, at: 5)
            put(parts.day, 2, at: 8)
            put(parts.secondOfDay / 3600, 2, at: 11)
            put(parts.secondOfDay / 60 % 60, 2, at: 14)
            put(parts.secondOfDay % 60, 2, at: 17)
            put(parts.micros, 6, at: 20)
            bytes[4] = UInt8(ascii: "-")
            bytes[7] = UInt8(ascii: "-")
            bytes[10] = UInt8(ascii: "T")
            bytes[13] = UInt8(ascii: ":")
            bytes[16] = UInt8(ascii: ":")
            bytes[19] = UInt8(ascii: ".")
            bytes[26] = UInt8(ascii: "Z")
            return 27
        }
    }

    /// ``description`` from padded pieces, for any year (a year past 9999 has more digits).
    var paddedDescription: String {
        let parts = CivilTime(self)
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T\(pad(parts.secondOfDay / 3600, 2)):"
            + "\(pad(parts.secondOfDay / 60 % 60, 2)):\(pad(parts.secondOfDay % 60, 2)).\(pad(parts.micros, 6))Z"
    }
}

/// A time's calendar date, second of the day and microseconds, in UTC.
private struct CivilTime {
    let year: Int64, month: Int64, day: Int64, secondOfDay: Int64, micros: Int64

    init(_ time: Timestamp) {
        // Floor division, without subtracting first: near `Int64.min` that would overflow.
        let remainder = time.microseconds % 1_000_000
        micros = remainder < 0 ? remainder + 1_000_000 : remainder
        let secondsSinceEpoch = time.microseconds / 1_000_000 - (remainder < 0 ? 1 : 0)
        let days = secondsSinceEpoch >= 0 ? secondsSinceEpoch / 86_400 : (secondsSinceEpoch - 86_399) / 86_400
        secondOfDay = secondsSinceEpoch - days * 86_400
        (year, month, day) = CivilDate.fromDays(days)
    }
}

/// Proleptic Gregorian calendar arithmetic (Howard Hinnant's `days_from_civil` and inverse),
/// used instead of `Calendar` because parsing millions of timestamps must not allocate.
public enum CivilDate {
    /// Days since 1970-01-01 of a calendar date.
    @inlinable
    public static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar date of a count of days since 1970-01-01.
    public static func fromDays(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
