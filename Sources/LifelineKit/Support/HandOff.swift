/// Results one thread hands to another in order, taken one at a time: the taker waits for the
/// next when none is waiting. The giver never waits (what it gives is bounded by its caller).
final class HandOff<Element>: @unchecked Sendable {
    private let queue = BoundedQueue<Element>(capacity: .max)
    /// Taken from `queue` and not yet asked for, last first: the taker's alone.
    private var waiting: [Element] = []

    func give(_ element: Element) {
        queue.push(element)
    }

    /// The next element given; nil once the giver's side is closed and everything was taken.
    func next() -> Element? {
        if waiting.isEmpty { waiting = queue.popAll().reversed() }
        return waiting.popLast()
    }
}
