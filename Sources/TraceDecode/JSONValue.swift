/// One scanned JSON value: its kind and where its text lies in the line.
struct JSONValue {
    enum Kind: Equatable {
        /// `escaped` is true if the string holds at least one backslash escape.
        case string(escaped: Bool)
        /// `integer` is true for a number without fraction or exponent.
        case number(integer: Bool)
        case bool(Bool)
        case null
        case object
        case array
    }

    var kind: Kind
    /// Offset of the value's first byte (the opening quote of a string).
    var start: Int
    /// Offset one past the value's last byte.
    var end: Int

    /// The range of a string's contents, between its quotes.
    var contents: Range<Int> { start + 1 ..< end - 1 }

    /// How a message names the value's type: "a boolean", "an array", …
    var typeDescription: String {
        switch kind {
        case .string: "a string"
        case .number(integer: true): "an integer"
        case .number(integer: false): "a number"
        case .bool: "a boolean"
        case .null: "null"
        case .object: "an object"
        case .array: "an array"
        }
    }
}
