import Foundation

/// A first-in first-out hand-off between two threads that blocks the producer when `capacity`
/// items wait, so a fast reader cannot run ahead of the writer and grow memory without bound.
final class BoundedQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element] = []
    private var head = 0
    private let capacity: Int
    private var closed = false

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Waits for room, then appends. Returns false if the consumer closed the queue.
    @discardableResult
    func push(_ item: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count - head >= capacity && !closed { condition.wait() }
        guard !closed else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// Waits for an item; nil once the queue is closed and drained.
    func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while items.count == head && !closed { condition.wait() }
        guard items.count > head else { return nil }
        let item = items[head]
        head += 1
        if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return item
    }

    /// Ends the hand-off: pending pushes return false, pops drain what is left then return nil.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
