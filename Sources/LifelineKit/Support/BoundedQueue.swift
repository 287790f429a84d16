import Foundation

/// A first-in first-out hand-off between two threads. Each item has a weight (events, say);
/// the producer blocks while the waiting items weigh `capacity` or more, so a fast reader
/// cannot run ahead of the writer and grow memory without bound.
final class BoundedQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [(element: Element, weight: Int)] = []
    private var weight = 0
    private let capacity: Int
    private var closed = false

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Waits for room, then appends. Returns false if the consumer closed the queue.
    @discardableResult
    func push(_ item: Element, weight itemWeight: Int = 1) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while weight >= capacity && !closed { condition.wait() }
        guard !closed else { return false }
        items.append((item, itemWeight))
        weight += itemWeight
        condition.broadcast()
        return true
    }

    /// Waits for at least one item, then takes every item waiting; empty once the queue is
    /// closed and drained.
    func popAll() -> [Element] {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !closed { condition.wait() }
        let taken = items.map(\.element)
        items.removeAll(keepingCapacity: true)
        weight = 0
        condition.broadcast()
        return taken
    }

    /// Ends the hand-off: pending pushes return false, pops drain what is left then stop.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
