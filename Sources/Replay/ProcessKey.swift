import TraceModel

/// One process (the app, or one extension) of one device: iOS runs one launch of each at a time,
/// so a new launch of it means the one before has ended.
struct ProcessKey: Hashable {
    var device: String
    var process: String

    init(_ event: Event) {
        device = event.device
        process = event.process ?? "app"
    }
}
