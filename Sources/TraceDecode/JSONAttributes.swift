/// The top-level members of a JSON object's text, such as an event's `attrs`, read with the
/// decoder's own scanner: the replay reads `priority`, `type` or `permitted_identifiers`
/// from it on every submit, push and launch, where Foundation's parser cost more than the
/// rest of the replay of the event.
public struct JSONAttributes: Sendable, Hashable {
    /// A member's value; nested objects and arrays of anything but strings are `.other`.
    public enum Value: Sendable, Hashable {
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
        case strings([String])
        case other
    }

    private var members: [(key: String, value: Value)] = []

    /// Parses `text`; nil unless it is one JSON object.
    public init?(_ text: String) {
        self.init(text, keeping: nil)
    }

    /// Parses `text` as ``init(_:)`` does (nil unless it is one JSON object), keeping only the
    /// members named in `keys` (nil: all): the others are scanned alike, but no key, string or
    /// number is made of them. The replay reads two or three attributes of an event, and making
    /// every member was most of the cost of its `attrs`.
    public init?(_ text: String, keeping keys: [String]?) {
        self.init(text, keeping: keys, flat: true)
    }

    /// With `flat`, an object of the decoder's flat shape is read by ``FlatJSONObject`` (the
    /// same members, faster); tests turn it off to compare the two.
    init?(_ text: String, keeping keys: [String]?, flat: Bool) {
        var text = text
        // Labeled as `members` is: an array of unlabeled tuples would be cast element by element.
        let parsed: [(key: String, value: Value)]? = text.withUTF8 { bytes in
            let raw = UnsafeRawBufferPointer(bytes)
            if flat, let members = FlatJSONObject.members(raw, keeping: keys) { return members }
            var scanner = JSONScanner(raw)
            return try? Self.members(&scanner, keeping: keys)
        }
        guard let parsed else { return nil }
        members = parsed
    }

    /// The value of the last member named `key` (the decoder's rule for duplicate keys).
    public subscript(key: String) -> Value? {
        members.last { $0.key == key }?.value
    }

    /// Calls `body` with each member kept, in order.
    public func forEachMember(_ body: (_ key: String, _ value: Value) -> Void) {
        for member in members { body(member.key, member.value) }
    }

    public static func == (lhs: JSONAttributes, rhs: JSONAttributes) -> Bool {
        lhs.members.elementsEqual(rhs.members) { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for member in members {
            hasher.combine(member.key)
            hasher.combine(member.value)
        }
    }

    private static func members(
        _ scanner: inout JSONScanner, keeping keys: [String]?
    ) throws(ScanError) -> [(key: String, value: Value)] {
        var members: [(key: String, value: Value)] = []
        members.reserveCapacity(keys?.count ?? 8)
        try scanner.consume(.openBrace, expected: "'{'")
        if scanner.skip(.closeBrace) {
            try scanner.finish()
            return members
        }
        var buffer: [UInt8] = []
        repeat {
            let key = kept(try scanner.scanKey(), in: scanner, keys: keys, buffer: &buffer)
            try scanner.consume(.colon, expected: "':'")
            let value = try value(&scanner, buffer: &buffer, making: key != nil)
            if let key { members.append((key, value)) }
        } while try scanner.consume(either: .comma, or: .closeBrace, expected: "',' or '}'") == .comma
        try scanner.finish()
        return members
    }

    /// The key of `token` when it is one of `keys` (every key when nil). Plain ASCII is compared
    /// byte for byte, which for ASCII is what `String`'s `==` does; anything else as a `String`.
    private static func kept(
        _ token: JSONValue, in scanner: JSONScanner, keys: [String]?, buffer: inout [UInt8]
    ) -> String? {
        guard let keys else { return string(token, in: scanner, buffer: &buffer) }
        let contents = scanner.slice(token.contents)
        guard case .string(escaped: false) = token.kind, !contents.contains(where: { $0 >= 0x80 }) else {
            let key = string(token, in: scanner, buffer: &buffer)
            return keys.contains(key) ? key : nil
        }
        guard let first = contents.first else { return keys.first { $0.isEmpty } }
        return keys.first { key in
            // Most keys differ in their length or first byte: compare the rest only then.
            key.utf8.count == contents.count && key.utf8.first == first
                && (key.utf8.withContiguousStorageIfAvailable { $0.elementsEqual(contents) } ?? key.utf8.elementsEqual(contents))
        }
    }

    /// The value at the scanner; with `making` false it is only scanned (and is `.other`).
    private static func value(
        _ scanner: inout JSONScanner, buffer: inout [UInt8], making: Bool
    ) throws(ScanError) -> Value {
        scanner.skipWhitespace()
        guard !scanner.isAtEnd, scanner.current == .openBracket else {
            let token = try scanner.scanValue(depth: 1)
            switch token.kind {
            case _ where !making: return .other
            case .string: return .string(string(token, in: scanner, buffer: &buffer))
            case .number: return JSONNumber.double(scanner.slice(token.start ..< token.end)).map(Value.number) ?? .other
            case .bool(let value): return .bool(value)
            case .null: return .null
            case .object, .array: return .other
            }
        }
        // An array: kept as strings when every element is one.
        _ = scanner.skip(.openBracket)
        var strings: [String]? = []
        if !scanner.skip(.closeBracket) {
            repeat {
                let element = try scanner.scanValue(depth: 2)
                if case .string = element.kind {
                    if making { strings?.append(string(element, in: scanner, buffer: &buffer)) }
                } else {
                    strings = nil
                }
            } while try scanner.consume(either: .comma, or: .closeBracket, expected: "',' or ']'") == .comma
        }
        return strings.map(Value.strings) ?? .other
    }

    private static func string(_ token: JSONValue, in scanner: JSONScanner, buffer: inout [UInt8]) -> String {
        let contents = scanner.slice(token.contents)
        guard case .string(escaped: true) = token.kind else { return String(decoding: contents, as: UTF8.self) }
        StringUnescaper.unescape(contents, into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}

extension JSONAttributes.Value {
    /// The value if it is `true` or `false`.
    public var bool: Bool? {
        guard case .bool(let flag) = self else { return nil }
        return flag
    }

    /// The value if it is a number (one too large for `Double` is not).
    public var double: Double? {
        guard case .number(let number) = self else { return nil }
        return number
    }
}
