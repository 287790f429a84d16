import Replay

/// Small text helpers for the messages of the lifecycle, sequence and termination rules.
enum LifecycleText {
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
