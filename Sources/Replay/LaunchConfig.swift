/// What a launch's `config` event says: the BGTask identifiers the app permits, its background
/// modes, and whether a debugger was attached. Each is nil when the event does not say it.
struct LaunchConfig {
    let permittedIdentifiers: [String]?
    let backgroundModes: [String]?
    let debuggerAttached: Bool?

    /// Reads the `attrs` text of a `config` event (nil: no attributes).
    init(_ attrs: String?) {
        let config = AttributeReader(attrs, only: ["permitted_identifiers", "background_modes", "debugger"])
        permittedIdentifiers = config.strings("permitted_identifiers")
        backgroundModes = config.strings("background_modes")
        debuggerAttached = config.bool("debugger")
    }
}
