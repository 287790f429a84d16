import TraceModel

/// What one input line turned out to be.
public enum DecodeResult: Sendable, Hashable {
    /// A well-formed event.
    case event(Event)
    /// An empty or whitespace-only line; not an event and not a problem.
    case blank
    /// A line that is not an event, with the reason and a message naming what is wrong.
    case reject(LineIssue)
}
