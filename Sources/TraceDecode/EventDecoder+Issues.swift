import TraceModel

extension EventDecoder {
    /// The reject for a line the scanner stopped on. Bad UTF-8 anywhere in the line takes
    /// precedence over a JSON error, so that a line with both is counted the same whichever
    /// comes first.
    static func issue(for error: ScanError, in line: UnsafeRawBufferPointer) -> LineIssue {
        let invalidOffset = if case .invalidUTF8 = error.kind {
            error.offset
        } else {
            UTF8Validator.firstInvalidOffset(in: line)
        }
        if let invalidOffset {
            let message = ScanError(.invalidUTF8, at: invalidOffset).message(lineLength: line.count)
            return LineIssue(.invalidUTF8, message)
        }
        return LineIssue(.invalidJSON, error.message(lineLength: line.count))
    }

    static func badFieldIssue(_ name: String, _ value: JSONValue) -> LineIssue {
        LineIssue(.badField, "field '\(name)' must be a string, not \(value.typeDescription)")
    }

    static func badTimestampIssue(_ value: JSONValue, in scanner: JSONScanner) -> LineIssue {
        let text = excerpt(scanner.slice(value.start ..< value.end))
        let message = switch value.kind {
        case .string(escaped: false) where TimestampParser.parse(rfc3339: scanner.slice(value.contents)) != nil:
            "ts \(text) falls outside the years 0000 to 9999 once its offset is applied"
        case .string: "ts \(text) is not an RFC 3339 date and time"
        case .number:
            if let time = TimestampParser.parse(epochSeconds: scanner.slice(value.start ..< value.end)),
               time > TimestampParser.writableRange.upperBound {
                "ts \(text) is after the year 9999 as Unix epoch seconds, which ts is: "
                    + "log seconds (milliseconds since the epoch would be divided by 1,000)"
            } else {
                "ts \(text) is out of range: Unix epoch seconds from the year 0000 to 9999"
            }
        default: "ts must be an RFC 3339 string or a number of epoch seconds, not \(text)"
        }
        return LineIssue(.badTimestamp, message)
    }

    /// The text of a value for a message, cut short at a character boundary when long.
    private static func excerpt(_ text: UnsafeRawBufferPointer) -> String {
        let limit = 80
        guard text.count > limit else { return String(decoding: text, as: UTF8.self) }
        var end = limit
        while text[end] & 0xC0 == 0x80 { end -= 1 }
        let head = UnsafeRawBufferPointer(rebasing: text[..<end])
        return String(decoding: head, as: UTF8.self) + "…"
    }
}
