import Foundation
import GRDB
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

extension StoreReplay {
    /// The launches (device and launch names) whose last event lies in a file that was cut
    /// short (`files.truncated`): the replay reports the work they left open as cut short.
    func cutShortLaunches() throws -> [(device: String, launch: String)] {
        var filter = ""
        var arguments: StatementArguments = []
        if case .only(let names) = devices {
            filter = "AND d.name IN (\(names.map { _ in "?" }.joined(separator: ", ")))"
            arguments = StatementArguments(names)
        }
        return try store.read { db in
            try Row.fetchAll(db, sql: """
                SELECT d.name AS device, l.name AS launch
                FROM launches l JOIN devices d ON d.id = l.device_id
                WHERE (SELECT f.truncated FROM event_rows e JOIN files f ON f.id = e.file_id
                       WHERE e.id >= (l.id << 32) AND e.id < ((l.id + 1) << 32)
                       ORDER BY e.id DESC LIMIT 1) = 1 \(filter)
                """, arguments: arguments)
            .map { (device: $0["device"], launch: $0["launch"]) }
        }
    }
}

/// The reading thread's count, read by the caller after the thread is done.
private final class EventCounter: @unchecked Sendable {
    var count = 0
}
