/// A row of checks by blueprint index (nil where a blueprint has none) in memory of its own,
/// each held retained once by the row and called through ``with(_:_:)`` on that reference as it
/// is: reading a check out of an array held by a class retained and released it (and the array)
/// around every call, and each of those is an atomic operation.
///
/// A value that points at its memory: exactly one owner frees it (``free()``), once, after
/// which no copy may be used. Moving a check from one row to another (``move(_:to:)``) counts
/// no reference.
struct CheckSlots {
    private let base: UnsafeMutablePointer<Unmanaged<Check>?>
    let count: Int

    init(count: Int) {
        self.count = count
        base = .allocate(capacity: max(count, 1))
        base.initialize(repeating: nil, count: count)
    }

    /// Calls `body` with the check of blueprint `index`, if there is one, and returns its answer.
    @inline(__always) @discardableResult
    func with<Answer>(_ index: Int, _ body: (Check) -> Answer) -> Answer? {
        base[index]?._withUnsafeGuaranteedRef(body)
    }

    /// Whether blueprint `index` has a check here.
    func has(_ index: Int) -> Bool { base[index] != nil }

    /// Puts `check` in the slot of blueprint `index`, letting go of the one there.
    func put(_ check: Check?, at index: Int) {
        base[index]?.release()
        base[index] = check.map { Unmanaged.passRetained($0) }
    }

    /// Moves the check of blueprint `index` (if any) to the same slot of `other`, letting go of
    /// the one there.
    func move(_ index: Int, to other: CheckSlots) {
        guard let check = base[index] else { return }
        other.base[index]?.release()
        other.base[index] = check
        base[index] = nil
    }

    /// Lets go of the check of blueprint `index`.
    func remove(_ index: Int) {
        base[index]?.release()
        base[index] = nil
    }

    /// The checks, as an array (for tests).
    var all: [Check?] { (0 ..< count).map { base[$0]?.takeUnretainedValue() } }

    /// Lets go of every check and of the memory.
    func free() {
        for index in 0 ..< count { base[index]?.release() }
        base.deinitialize(count: count)
        base.deallocate()
    }
}
