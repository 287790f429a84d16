import Replay

/// `permitted_identifiers` and `background_modes` of a `config` event, read straight from the
/// event's `attrs` JSON text.
///
/// Every launch logs one `config`, so at millions of events a second a general JSON parser
/// (``AttributeReader``, Foundation's) costs more than the rest of the lifecycle check: this
/// scanner reads the top-level object once and decodes only arrays of plain strings. Anything it
/// does not expect (an escape in a string, malformed text) hands over to ``AttributeReader``.
struct ConfigAttributes {
    private(set) var permittedIdentifiers: [String]?
    private(set) var backgroundModes: [String]?

    init(_ attrs: String?) {
        guard let attrs else { return }
        var text = attrs
        let scanned: Bool = text.withUTF8 { bytes in
            var scanner = Scanner(bytes: bytes)
            return scanner.scanObject(into: &self)
        }
        if !scanned {
            let reader = AttributeReader(attrs)
            permittedIdentifiers = reader.strings("permitted_identifiers")
            backgroundModes = reader.strings("background_modes")
        }
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        private static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")

        mutating func scanObject(into config: inout ConfigAttributes) -> Bool {
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return false }
            skipSpace()
            if take(UInt8(ascii: "}")) { return true }
            while true {
                skipSpace()
                guard let key = scanString() else { return false }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return false }
                skipSpace()
                let permitted = key.elementsEqual("permitted_identifiers".utf8)
                if permitted || key.elementsEqual("background_modes".utf8) {
                    // Not an array of strings: the general reader decides (it yields nil).
                    guard let strings = scanStrings() else { return false }
                    if permitted {
                        config.permittedIdentifiers = strings
                    } else {
                        config.backgroundModes = strings
                    }
                } else {
                    guard skipValue(depth: 0) else { return false }
                }
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                return take(UInt8(ascii: "}"))
            }
        }

        /// A string without escapes, as the bytes between its quotes.
        private mutating func scanString() -> UnsafeBufferPointer<UInt8>? {
            guard take(Self.quote) else { return nil }
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == Self.backslash { return nil }
                if byte == Self.quote {
                    defer { index += 1 }
                    return UnsafeBufferPointer(rebasing: bytes[start ..< index])
                }
                index += 1
            }
            return nil
        }

        private mutating func scanStrings() -> [String]? {
            guard take(UInt8(ascii: "[")) else { return nil }
            var strings: [String] = []
            skipSpace()
            if take(UInt8(ascii: "]")) { return strings }
            while true {
                skipSpace()
                guard let string = scanString() else { return nil }
                strings.append(String(decoding: string, as: UTF8.self))
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                return take(UInt8(ascii: "]")) ? strings : nil
            }
        }

        /// Skips any JSON value; false if it is malformed or too deep.
        private mutating func skipValue(depth: Int) -> Bool {
            guard index < bytes.count, depth < 64 else { return false }
            switch bytes[index] {
            case Self.quote:
                guard take(Self.quote) else { return false }
                while index < bytes.count {
                    let byte = bytes[index]
                    index += 1
                    if byte == Self.backslash {
                        index += 1
                    } else if byte == Self.quote {
                        return true
                    }
                }
                return false
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let close = bytes[index] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                index += 1
                skipSpace()
                if take(close) { return true }
                while true {
                    skipSpace()
                    if close == UInt8(ascii: "}") {
                        guard skipValue(depth: depth + 1) else { return false }  // the key
                        skipSpace()
                        guard take(UInt8(ascii: ":")) else { return false }
                        skipSpace()
                    }
                    guard skipValue(depth: depth + 1) else { return false }
                    skipSpace()
                    if take(UInt8(ascii: ",")) { continue }
                    return take(close)
                }
            default:
                // A number or a literal: up to the next delimiter.
                let start = index
                while index < bytes.count {
                    switch bytes[index] {
                    case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: " "),
                         UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                        return index > start
                    default:
                        index += 1
                    }
                }
                return index > start
            }
        }

        private mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index += 1
                default: return
                }
            }
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
    }
}
