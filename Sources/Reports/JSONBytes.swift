/// JSON written into bytes by hand, as `JSONEncoder` writes it with `.sortedKeys` and
/// `.withoutEscapingSlashes`, compact or `.prettyPrinted` (two spaces a level, `" : "` between a
/// key and its value, an empty container as `[` or `{`, a blank line, and its end). The caller
/// gives an object's keys in sorted order.
///
/// `check` writes every finding through it: encoding 27k findings with `JSONEncoder` took a
/// tenth of a `check` of the field-like benchmark store. A test holds it to the encoder's text
/// (`JSONBytesTests`).
struct JSONBytes {
    private(set) var bytes: [UInt8] = []
    private let pretty: Bool
    private var depth: Int
    /// Per open container, whether it has no member or element yet.
    private var empty: [Bool] = []

    /// `depth` is the nesting level the first value starts at, for a value written into a
    /// pretty-printed document at that depth.
    init(pretty: Bool, depth: Int = 0) {
        self.pretty = pretty
        self.depth = depth
        bytes.reserveCapacity(512)
    }

    mutating func beginObject() { open(UInt8(ascii: "{")) }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func beginArray() { open(UInt8(ascii: "[")) }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Empties the bytes, keeping their room, for the next value at `depth`.
    mutating func reuse(depth: Int) {
        bytes.removeAll(keepingCapacity: true)
        empty.removeAll(keepingCapacity: true)
        self.depth = depth
    }

    /// Starts a member of the open object: its key, a name of this code's that needs no escape
    /// (checked by the tests that hold the text to the encoder's); the value comes next.
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        if pretty { bytes.append(contentsOf: [0x20, UInt8(ascii: ":"), 0x20]) } else { bytes.append(UInt8(ascii: ":")) }
    }

    /// Starts an element of the open array; the value comes next.
    mutating func element() { separate() }

    mutating func string(_ text: String) { quoted(text) }

    mutating func integer(_ value: Int64) { bytes.append(contentsOf: String(value).utf8) }

    /// As `JSONEncoder` writes a `Double`: its shortest round-trip text, without a trailing
    /// `.0`. A value that is not finite (the encoder throws) is `null`.
    mutating func number(_ value: Double) {
        guard value.isFinite else { return bytes.append(contentsOf: "null".utf8) }
        let text = value.description
        bytes.append(contentsOf: text.hasSuffix(".0") ? text.utf8.dropLast(2) : text.utf8[...])
    }

    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        empty.append(true)
        depth += 1
    }

    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        if pretty {
            if empty.last == true { bytes.append(UInt8(ascii: "\n")) }
            newLine()
        }
        empty.removeLast()
        bytes.append(bracket)
    }

    private mutating func separate() {
        if empty.last == false { bytes.append(UInt8(ascii: ",")) }
        if !empty.isEmpty { empty[empty.count - 1] = false }
        if pretty { newLine() }
    }

    private mutating func newLine() {
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(0x20, count: 2 * depth))
    }

    private mutating func quoted(_ text: String) { JSONText.appendQuoted(text, to: &bytes) }
}
