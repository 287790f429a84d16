/// Values of number tokens that ``JSONScanner`` has already checked against the JSON grammar.
enum JSONNumber {
    /// The value of an integer token, or nil if it does not fit in an `Int64`.
    static func int64(_ token: UnsafeRawBufferPointer) -> Int64? {
        let negative = token[0] == .minus
        var value: Int64 = 0
        for byte in token[(negative ? 1 : 0)...] {
            let digit = Int64(byte &- .zero)
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            // Accumulating negatives reaches Int64.min, which has no positive counterpart.
            let (next, carry) = negative
                ? shifted.subtractingReportingOverflow(digit)
                : shifted.addingReportingOverflow(digit)
            guard !overflow, !carry else { return nil }
            value = next
        }
        return value
    }

    /// The value of any number token, or nil if it is beyond the range of `Double`.
    ///
    /// With up to 15 significant digits and a decimal exponent within ±22, the digits and the
    /// power of ten are both exact doubles, so one multiplication or division rounds correctly
    /// (Clinger's fast path); anything else goes through the standard library's parser.
    static func double(_ token: UnsafeRawBufferPointer) -> Double? {
        var index = 0
        let negative = token[0] == .minus
        if negative { index += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var inFraction = false
        scan: while index < token.count {
            let byte = token[index]
            switch byte {
            case .zero ... .nine:
                if digits > 0 || byte != .zero { digits += 1 }
                if digits > 15 { break scan }
                mantissa = mantissa * 10 + UInt64(byte - .zero)
                if inFraction { exponent -= 1 }
            case .period:
                inFraction = true
            default:
                guard let written = JSONNumber.int64(exponentDigits(token, from: index + 1)),
                      abs(written) <= 1000
                else { break scan }
                exponent += Int(written)
                index = token.count
                continue
            }
            index += 1
        }
        if index == token.count, (-22...22).contains(exponent) {
            let magnitude = Double(mantissa)
            let value = exponent < 0
                ? magnitude / powersOfTen[-exponent] : magnitude * powersOfTen[exponent]
            return negative ? -value : value
        }
        guard let value = Double(String(decoding: token, as: UTF8.self)), value.isFinite else {
            return nil
        }
        return value
    }

    /// The digits after `e`, dropping a `+` that `int64` would not read.
    private static func exponentDigits(
        _ token: UnsafeRawBufferPointer, from offset: Int
    ) -> UnsafeRawBufferPointer {
        let start = token[offset] == .plus ? offset + 1 : offset
        return UnsafeRawBufferPointer(rebasing: token[start...])
    }

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
