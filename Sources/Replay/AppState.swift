/// The five states of a UIKit app (seed 002: "UIKit apps are always in one of five states").
public enum AppState: String, Sendable, Hashable, CaseIterable, BitwiseCopyable {
    /// Not launched, or terminated.
    case notRunning = "not running"
    /// In the foreground but not receiving events (launching, or interrupted by an alert or call).
    case inactive
    /// In the foreground and receiving events.
    case active
    /// Running off screen: after `didEnterBackground`, or launched or resumed for an event.
    case background
    /// In memory, running no code.
    case suspended

    /// True in the two foreground states.
    public var isForeground: Bool { self == .inactive || self == .active }
}
