/// Reads one string attribute of the common shape without parsing `attrs`: the attribute first,
/// its value plain (`{"scene":"S1",…}`), nothing escaped anywhere, and its name nowhere else. A
/// v1.1 scene-based log names a scene on about every tenth event, and parsing each `attrs` was a
/// fifth of the replay (callgrind). Even with ``AttributeReader``'s flat reader
/// (`FlatJSONObject`), dropping this costs a v1.1 replay 2% more instructions. Any other shape
/// returns nil, and the caller parses: the answer, when there is one, is what parsing would give.
enum LeadingString {
    /// The value of `name` in `attrs`, when `attrs` has that shape.
    static func value(of name: StaticString, in attrs: String) -> String? {
        var attrs = attrs
        return attrs.withUTF8 { bytes -> String? in
            let key = UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
            // `{"` name `":"` value `"`, then `,` or `}`.
            let valueStart = key.count + 5
            guard bytes.count > valueStart, bytes[0] == UInt8(ascii: "{"), bytes[1] == UInt8(ascii: "\""),
                  bytes[key.count + 2] == UInt8(ascii: "\""), bytes[key.count + 3] == UInt8(ascii: ":"),
                  bytes[key.count + 4] == UInt8(ascii: "\""),
                  bytes[2 ..< key.count + 2].elementsEqual(key),
                  !bytes.contains(UInt8(ascii: "\\"))
            else { return nil }
            // JSON has no raw control character in a string: leave such a text to the parser.
            guard let valueEnd = bytes[valueStart...].firstIndex(where: { $0 == UInt8(ascii: "\"") || $0 < 0x20 }),
                  bytes[valueEnd] == UInt8(ascii: "\""),
                  valueEnd + 1 < bytes.count,
                  bytes[valueEnd + 1] == UInt8(ascii: ",") || bytes[valueEnd + 1] == UInt8(ascii: "}")
            else { return nil }
            // The name must not come again (a second member of that name would be the one read).
            if occurrences(of: key, in: bytes, from: valueEnd + 1) { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart ..< valueEnd]), as: UTF8.self)
        }
    }

    /// Whether `"name"` appears in `bytes` at or after `start`.
    private static func occurrences(of key: UnsafeRawBufferPointer, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        var index = start
        while index + key.count + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: "\""), bytes[index + key.count + 1] == UInt8(ascii: "\""),
               bytes[(index + 1) ..< (index + 1 + key.count)].elementsEqual(key) {
                return true
            }
            index += 1
        }
        return false
    }
}
