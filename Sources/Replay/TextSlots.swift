import TraceModel

/// The open-addressed index behind a table of numbered texts (``TextTable``, ``TextTableFeed``):
/// slots hold text numbers, found by an FNV-1a hash of the text's UTF-8 bytes (``FNV1a``) and
/// confirmed by the caller's comparison. `Dictionary<String, _>` hashes with SipHash, which was
/// 3% of the replay where every identifier of every event is numbered.
struct TextSlots {
    /// 0 is empty, n is text number n - 1.
    private var slots = [UInt32](repeating: 0, count: 64)
    private var mask = 63

    /// The number of the text hashed to `hash` for which `matches` says yes, or where to put it
    /// (pass that to ``insert(_:at:count:rehash:)``).
    func find(hash: Int, _ matches: (UInt32) -> Bool) -> (number: UInt32?, slot: Int) {
        var index = hash & mask
        while case let slot = slots[index], slot != 0 {
            if matches(slot - 1) { return (slot - 1, index) }
            index = (index + 1) & mask
        }
        return (nil, index)
    }

    /// Puts text `number` at `slot` (from ``find(hash:_:)``); with `count` texts now held, grows
    /// when half full, hashing each text anew with `rehash`.
    mutating func insert(_ number: UInt32, at slot: Int, count: Int, rehash: (Int) -> Int) {
        slots[slot] = number + 1
        guard count * 2 > slots.count else { return }
        slots = [UInt32](repeating: 0, count: slots.count * 2)
        mask = slots.count - 1
        for number in 0 ..< count {
            var index = rehash(number) & mask
            while slots[index] != 0 { index = (index + 1) & mask }
            slots[index] = UInt32(truncatingIfNeeded: number + 1)
        }
    }
}

extension FNV1a {
    /// The hash of `text`'s UTF-8 bytes.
    static func hash(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
    }
}
