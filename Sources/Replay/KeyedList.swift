/// Values by key, in the order their keys came: what an ``ObligationCheck`` holds open, and the
/// keys it discharged, for one launch.
///
/// A launch holds a handful of each, so they are found by walking a short list: hashing a key
/// (Swift's dictionaries hash with SipHash) cost more than the rest of opening and closing a
/// task. Past ``indexedAbove`` entries a dictionary of positions is kept as well, so a launch
/// that opens a great many (a log written to hurt) costs no more per event than a dictionary
/// would; removed entries then leave a hole, filled in when holes are half the list.
struct KeyedList<Key: Hashable, Value> {
    private typealias Entry = (key: Key, value: Value)

    private var entries: [Entry?] = []
    /// The position of each key in `entries`, once there are more than ``indexedAbove``.
    private var positions: [Key: Int]?
    /// How many of `entries` are holes (only with `positions`).
    private var holes = 0

    static var indexedAbove: Int { 16 }

    init() {}

    var isEmpty: Bool { entries.count == holes }

    /// The entries, in the order their keys were first added.
    var elements: some Sequence<(key: Key, value: Value)> { entries.lazy.compactMap { $0 } }

    subscript(key: Key) -> Value? {
        position(of: key).flatMap { entries[$0]?.value }
    }

    func contains(_ key: Key) -> Bool { position(of: key) != nil }

    /// Sets the value of `key` and returns the value it replaced; a new key goes last.
    @discardableResult
    mutating func updateValue(_ value: Value, forKey key: Key) -> Value? {
        if let position = position(of: key) {
            defer { entries[position] = (key, value) }
            return entries[position]?.value
        }
        entries.append((key, value))
        if positions != nil {
            positions?[key] = entries.count - 1
        } else if entries.count > Self.indexedAbove {
            index()
        }
        return nil
    }

    /// Changes the value of `key`, if it has one.
    mutating func modify(_ key: Key, _ change: (inout Value) -> Void) {
        guard let position = position(of: key), var entry = entries[position] else { return }
        change(&entry.value)
        entries[position] = entry
    }

    /// Removes `key` and returns its value.
    @discardableResult
    mutating func removeValue(forKey key: Key) -> Value? {
        guard let position = position(of: key) else { return nil }
        let value = entries[position]?.value
        if positions == nil {
            entries.remove(at: position)
        } else {
            entries[position] = nil
            positions?[key] = nil
            holes += 1
            if holes * 2 > entries.count { fillHoles() }
        }
        return value
    }

    mutating func removeAll(keepingCapacity keep: Bool = false) {
        entries.removeAll(keepingCapacity: keep)
        positions = nil
        holes = 0
    }

    /// The room `entries` has (to let go of a large one).
    var capacity: Int { entries.capacity }

    private func position(of key: Key) -> Int? {
        if let positions { return positions[key] }
        return entries.firstIndex { $0?.key == key }
    }

    private mutating func index() {
        var positions: [Key: Int] = [:]
        positions.reserveCapacity(entries.count)
        for (position, entry) in entries.enumerated() {
            if let entry { positions[entry.key] = position }
        }
        self.positions = positions
    }

    private mutating func fillHoles() {
        entries.removeAll { $0 == nil }
        holes = 0
        if entries.count > Self.indexedAbove { index() } else { positions = nil }
    }
}

extension KeyedList where Value == Void {
    /// Adds `key` (a list of keys alone is a set that keeps their order).
    mutating func insert(_ key: Key) {
        updateValue((), forKey: key)
    }

    /// Removes `key`, and says whether it was there.
    @discardableResult
    mutating func remove(_ key: Key) -> Bool {
        removeValue(forKey: key) != nil
    }
}
