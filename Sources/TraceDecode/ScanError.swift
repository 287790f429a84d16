/// Where and how a line breaks the JSON grammar (or UTF-8, found while scanning a string).
struct ScanError: Error {
    enum Kind {
        /// Another byte was needed: a description such as `"',' or '}'"`.
        case expected(String)
        case unterminatedString
        case controlCharacter
        case invalidEscape
        case loneSurrogate
        case invalidLiteral
        case tooDeep
        case trailingCharacters
        case invalidUTF8
    }

    var kind: Kind
    /// Byte offset in the line.
    var offset: Int

    init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// The message of the reject, with a 1-based column counted in bytes.
    func message(lineLength: Int) -> String {
        let column = offset + 1
        switch kind {
        case .expected(let what) where offset >= lineLength:
            return "unexpected end of line at column \(column), expected \(what)"
        case .expected(let what): return "expected \(what) at column \(column)"
        case .unterminatedString: return "unterminated string starting at column \(column)"
        case .controlCharacter: return "unescaped control character in a string at column \(column)"
        case .invalidEscape: return "invalid escape sequence at column \(column)"
        case .loneSurrogate: return "unpaired UTF-16 surrogate escape at column \(column)"
        case .invalidLiteral: return "invalid literal at column \(column)"
        case .tooDeep:
            return "nesting deeper than \(JSONScanner.maximumDepth) levels at column \(column)"
        case .trailingCharacters:
            return "unexpected characters after the object at column \(column)"
        case .invalidUTF8: return "invalid UTF-8 sequence at column \(column)"
        }
    }
}
