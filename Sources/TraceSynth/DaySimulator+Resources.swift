/// Shared resources (v1.1): a database in the app group's container written by background work,
/// a file lock around the reading list, a Bonjour service or listening socket for sharing with
/// nearby devices.
/// Clean logs release each one before the app can be suspended.
extension DaySimulator {
    static let articleStore = "group.com.example.news/articles.sqlite"
    static let readingListLock = "group.com.example.news/reading-list.lock"
    /// The nearby-sharing listener: a Bonjour service, or on some visits a bare listening socket.
    static let nearbyListeners: [(resource: String, kind: StaticString)] = [
        ("_newsshare._tcp", "bonjour"), ("tcp:0.0.0.0:8631", "socket"),
    ]

    /// Takes `resource` of `kind`.
    mutating func acquire(_ resource: String, kind: StaticString) {
        emit("resource.acquire", after: rng.int(1...40)) { line in
            line.field("resource", string: resource)
            line.field("kind", kind)
        }
    }

    mutating func release(_ resource: String) {
        emit("resource.release", after: rng.int(1...40)) { $0.field("resource", string: resource) }
    }

    /// Background work writes the article store: acquire, write, release — unless `held`, when it
    /// is never released (the ``BreachKind/sharedResourceHeld`` breach).
    mutating func writeArticleStore(held: Bool) {
        guard features.contains(.sharedResources) else { return }
        acquire(DaySimulator.articleStore, kind: "database")
        if !held { release(DaySimulator.articleStore) }
    }

    /// The system terminates the app instead of suspending it: it holds the article store
    /// (`0xdead10cc`).
    mutating func terminateHoldingResource() {
        emit("terminate", after: rng.int(20...900)) { $0.field("reason", "resource") }
        record(.sharedResourceHeld, launch: app!.launch)
        app = nil
    }

    /// In the foreground, once in a while: the reading list is saved under its file lock.
    mutating func saveReadingList() {
        acquire(DaySimulator.readingListLock, kind: "file-lock")
        release(DaySimulator.readingListLock)
    }

    /// At the start of a visit the user sometimes (`forced`: always) opens the nearby-sharing
    /// sheet: the app opens its listener, and closes it when the user leaves.
    mutating func maybeOpenListener(forced: Bool) {
        guard features.contains(.sharedResources), forced || rng.chance(0.2) else { return }
        let listener = rng.pick(DaySimulator.nearbyListeners)
        acquire(listener.resource, kind: listener.kind)
        openListener = listener.resource
    }

    /// Closes the listener on the way out of the foreground, unless `leaveOpen` (the
    /// ``BreachKind/listenerOpenAtSuspension`` breach: it is closed only at the next resume).
    mutating func closeListener(leaveOpen: Bool) {
        guard let listener = openListener, !leaveOpen else { return }
        release(listener)
        openListener = nil
    }
}
