import TraceModel

/// Numbers a device's texts the way its ``TextTable`` will, on another thread: a reader that makes
/// ``ReplayEvent``s itself (see ``CompactBatch``) numbers their texts here, from the UTF-8 bytes it
/// has, and hands the texts that are new to the replay with the events, which appends them to the
/// device's table in the same order (``TextTable/append(fedTexts:)``), so the numbers agree.
///
/// A text already numbered costs a hash of its bytes and one comparison; no `String` is made.
/// Exact, not a cache: two different texts never share a number, and a text keeps its first.
public struct TextTableFeed: TextNumbering {
    /// The bytes of each text, by number.
    private var texts: [[UInt8]] = []
    private var slots = TextSlots()
    private var newTexts: [String] = []

    public init() {
        // Number 0 is the empty text in every table (``TextID/empty``), already in the replay's.
        texts = [[]]
        let (_, slot) = slots.find(hash: FNV1a.hash(UnsafeRawBufferPointer(start: nil, count: 0))) { _ in false }
        slots.insert(0, at: slot, count: 1) { _ in 0 }
    }

    /// The number of the text whose UTF-8 bytes these are, given it if it is new.
    public mutating func id(utf8 bytes: UnsafeRawBufferPointer) -> TextID {
        let (found, slot) = slots.find(hash: FNV1a.hash(bytes)) { SameBytes.equal(texts[Int($0)], bytes) }
        if let found { return TextID(index: found) }
        // Saturate rather than trap on input, as ``TextTable/id(_:)`` does.
        let number = UInt32(truncatingIfNeeded: min(texts.count, Int(UInt32.max - 1)))
        texts.append(Array(bytes))
        newTexts.append(String(decoding: bytes, as: UTF8.self))
        let held = texts
        slots.insert(number, at: slot, count: held.count) { held[$0].withUnsafeBytes(FNV1a.hash) }
        return TextID(index: number)
    }

    public mutating func id(_ text: String) -> TextID {
        var text = text
        return text.withUTF8 { id(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// The texts numbered since the last call, in the order they were numbered.
    public mutating func takeNewTexts() -> [String] {
        defer { newTexts.removeAll() }
        return newTexts
    }
}
