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
    /// Open-addressed slots: 0 is empty, n is text number n - 1.
    private var slots: [UInt32]
    private var mask: Int
    private var newTexts: [String] = []

    public init() {
        slots = Array(repeating: 0, count: 64)
        mask = 63
        // Number 0 is the empty text in every table (``TextID/empty``), already in the replay's.
        texts = [[]]
        slots[FNV1a.hash(UnsafeRawBufferPointer(start: nil, count: 0)) & mask] = 1
    }

    /// The number of the text whose UTF-8 bytes these are, given it if it is new.
    public mutating func id(utf8 bytes: UnsafeRawBufferPointer) -> TextID {
        var index = FNV1a.hash(bytes) & mask
        while case let slot = slots[index], slot != 0 {
            if texts[Int(slot - 1)].elementsEqual(bytes) { return TextID(index: slot - 1) }
            index = (index + 1) & mask
        }
        // Saturate rather than trap on input, as ``TextTable/id(_:)`` does.
        let number = UInt32(truncatingIfNeeded: min(texts.count, Int(UInt32.max - 1)))
        texts.append(Array(bytes))
        newTexts.append(String(decoding: bytes, as: UTF8.self))
        slots[index] = number + 1
        if texts.count * 2 > slots.count { grow() }
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

    private mutating func grow() {
        slots = Array(repeating: 0, count: slots.count * 2)
        mask = slots.count - 1
        for (number, bytes) in texts.enumerated() {
            var index = bytes.withUnsafeBytes(FNV1a.hash) & mask
            while slots[index] != 0 { index = (index + 1) & mask }
            slots[index] = UInt32(truncatingIfNeeded: number + 1)
        }
    }
}
