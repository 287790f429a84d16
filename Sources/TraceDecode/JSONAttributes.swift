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
        var text = text
        let parsed: [(String, Value)]? = text.withUTF8 { bytes in
            var scanner = JSONScanner(UnsafeRawBufferPointer(bytes))
            return try? Self.members(&scanner)
        }
        guard let parsed else { return nil }
        members = parsed
    }

    /// The value of the last member named `key` (the decoder's rule for duplicate keys).
    public subscript(key: String) -> Value? {
        members.last { $0.key == key }?.value
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

    private static func members(_ scanner: inout JSONScanner) throws(ScanError) -> [(String, Value)] {
        var members: [(String, Value)] = []
        try scanner.consume(.openBrace, expected: "'{'")
        if scanner.skip(.closeBrace) {
            try scanner.finish()
            return members
        }
        var buffer: [UInt8] = []
        repeat {
            let key = string(try scanner.scanKey(), in: scanner, buffer: &buffer)
            try scanner.consume(.colon, expected: "':'")
            members.append((key, try value(&scanner, buffer: &buffer)))
        } while try scanner.consume(either: .comma, or: .closeBrace, expected: "',' or '}'") == .comma
        try scanner.finish()
        return members
    }

    private static func value(_ scanner: inout JSONScanner, buffer: inout [UInt8]) throws(ScanError) -> Value {
        scanner.skipWhitespace()
        guard !scanner.isAtEnd, scanner.current == .openBracket else {
            let token = try scanner.scanValue(depth: 1)
            switch token.kind {
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
                    strings?.append(string(element, in: scanner, buffer: &buffer))
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
