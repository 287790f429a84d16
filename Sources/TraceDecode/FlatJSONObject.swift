/// The members of a flat JSON object of the shape the decoder writes `attrs` in — `{"key":value,…}`
/// with no whitespace, no escape, no nested object or array — read in one pass without the general
/// scanner. The replay reads the attributes of every reading (`power`, `network`, …) and submit,
/// and the scanner's generality was most of that cost.
///
/// Any other shape, or anything the general scanner would refuse, returns nil, and the caller
/// parses with ``JSONAttributes``'s scanner: when this returns members, they are the ones that
/// parser makes (a test compares the two).
public enum FlatJSONObject {
    /// A member's value as it stands in the text: a string's contents (no escape in it), a
    /// number's token, or a literal. Nothing is made until asked.
    public enum RawValue {
        case string(UnsafeRawBufferPointer)
        case number(UnsafeRawBufferPointer)
        case bool(Bool)
        case null

        /// The value as ``JSONAttributes`` keeps it (a number too large for `Double` is `.other`).
        public var value: JSONAttributes.Value {
            switch self {
            case .string(let bytes): .string(String(decoding: bytes, as: UTF8.self))
            case .number(let token): JSONNumber.double(token).map(JSONAttributes.Value.number) ?? .other
            case .bool(let flag): .bool(flag)
            case .null: .null
            }
        }
    }

    /// Calls `body` with each member of the flat object whose bytes these are, in order, and
    /// returns true; returns false, after calling `body` for none or some of the members, when the
    /// text is not of the flat shape (the caller then parses with ``JSONAttributes``). Nothing is
    /// allocated: the replay reads the few attributes of a reading this way.
    public static func forEachMember(
        _ bytes: UnsafeRawBufferPointer, _ body: (_ key: UnsafeRawBufferPointer, _ value: RawValue) -> Void
    ) -> Bool {
        guard bytes.count >= 2, bytes[0] == .openBrace, bytes[bytes.count - 1] == .closeBrace else { return false }
        if bytes.count == 2 { return true }
        var index = 1
        while true {
            // A key: a plain ASCII string.
            guard let (keyStart, keyEnd) = plainString(bytes, at: index, asciiOnly: true) else { return false }
            index = keyEnd + 1
            guard index < bytes.count, bytes[index] == .colon else { return false }
            index += 1
            let key = UnsafeRawBufferPointer(rebasing: bytes[keyStart ..< keyEnd])
            // A value, up to the `,` or the final `}`.
            guard index < bytes.count else { return false }
            let value: RawValue
            switch bytes[index] {
            case .quote:
                guard let (start, end) = plainString(bytes, at: index, asciiOnly: false) else { return false }
                value = .string(UnsafeRawBufferPointer(rebasing: bytes[start ..< end]))
                index = end + 1
            default:
                var end = index
                while end < bytes.count, bytes[end] != .comma, bytes[end] != .closeBrace { end += 1 }
                let token = UnsafeRawBufferPointer(rebasing: bytes[index ..< end])
                if literal(token, "true") {
                    value = .bool(true)
                } else if literal(token, "false") {
                    value = .bool(false)
                } else if literal(token, "null") {
                    value = .null
                } else if isJSONNumber(token) {
                    value = .number(token)
                } else {
                    return false
                }
                index = end
            }
            body(key, value)
            guard index < bytes.count else { return false }
            if bytes[index] == .closeBrace { return index == bytes.count - 1 }
            guard bytes[index] == .comma else { return false }
            index += 1
        }
    }

    /// The members, as ``JSONAttributes`` keeps them (only those named in `keys`, when given),
    /// or nil when the text is not of the flat shape.
    static func members(
        _ bytes: UnsafeRawBufferPointer, keeping keys: [String]?
    ) -> [(key: String, value: JSONAttributes.Value)]? {
        var members: [(key: String, value: JSONAttributes.Value)] = []
        members.reserveCapacity(keys?.count ?? 8)
        let flat = forEachMember(bytes) { key, value in
            guard let kept = keys.map({ keys in keys.first { named($0, key) } }) ?? String(decoding: key, as: UTF8.self)
            else { return }
            members.append((kept, value.value))
        }
        return flat ? members : nil
    }

    /// Whether `name` is the key whose bytes these are, compared as bytes (the generic
    /// comparison of a `String`'s UTF-8 view was most of this reader's time).
    private static func named(_ name: String, _ key: UnsafeRawBufferPointer) -> Bool {
        guard name.utf8.count == key.count else { return false }
        return name.utf8.withContiguousStorageIfAvailable { $0.elementsEqual(key) } ?? name.utf8.elementsEqual(key)
    }

    private static func literal(_ token: UnsafeRawBufferPointer, _ word: StaticString) -> Bool {
        token.count == word.utf8CodeUnitCount
            && token.elementsEqual(UnsafeRawBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
    }

    /// The contents of the string starting at `index` (its opening quote) when it has no escape
    /// and no control character (and, for a key, no byte beyond ASCII): the range between the
    /// quotes, whose end is the closing quote's index.
    private static func plainString(_ bytes: UnsafeRawBufferPointer, at index: Int, asciiOnly: Bool) -> (Int, Int)? {
        guard index < bytes.count, bytes[index] == .quote else { return nil }
        var end = index + 1
        while end < bytes.count {
            let byte = bytes[end]
            if byte == .quote { return (index + 1, end) }
            if byte == .backslash || byte < 0x20 || (asciiOnly && byte >= 0x80) { return nil }
            end += 1
        }
        return nil
    }

    /// JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isJSONNumber(_ token: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        func digits() -> Int {
            let start = index
            while index < token.count, token[index] >= .zero, token[index] <= .nine { index += 1 }
            return index - start
        }
        if index < token.count, token[index] == .minus { index += 1 }
        guard index < token.count else { return false }
        if token[index] == .zero {
            index += 1
        } else if digits() == 0 {
            return false
        }
        if index < token.count, token[index] == .period {
            index += 1
            guard digits() > 0 else { return false }
        }
        if index < token.count, token[index] == UInt8(ascii: "e") || token[index] == UInt8(ascii: "E") {
            index += 1
            if index < token.count, token[index] == .plus || token[index] == .minus { index += 1 }
            guard digits() > 0 else { return false }
        }
        return index == token.count
    }
}
