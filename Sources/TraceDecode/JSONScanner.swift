/// A cursor over one line's bytes that checks the JSON grammar (RFC 8259) and the UTF-8 of
/// strings as it moves, reporting values as ranges of the line rather than building them.
struct JSONScanner {
    /// Containers nested deeper than this are rejected, which bounds the recursion.
    static let maximumDepth = 256

    let bytes: UnsafeRawBufferPointer
    private(set) var position = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { position >= bytes.count }

    /// The byte at the cursor; the cursor must not be at the end.
    var current: UInt8 { bytes[position] }

    /// The bytes in `range` of the line.
    func slice(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[range])
    }

    mutating func skipByteOrderMark() {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            position = 3
        }
    }

    @inline(__always)
    mutating func skipWhitespace() {
        // Compact lines have no whitespace between tokens; leave at once then.
        guard position < bytes.count, bytes[position] <= .space else { return }
        while position < bytes.count {
            switch bytes[position] {
            case .space, .tab, .lineFeed, .carriageReturn: position += 1
            default: return
            }
        }
    }

    /// Skips whitespace, then consumes `byte` or throws, describing it as `expected`. Inlined, as
    /// are ``skip(_:)``, ``consume(either:or:expected:)`` and ``scanKey()``: each is called a dozen
    /// times a line, and their calls were a tenth of the decoding's instructions.
    @inline(__always)
    mutating func consume(_ byte: UInt8, expected: String) throws(ScanError) {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == byte else {
            throw ScanError(.expected(expected), at: position)
        }
        position += 1
    }

    /// Skips whitespace, then consumes `byte` if it comes next; returns whether it did.
    @inline(__always)
    mutating func skip(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// Skips whitespace, then consumes and returns the next byte, which must be one of two.
    @inline(__always)
    mutating func consume(
        either first: UInt8, or second: UInt8, expected: String
    ) throws(ScanError) -> UInt8 {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == first || bytes[position] == second else {
            throw ScanError(.expected(expected), at: position)
        }
        position += 1
        return bytes[position - 1]
    }

    /// Checks that only whitespace is left.
    mutating func finish() throws(ScanError) {
        skipWhitespace()
        guard isAtEnd else { throw ScanError(.trailingCharacters, at: position) }
    }

    /// Skips whitespace and scans a string that must come next (an object key).
    @inline(__always)
    mutating func scanKey() throws(ScanError) -> JSONValue {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == .quote else {
            throw ScanError(.expected("a string key"), at: position)
        }
        return try scanString()
    }

    /// Skips whitespace and scans one value, checking everything nested inside it.
    mutating func scanValue(depth: Int) throws(ScanError) -> JSONValue {
        skipWhitespace()
        guard position < bytes.count else { throw ScanError(.expected("a value"), at: position) }
        let start = position
        switch bytes[position] {
        case .quote:
            return try scanString()
        case .minus, .zero ... .nine:
            let integer = try scanNumber()
            return JSONValue(kind: .number(integer: integer), start: start, end: position)
        case .openBrace:
            try scanContainer(closing: .closeBrace, depth: depth)
            return JSONValue(kind: .object, start: start, end: position)
        case .openBracket:
            try scanContainer(closing: .closeBracket, depth: depth)
            return JSONValue(kind: .array, start: start, end: position)
        case UInt8(ascii: "t"):
            try scanLiteral("true")
            return JSONValue(kind: .bool(true), start: start, end: position)
        case UInt8(ascii: "f"):
            try scanLiteral("false")
            return JSONValue(kind: .bool(false), start: start, end: position)
        case UInt8(ascii: "n"):
            try scanLiteral("null")
            return JSONValue(kind: .null, start: start, end: position)
        default:
            throw ScanError(.expected("a value"), at: position)
        }
    }

    /// Scans the object or array whose opening byte is at the cursor.
    private mutating func scanContainer(closing: UInt8, depth: Int) throws(ScanError) {
        guard depth < Self.maximumDepth else { throw ScanError(.tooDeep, at: position) }
        position += 1
        if skip(closing) { return }
        let isObject = closing == .closeBrace
        let separatorOrEnd = isObject ? "',' or '}'" : "',' or ']'"
        repeat {
            if isObject {
                _ = try scanKey()
                try consume(.colon, expected: "':'")
            }
            _ = try scanValue(depth: depth + 1)
        } while try consume(either: .comma, or: closing, expected: separatorOrEnd) == .comma
    }

    private mutating func scanLiteral(_ literal: StaticString) throws(ScanError) {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count,
              UnsafeRawBufferPointer(start: literal.utf8Start, count: count)
                  .elementsEqual(slice(position ..< position + count))
        else { throw ScanError(.invalidLiteral, at: position) }
        position += count
    }

    /// Scans a string whose opening quote is at the cursor.
    mutating func scanString() throws(ScanError) -> JSONValue {
        let start = position
        position += 1
        var escaped = false
        while position < bytes.count {
            skipPlainASCII()
            guard position < bytes.count else { break }
            let byte = bytes[position]
            if byte >= 0x20 && byte < 0x80 && byte != .quote && byte != .backslash {
                position += 1
            } else if byte == .quote {
                position += 1
                return JSONValue(kind: .string(escaped: escaped), start: start, end: position)
            } else if byte == .backslash {
                try scanEscape()
                escaped = true
            } else if byte < 0x20 {
                throw ScanError(.controlCharacter, at: position)
            } else if let length = UTF8Validator.sequenceLength(in: bytes, at: position) {
                position += length
            } else {
                throw ScanError(.invalidUTF8, at: position)
            }
        }
        throw ScanError(.unterminatedString, at: start)
    }

    /// Moves over printable ASCII other than `"` and `\`, eight bytes at a time, stopping on the
    /// first other byte or fewer than eight bytes before the end.
    @inline(__always)
    private mutating func skipPlainASCII() {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        while position + 8 <= bytes.count {
            let word = UInt64(
                littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            // A byte's high bit is set where it is zero after the XOR, below 0x20, or not ASCII.
            // Borrows can mark bytes above the first hit only, so the lowest mark is exact.
            let quotes = word ^ (ones &* UInt64(UInt8.quote))
            let backslashes = word ^ (ones &* UInt64(UInt8.backslash))
            let special = ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)
                | ((word &- ones &* 0x20) & ~word) | word
            let marks = special & highBits
            guard marks == 0 else {
                position += marks.trailingZeroBitCount / 8
                return
            }
            position += 8
        }
    }

    /// Scans the escape sequence whose backslash is at the cursor, pairing UTF-16 surrogates.
    private mutating func scanEscape() throws(ScanError) {
        let start = position
        guard position + 1 < bytes.count else { throw ScanError(.unterminatedString, at: start) }
        switch bytes[position + 1] {
        case .quote, .backslash, .slash, UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
             UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 2
        case UInt8(ascii: "u"):
            let unit = try hexEscape(at: position)
            position += 6
            switch unit {
            case 0xD800...0xDBFF:
                guard position + 1 < bytes.count, bytes[position] == .backslash,
                      bytes[position + 1] == UInt8(ascii: "u"),
                      (0xDC00...0xDFFF).contains(try hexEscape(at: position))
                else { throw ScanError(.loneSurrogate, at: start) }
                position += 6
            case 0xDC00...0xDFFF:
                throw ScanError(.loneSurrogate, at: start)
            default:
                break
            }
        default:
            throw ScanError(.invalidEscape, at: start)
        }
    }

    /// The code unit of the `\uXXXX` escape at `offset`.
    private func hexEscape(at offset: Int) throws(ScanError) -> UInt32 {
        guard offset + 6 <= bytes.count,
              let unit = Self.hexValue(slice(offset + 2 ..< offset + 6))
        else { throw ScanError(.invalidEscape, at: offset) }
        return unit
    }

    /// The value of four hexadecimal digits, or nil if one is not a hex digit.
    static func hexValue(_ digits: UnsafeRawBufferPointer) -> UInt32? {
        var value: UInt32 = 0
        for byte in digits {
            let digit: UInt8
            switch byte {
            case .zero ... .nine: digit = byte &- .zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte &- UInt8(ascii: "A") &+ 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Scans a number at the cursor; returns true if it has neither fraction nor exponent.
    private mutating func scanNumber() throws(ScanError) -> Bool {
        if bytes[position] == .minus { position += 1 }
        if position < bytes.count, bytes[position] == .zero {
            position += 1
        } else {
            try scanDigits()
        }
        var integer = true
        if position < bytes.count, bytes[position] == .period {
            position += 1
            try scanDigits()
            integer = false
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count, bytes[position] == .plus || bytes[position] == .minus {
                position += 1
            }
            try scanDigits()
            integer = false
        }
        return integer
    }

    /// Scans one or more decimal digits.
    private mutating func scanDigits() throws(ScanError) {
        let start = position
        while position < bytes.count, bytes[position] &- .zero < 10 { position += 1 }
        guard position > start else { throw ScanError(.expected("a digit"), at: position) }
    }
}

extension UInt8 {
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let slash = UInt8(ascii: "/")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let period = UInt8(ascii: ".")
    static let colon = UInt8(ascii: ":")
    static let comma = UInt8(ascii: ",")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
}
