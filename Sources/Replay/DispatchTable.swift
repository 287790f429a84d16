import TraceModel

/// A rule book's dispatch tables (which blueprints hear each event kind) in memory of their
/// own, read in the replay's hottest loop through ``View``, which holds no reference: an array of
/// arrays was retained and released for every event, and each is an atomic operation.
///
/// Made once per rule book and never changed, so any number of threads may read it.
final class DispatchTable: @unchecked Sendable {
    /// The four tables: by process kind, then by the checks' scope.
    enum Table: Int, CaseIterable {
        case appLaunch, appDevice, extensionLaunch, extensionDevice
    }

    /// Where each table's list for each kind begins in `entries`, then where the last one ends.
    private let offsets: UnsafeMutablePointer<Int32>
    private let entries: UnsafeMutablePointer<Int32>
    let view: View

    /// `lists[table][ordinal]`: the blueprints of `table` that hear the kind of that ordinal.
    init(_ lists: [[[Int]]]) {
        let kinds = lists.first?.count ?? 0
        let flat = lists.flatMap { $0 }
        offsets = .allocate(capacity: flat.count + 1)
        entries = .allocate(capacity: max(flat.reduce(0) { $0 + $1.count }, 1))
        var next = 0
        for (slot, list) in flat.enumerated() {
            offsets[slot] = Int32(next)
            for blueprint in list {
                entries[next] = Int32(blueprint)
                next += 1
            }
        }
        offsets[flat.count] = Int32(next)
        view = View(offsets: offsets, entries: entries, kinds: kinds)
    }

    deinit {
        offsets.deallocate()
        entries.deallocate()
    }

    /// The tables as plain pointers, valid while their ``DispatchTable`` lives.
    struct View {
        fileprivate let offsets: UnsafeMutablePointer<Int32>
        fileprivate let entries: UnsafeMutablePointer<Int32>
        fileprivate let kinds: Int

        /// The blueprints of `table` that hear events of the kind of `ordinal`, in order.
        @inline(__always)
        func blueprints(_ table: Table, ordinal: Int) -> UnsafeBufferPointer<Int32> {
            let slot = table.rawValue &* kinds &+ ordinal
            let start = Int(offsets[slot])
            return UnsafeBufferPointer(start: entries + start, count: Int(offsets[slot &+ 1]) &- start)
        }
    }
}
