import TraceModel
import TraceStore

/// Which launches an ``AppSelection`` takes, for reporting only their findings: from a store,
/// the launches it names; from a stream, each launch as its first event arrives.
struct LaunchApps {
    let selection: AppSelection
    /// Each launch seen, with the app and version its lines have named so far (a stream learns a
    /// launch's envelope as it comes: the first line may leave it to the `config` line).
    private var seen: [Store.LaunchName: Envelope] = [:]

    private struct Envelope {
        var app: String?
        var version: String?
        /// Named by the store as selected (its envelope is the store's to know).
        var chosen = false
    }

    /// For a stream: launches are decided by ``see(_:)``.
    init(_ selection: AppSelection) {
        self.selection = selection
    }

    /// For a store: the launches `selection` takes, found beforehand.
    init(_ selection: AppSelection, launches: [Store.LaunchName]) {
        self.selection = selection
        for launch in launches { seen[launch] = Envelope(chosen: true) }
    }

    /// How many launches are selected.
    var selected: Int { seen.values.count(where: isSelected) }

    /// Notes the app and version of the launch of `event`.
    mutating func see(_ event: Event) {
        see(device: event.device, launch: event.launch, app: event.app, version: event.appVersion)
    }

    /// Notes a launch's app and version: its first line's, each completed by the first later line
    /// that names it.
    mutating func see(device: String, launch: String, app: String?, version: String?) {
        let name = Store.LaunchName(device: device, launch: launch)
        guard var envelope = seen[name] else {
            seen[name] = Envelope(app: app, version: version)
            return
        }
        guard envelope.app == nil && app != nil || envelope.version == nil && version != nil else { return }
        envelope.app = envelope.app ?? app
        envelope.version = envelope.version ?? version
        seen[name] = envelope
    }

    /// Whether the launch is selected (a launch never seen is not).
    func takes(device: String, launch: String) -> Bool {
        seen[Store.LaunchName(device: device, launch: launch)].map(isSelected) ?? false
    }

    /// Whether a stream has yet to learn what the selection asks of the launch: its app or version
    /// (a launch may name them on its second line, after a finding at its first).
    func isUndecided(device: String, launch: String) -> Bool {
        guard let envelope = seen[Store.LaunchName(device: device, launch: launch)], !envelope.chosen else { return false }
        return selection.app != nil && envelope.app == nil || selection.version != nil && envelope.version == nil
    }

    /// Whether the finding's launch is selected.
    func takes(_ finding: Finding) -> Bool {
        takes(device: finding.device, launch: finding.launch)
    }

    private func isSelected(_ envelope: Envelope) -> Bool {
        envelope.chosen || selection.matches(app: envelope.app, version: envelope.version)
    }
}
