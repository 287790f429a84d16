import TraceDecode
import TraceModel

/// How the replay reads an attribute's value as each type, one definition for
/// ``AttributeReader`` and the visitors (``KindAttributes``, ``Readings``) alike.
extension JSONAttributes.Value {
    /// The value if it is a string.
    var text: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    /// The value if it is a whole number small enough to be exact.
    var int: Int? {
        guard let value = double, value == value.rounded(), abs(value) < 1e15 else { return nil }
        return Int(value)
    }

    /// An id: a string as it is, a whole number as its decimal text (as `call` is kept).
    var identifier: String? {
        text ?? int.map { String($0) }
    }

    /// A time: RFC 3339 text or a number of epoch seconds (saturated at the ends of the range).
    var time: Timestamp? {
        switch self {
        case .string(let text): TimestampParser.parse(text)
        case .number(let seconds): seconds.isNaN ? nil : Timestamp(seconds: seconds)
        case .bool, .null, .strings, .other: nil
        }
    }
}
