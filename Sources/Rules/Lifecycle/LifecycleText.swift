import Replay

/// Small text helpers for the messages of the lifecycle, sequence and termination rules.
enum LifecycleText {
    /// Seconds for a message, to the millisecond: `6.5 s`, `0.004 s`, `8 s`.
    static func seconds(_ seconds: Double) -> String {
        let millis = Int((seconds * 1000).rounded())
        let fraction = millis % 1000
        guard fraction != 0 else { return "\(millis / 1000) s" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(millis / 1000).\(digits) s"
    }

    /// A state as it reads after "the app was": `active`, `in the background`, `not running`.
    static func state(_ state: AppState) -> String {
        switch state {
        case .notRunning: "not running"
        case .inactive: "inactive"
        case .active: "active"
        case .background: "in the background"
        case .suspended: "suspended"
        }
    }
}
