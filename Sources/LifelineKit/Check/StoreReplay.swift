import Foundation
import Replay
import TraceModel
import TraceStore

/// Replays the store on two cores: one thread reads rows and makes them compact events (texts
/// numbered, attributes typed: ``CompactBatch``) while the calling thread replays them, with a
/// bounded queue of batches between them. The replaying thread then does the checks' work only.
struct StoreReplay {
    private enum Chunk: Sendable {
        case batch(CompactBatch)
        case deviceEnded(String)
        /// A launch cut short, said before its events.
        case cutShort(device: String, launch: String)
        case failed(String)
    }

    /// Events per batch handed from the reading thread to the replaying one.
    static let chunkSize = 4096

    let store: Store
    let devices: Store.DeviceSelection

    /// Feeds every batch of events to `replay` and every device end to `deviceEnded`, in replay
    /// order, and each launch whose file was cut short to `cutShort` before its events. Returns
    /// the number of events read. `readEnded` is called on the reading thread as soon as its read
    /// of the store is over, while the batches it read may still be replaying.
    func run(
        _ replay: (CompactBatch) -> Void, deviceEnded: (String) -> Void, cutShort: (_ device: String, _ launch: String) -> Void,
        readEnded: @escaping @Sendable () -> Void = {}
    ) throws -> Int {
        let queue = BoundedQueue<Chunk>(capacity: Self.chunkSize * 8)
        let done = DispatchSemaphore(value: 0)
        let counter = EventCounter()
        let store = store
        let devices = devices
        let thread = Thread {
            var reader = CompactReader(queue: queue)
            do {
                counter.count = try store.forEachRow(devices: devices) { reader.read($0) } cutShort: {
                    queue.push(.cutShort(device: $0, launch: $1))
                }
                readEnded()
                reader.endDevice()
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
                case .batch(let batch): replay(batch)
                case .deviceEnded(let device): deviceEnded(device)
                case .cutShort(let device, let launch): cutShort(device, launch)
                case .failed(let message): failure = message
                }
            }
        }
        done.wait()
        if let failure { throw StoreError.readFailed(what: "read events for replay", underlying: failure) }
        return counter.count
    }

    /// The reading thread's side: turns rows into batches, device by device.
    private struct CompactReader {
        let queue: BoundedQueue<Chunk>
        private var builder: CompactBatchBuilder?
        private var launchID: Int64 = -1
        private var serial: UInt32 = 0
        /// The events of a launch that logs no `seq`, gathered to be sorted by time.
        private var unsequenced: [ReplayEvent] = []

        init(queue: BoundedQueue<Chunk>) {
            self.queue = queue
        }

        mutating func read(_ row: StoredRow) {
            if row.launch.id != launchID {
                endLaunch()
                if builder?.device != row.launch.device {
                    endDevice()
                    builder = CompactBatchBuilder(device: row.launch.device, capacity: StoreReplay.chunkSize)
                }
                launchID = row.launch.id
                let context = row.launch.context
                let header = LaunchHeader(
                    launch: row.launch.name, process: context?.process, app: context?.app, appVersion: context?.appVersion,
                    os: context?.os, model: context?.model)
                serial = builder?.beginLaunch(header) ?? 0
            }
            guard let event = builder?.event(row.fields, launch: serial) else { return }
            if !EventIdentity.identifiesBySeq(event.seq) || !unsequenced.isEmpty {
                // Events without seq sort by time among their launch (trace format: "else of ts"),
                // and those whose seq is too large for their row id by it (stored as they came).
                unsequenced.append(event)
            } else {
                append(event)
            }
        }

        /// Hands over what the device's last batch holds, and says the device ended.
        mutating func endDevice() {
            endLaunch()
            guard var builder else { return }
            let count = builder.count
            queue.push(.batch(builder.take()), weight: max(1, count))
            queue.push(.deviceEnded(builder.device))
            self.builder = nil
        }

        private mutating func endLaunch() {
            guard !unsequenced.isEmpty else { return }
            unsequenced.sort { ($0.seq ?? .max, $0.ts, $0.rowID ?? 0) < ($1.seq ?? .max, $1.ts, $1.rowID ?? 0) }
            for event in unsequenced { append(event) }
            unsequenced.removeAll(keepingCapacity: true)
        }

        private mutating func append(_ event: ReplayEvent) {
            builder?.append(event)
            if let count = builder?.count, count >= StoreReplay.chunkSize, let batch = builder?.take() {
                queue.push(.batch(batch), weight: count)
            }
        }
    }
}

/// The reading thread's count, read by the caller after the thread is done.
private final class EventCounter: @unchecked Sendable {
    var count = 0
}
