import Foundation
import Replay
import TraceModel
import TraceStore

/// Replays the store on two cores: one thread reads rows and builds events while the calling
/// thread replays them, with a bounded queue of event chunks between them.
struct StoreReplay {
    private enum Chunk: Sendable {
        case events([Event])
        case deviceEnded(String)
        case failed(String)
    }

    /// Events per chunk handed from the reading thread to the replaying one.
    static let chunkSize = 4096

    let store: Store
    let devices: Store.DeviceSelection

    /// Feeds every event to `replay` and every device end to `deviceEnded`, in replay order.
    /// Returns the number of events read.
    func run(_ replay: (consuming Event) -> Void, deviceEnded: (String) -> Void) throws -> Int {
        let queue = BoundedQueue<Chunk>(capacity: Self.chunkSize * 8)
        let done = DispatchSemaphore(value: 0)
        let counter = EventCounter()
        let store = store
        let devices = devices
        let thread = Thread {
            var chunk: [Event] = []
            chunk.reserveCapacity(Self.chunkSize)
            do {
                counter.count = try store.forEachEvent(devices: devices) { event in
                    chunk.append(event)
                    if chunk.count == Self.chunkSize {
                        queue.push(.events(chunk), weight: chunk.count)
                        chunk.removeAll(keepingCapacity: true)
                    }
                } deviceEnded: { device in
                    if !chunk.isEmpty { queue.push(.events(chunk), weight: chunk.count) }
                    chunk.removeAll(keepingCapacity: true)
                    queue.push(.deviceEnded(device))
                }
            } catch {
                queue.push(.failed("\(error)"))
            }
            queue.close()
            done.signal()
        }
        thread.name = "lifeline-replay-read"
        thread.start()
        var failure: String?
        while case let chunks = queue.popAll(), !chunks.isEmpty {
            for chunk in chunks {
                switch chunk {
                case .events(let events): for event in events { replay(event) }
                case .deviceEnded(let device): deviceEnded(device)
                case .failed(let message): failure = message
                }
            }
        }
        done.wait()
        if let failure { throw StoreError.readFailed(what: "read events for replay", underlying: failure) }
        return counter.count
    }
}

/// The reading thread's count, read by the caller after the thread is done.
private final class EventCounter: @unchecked Sendable {
    var count = 0
}
