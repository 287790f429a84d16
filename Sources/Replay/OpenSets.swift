import TraceModel

/// A field whose values the trace format lists, which a newer logger may extend: the listed
/// values are cases a check can compare and switch over, and any other text is kept as
/// `.other` with its number in the device's ``TextTable``, so that nothing is lost and a message
/// can still quote it.
public protocol OpenSet: Hashable, Sendable, BitwiseCopyable {
    /// The listed values with their texts.
    static var listed: [(text: String, value: Self)] { get }
    static func other(_ text: TextID) -> Self
    /// The number of an `.other` value's text; nil for a listed case.
    var otherText: TextID? { get }
}

extension OpenSet {
    /// The value of `text`: a listed case, or `.other` with the text numbered in `texts`.
    init(_ text: String, texts: inout some TextNumbering) {
        for (listedText, value) in Self.listed where listedText == text {
            self = value
            return
        }
        self = .other(texts.id(text))
    }

    /// The value of the text whose UTF-8 bytes these are. Lengths first, then the bytes in
    /// place: comparing every listed text through its `UTF8View`, a byte at a time, was a
    /// twentieth of the store's reading thread.
    init(utf8 bytes: UnsafeRawBufferPointer, texts: inout TextTableFeed) {
        for (listedText, value) in Self.listed where listedText.utf8.count == bytes.count {
            var listed = listedText
            guard listed.withUTF8({ SameBytes.equal(UnsafeRawBufferPointer($0), bytes) }) else { continue }
            self = value
            return
        }
        self = .other(texts.id(utf8: bytes))
    }

    /// The value as it was written.
    func text(in texts: TextTable) -> String {
        if let id = otherText { return texts[id] }
        return Self.listed.first { $0.value == self }?.text ?? ""
    }
}

/// `phase` of a callback whose duration matters.
public enum Phase: OpenSet {
    case begin, end
    case other(TextID)

    public var otherText: TextID? {
        if case .other(let id) = self { return id }
        return nil
    }

    public static let listed: [(text: String, value: Phase)] = [("begin", .begin), ("end", .end)]
}

/// `reason` of a `launch`, `resume` or `terminate` (trace format v1.1: `resource` is the kill of an
/// app that held a shared resource when it would have been suspended).
public enum Reason: OpenSet {
    case user, system, prewarm, quiet, watchdog, memory, assertionTimeout, crash, resource
    case other(TextID)

    public var otherText: TextID? {
        if case .other(let id) = self { return id }
        return nil
    }

    public static let listed: [(text: String, value: Reason)] = [
        ("user", .user), ("system", .system), ("prewarm", .prewarm), ("quiet", .quiet),
        ("watchdog", .watchdog), ("memory", .memory), ("assertion-timeout", .assertionTimeout), ("crash", .crash),
        ("resource", .resource),
    ]
}

/// `cause` of a `launch` or `resume`: what the system ran the app for.
public enum Cause: OpenSet {
    case bgtask, fetch, push, urlsession, location, audio, nse
    case other(TextID)

    public var otherText: TextID? {
        if case .other(let id) = self { return id }
        return nil
    }

    public static let listed: [(text: String, value: Cause)] = [
        ("bgtask", .bgtask), ("fetch", .fetch), ("push", .push), ("urlsession", .urlsession),
        ("location", .location), ("audio", .audio), ("nse", .nse),
    ]
}

/// `kind` of a `resource.acquire` (trace format v1.1): a shared system resource, or a listener.
public enum ResourceKind: OpenSet {
    case fileLock, database, camera, microphone, bonjour, socket
    case other(TextID)

    public var otherText: TextID? {
        if case .other(let id) = self { return id }
        return nil
    }

    public static let listed: [(text: String, value: ResourceKind)] = [
        ("file-lock", .fileLock), ("database", .database), ("camera", .camera), ("microphone", .microphone),
        ("bonjour", .bonjour), ("socket", .socket),
    ]

    /// A Bonjour service or a listening socket: what the app opens to answer requests, rather than
    /// a resource other processes wait for.
    public var isListener: Bool { self == .bonjour || self == .socket }
}
