/// The one way durations become text, for every finding message, report and timeline.
///
/// Total over all `Double`s: a measured value comes from input (`mono`, `ts`, readings), so a
/// clock that jumps by 10¹⁶ s or a NaN must print something a person understands, never trap.
/// Values too large to round exactly (beyond 10¹⁵ in the last place kept) are written in
/// scientific notation (`1.2e16 s`), non-finite ones as `∞ s`, `-∞ s` and `? s`.
public enum SecondsText {
    /// `value` rounded to `decimals` places (0 to 6): `41.2`, `0.004`, `8.0`. With `trimmed`,
    /// trailing zeros of the fraction (and a bare point) are dropped: `41.2`, `8`.
    public static func number(_ value: Double, decimals: Int = 1, trimmed: Bool = false) -> String {
        guard value.isFinite else { return value.isNaN ? "?" : value < 0 ? "-∞" : "∞" }
        let places = min(max(decimals, 0), 6)
        let scale = Int64(exactly: tenToThe(places)) ?? 1
        let scaled = (value.magnitude * Double(scale)).rounded()
        // Below 2⁵³ every whole double is exact, so the conversion cannot trap or round.
        guard scaled < 0x1p53, let units = Int64(exactly: scaled) else { return scientific(value) }
        let sign = value < 0 && units != 0 ? "-" : ""
        let whole = String(units / scale)
        guard places > 0 else { return sign + whole }
        var fraction = String(units % scale)
        fraction = String(repeating: "0", count: places - fraction.count) + fraction
        if trimmed {
            while fraction.hasSuffix("0") { fraction.removeLast() }
            if fraction.isEmpty { return sign + whole }
        }
        return "\(sign)\(whole).\(fraction)"
    }

    /// A duration for a sentence: `41.2 s` (nil, for a duration not measured: `? s`).
    public static func seconds(_ value: Double?, decimals: Int = 1, trimmed: Bool = false) -> String {
        guard let value else { return "? s" }
        return number(value, decimals: decimals, trimmed: trimmed) + " s"
    }

    /// A measured duration and the budget it is told against, for one sentence: one decimal each,
    /// or as many more (up to 6) as it takes for a measure that differs from its budget to read
    /// differently — "30.001 s after delivery; its time is 30.000 s", not "30.0 s … 30.0 s", which
    /// read as no breach at all.
    public static func seconds(_ measured: Double?, against budget: Double?) -> (measured: String, budget: String) {
        var decimals = 1
        if let measured, let budget, measured != budget {
            while decimals < 6, number(measured, decimals: decimals) == number(budget, decimals: decimals) { decimals += 1 }
        }
        return (seconds(measured, decimals: decimals), seconds(budget, decimals: decimals))
    }

    /// A long duration for a sentence, in hours with at most one decimal: `31 h`, `24.5 h`
    /// (`? h` for a duration not measured).
    public static func hours(_ seconds: Double?) -> String {
        guard let seconds else { return "? h" }
        return number(seconds / 3600, decimals: 1, trimmed: true) + " h"
    }

    /// `value` rounded to `decimals` places as a number, for JSON: finite in, finite out, and
    /// left as it is where rounding could overflow.
    public static func rounded(_ value: Double, decimals: Int = 3) -> Double {
        let scale = tenToThe(min(max(decimals, 0), 6))
        guard value.isFinite, value.magnitude < 0x1p53 / scale else { return value }
        return (value * scale).rounded() / scale
    }

    /// A huge finite value with two significant digits: `1.2e16`, `-3.0e308`.
    private static func scientific(_ value: Double) -> String {
        var exponent = Int(value.magnitude.exponent) * 30_103 / 100_000  // log10(2) ≈ 0.30103
        var mantissa = value.magnitude / tenToThe(exponent)
        while mantissa >= 10 { mantissa /= 10; exponent += 1 }
        while mantissa < 1 { mantissa *= 10; exponent -= 1 }
        var tenths = (mantissa * 10).rounded()
        if tenths >= 100 { tenths /= 10; exponent += 1 }
        let digits = Int64(exactly: tenths.rounded()) ?? 10
        return "\(value < 0 ? "-" : "")\(digits / 10).\(digits % 10)e\(exponent)"
    }

    /// 10ⁿ as a double, for n up to a few hundred (either sign).
    private static func tenToThe(_ power: Int) -> Double {
        var result = 1.0
        for _ in 0 ..< power.magnitude { result *= 10 }
        return power < 0 ? 1 / result : result
    }
}
