import TraceDecode
import TraceModel

/// The attributes a rule reads from each kind of event that has some, besides the readings
/// (``Readings``), each visited in one pass (see ``AttributeVisitor``).
///
/// Read through ``AttributeReader`` (an array of members with String keys, a search per
/// attribute), a submit or a push cost about 2,450 instructions: 5% of the replay's on a tidy
/// log, and 7.7% of its instruction-cache misses (callgrind).
enum KindAttributes {
    /// `push.receive`: the APNs headers.
    struct Push: AttributeVisitor {
        var contentAvailable: Bool?
        var priority: Int?
        var pushType: String?

        mutating func visit(_ key: UnsafeRawBufferPointer, _ value: () -> JSONAttributes.Value) {
            if key.isKey("content_available") {
                // true, or 1 as the APNs payload writes `content-available` (0: false).
                let flag = value()
                contentAvailable = flag.bool ?? flag.int.flatMap { $0 == 1 ? true : $0 == 0 ? false : nil }
            } else if key.isKey("priority") {
                priority = value().int
            } else if key.isKey("push_type") {
                pushType = value().text
            }
        }
    }

    /// `bgtask.submit`: the request's class, the error it threw, its earliest begin date and what
    /// a processing request requires.
    struct Submit: AttributeVisitor {
        var type: String?
        var error: String?
        var earliestBegin: Timestamp?
        var requiresPower: Bool?
        var requiresNetwork: Bool?

        mutating func visit(_ key: UnsafeRawBufferPointer, _ value: () -> JSONAttributes.Value) {
            if key.isKey("type") {
                type = value().text
            } else if key.isKey("error") {
                error = value().text
            } else if key.isKey("earliest_begin") {
                earliestBegin = value().time
            } else if key.isKey("requires_power") {
                requiresPower = value().bool
            } else if key.isKey("requires_network") {
                requiresNetwork = value().bool
            }
        }
    }

    /// `backgroundTimeRemaining`: `value`, in seconds.
    struct TimeRemaining: AttributeVisitor {
        var seconds: Double?

        mutating func visit(_ key: UnsafeRawBufferPointer, _ value: () -> JSONAttributes.Value) {
            if key.isKey("value") { seconds = value().double }
        }
    }

    /// `beginBackgroundTask`: the task's `name`.
    struct BackgroundTaskName: AttributeVisitor {
        var name: String?

        mutating func visit(_ key: UnsafeRawBufferPointer, _ value: () -> JSONAttributes.Value) {
            if key.isKey("name") { name = value().text }
        }
    }

    /// `bgtask.launch` or `bgtask.expire`: whether it was forced from the debugger.
    struct Simulated: AttributeVisitor {
        var simulated: Bool?

        mutating func visit(_ key: UnsafeRawBufferPointer, _ value: () -> JSONAttributes.Value) {
            if key.isKey("simulated") { simulated = value().bool }
        }
    }

    /// `resource.acquire` and `resource.release`: the resource's id (a number kept as its decimal
    /// text) and, for an acquire, its `kind`.
    struct Resource: AttributeVisitor {
        var id: String?
        var kind: String?

        mutating func visit(_ key: UnsafeRawBufferPointer, _ value: () -> JSONAttributes.Value) {
            if key.isKey("resource") {
                id = value().identifier
            } else if key.isKey("kind") {
                kind = value().text
            }
        }
    }

    /// `urlsession.task.create`: its scheduling attributes.
    struct URLSessionTask: AttributeVisitor {
        var earliestBegin: Timestamp?
        var discretionary: Bool?
        var expectedSend: Double?
        var expectedReceive: Double?

        mutating func visit(_ key: UnsafeRawBufferPointer, _ value: () -> JSONAttributes.Value) {
            if key.isKey("earliest_begin") {
                earliestBegin = value().time
            } else if key.isKey("discretionary") {
                discretionary = value().bool
            } else if key.isKey("expected_send") {
                expectedSend = value().double
            } else if key.isKey("expected_receive") {
                expectedReceive = value().double
            }
        }
    }

    /// `fetch.setMinimumInterval`: the `interval`, in seconds.
    struct FetchInterval: AttributeVisitor {
        var interval: Double?

        mutating func visit(_ key: UnsafeRawBufferPointer, _ value: () -> JSONAttributes.Value) {
            if key.isKey("interval") { interval = value().double }
        }
    }
}
