import TraceModel

/// Reuses one `String` for each distinct short text read from SQLite, so that replaying
/// millions of rows does not allocate an event name, phase or identifier per row: a column
/// like `event` holds a few dozen distinct values.
struct TextInterner {
    private struct Slot {
        var bytes: [UInt8]
        var string: String
    }

    private var slots: [Slot?]
    private let mask: Int
    /// Texts longer than this are not worth a slot (they are rarely repeated).
    private let maxBytes = 64

    init(capacity: Int = 4096) {
        var size = 1
        while size < capacity { size <<= 1 }
        slots = Array(repeating: nil, count: size)
        mask = size - 1
    }

    mutating func string(_ bytes: UnsafeRawBufferPointer) -> String {
        guard bytes.count <= maxBytes else { return String(decoding: bytes, as: UTF8.self) }
        let index = FNV1a.hash(bytes) & mask
        if let slot = slots[index], SameBytes.equal(slot.bytes, bytes) { return slot.string }
        let string = String(decoding: bytes, as: UTF8.self)
        // A collision simply replaces the older text: this is a cache, not a set.
        slots[index] = Slot(bytes: Array(bytes), string: string)
        return string
    }
}
