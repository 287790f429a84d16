import TraceDecode

/// Reads a few attributes of an event from its `attrs` text by visiting the members in order,
/// each overriding the one of the same key before it (the decoder's rule for duplicate keys).
///
/// Readings (`power`, `network`, `refreshStatus`) come all day — a tenth of a typical log — and
/// reading them through ``AttributeReader`` (an array of members, keys as strings, a search per
/// attribute) cost 8% of the replay; a visitor over the flat text allocates nothing but the
/// strings it keeps.
protocol AttributeVisitor {
    init()
    /// Takes the member `key` (its UTF-8 bytes); `value` makes its value, for a key the
    /// visitor reads (a string's text is made only then).
    mutating func visit(_ key: UnsafeRawBufferPointer, _ value: () -> JSONAttributes.Value)
}

extension AttributeVisitor {
    /// The attributes of `attrs`: read by ``FlatJSONObject`` when the text has the decoder's flat
    /// shape, else parsed by ``JSONAttributes`` (a text that is not an object has none).
    static func read(_ attrs: String?) -> Self {
        guard var text = attrs else { return Self() }
        return text.withUTF8 { read(flat: UnsafeRawBufferPointer($0)) } ?? parsed(text)
    }

    /// The attributes of the `attrs` text whose UTF-8 bytes these are (a row of the store):
    /// a string is made of the whole text only when it is not of the flat shape.
    static func read(utf8 attrs: UnsafeRawBufferPointer?) -> Self {
        guard let attrs else { return Self() }
        return read(flat: attrs) ?? parsed(String(decoding: attrs, as: UTF8.self))
    }

    /// The attributes of a text of the flat shape; nil for any other.
    private static func read(flat bytes: UnsafeRawBufferPointer) -> Self? {
        var visitor = Self()
        let flat = FlatJSONObject.forEachMember(bytes) { key, value in visitor.visit(key) { value.value } }
        // The flat reader may have visited some members before it gave up: the caller starts again.
        return flat ? visitor : nil
    }

    private static func parsed(_ text: String) -> Self {
        var visitor = Self()
        JSONAttributes(text)?.forEachMember { key, value in
            var key = key
            key.withUTF8 { visitor.visit(UnsafeRawBufferPointer($0)) { value } }
        }
        return visitor
    }
}

extension UnsafeRawBufferPointer {
    /// Whether these bytes are `name`'s (a key compared with a literal), byte by byte in place:
    /// a call into another module per member was a third of a reading's cost.
    @inline(__always)
    func isKey(_ name: StaticString) -> Bool {
        guard count == name.utf8CodeUnitCount else { return false }
        let literal = name.utf8Start
        for index in 0 ..< count where self[index] != literal[index] { return false }
        return true
    }
}
