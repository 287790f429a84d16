import Foundation

enum JSONOutput {
    /// Stable, sorted keys so that scripts and golden files can compare output.
    static func encode(_ value: some Encodable, pretty: Bool = true) throws -> String {
        String(decoding: try encoder(pretty: pretty).encode(value), as: UTF8.self)
    }

    /// Writes `value`, pretty-printed, as ``encode(_:pretty:)`` would, but for one long array:
    /// where `value` encodes that array it encodes the string its encoder's `userInfo[marker]`
    /// holds, alone in an array, and `elements` are written there one at a time, each encoded
    /// alone and indented to the marker's depth. The text is the same; the whole array's text,
    /// and the encoder's tree of it, are never in memory at once (an ingest of 8,400 files
    /// printed 3 MB of JSON and its peak grew by 13 MB for it).
    static func write<Element: Encodable>(
        _ value: some Encodable, elements: [Element], marker: CodingUserInfoKey, to output: (String) -> Void
    ) throws {
        let placeholder = "\u{1}elements\u{1}"
        let outer = encoder(pretty: true)
        outer.userInfo[marker] = placeholder
        let text = String(decoding: try outer.encode(value), as: UTF8.self)
        guard !elements.isEmpty, let found = text.range(of: #""\u0001elements\u0001""#) else {
            return output(try encode(value))
        }
        let lineStart = text[..<found.lowerBound].lastIndex(of: "\n").map(text.index(after:)) ?? text.startIndex
        let indent = Array(text[lineStart ..< found.lowerBound].utf8)
        output(String(text[..<lineStart]))
        let inner = encoder(pretty: true)
        for (index, element) in elements.enumerated() {
            output((index == 0 ? "" : ",\n") + indented(try inner.encode(element), by: indent))
        }
        output(String(text[found.upperBound...]))
    }

    private static func encoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// Every line of encoded JSON indented but the empty one inside an empty array or object, as
    /// the encoder leaves it: a line break in encoded JSON is always the encoder's own (one inside
    /// a string is escaped).
    private static func indented(_ json: Data, by indent: [UInt8]) -> String {
        var bytes = indent
        bytes.reserveCapacity(json.count + json.count / 4)
        var lineStarts = false
        json.withUnsafeBytes { json in
            for byte in json {
                if lineStarts && byte != UInt8(ascii: "\n") { bytes.append(contentsOf: indent) }
                lineStarts = byte == UInt8(ascii: "\n")
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
