import TraceModel
import TraceStore

/// Which launches an ``AppSelection`` takes, for reporting only their findings: from a store,
/// the launches it names; from a stream, each launch as its first event arrives.
struct LaunchApps {
    let selection: AppSelection
    /// Each launch seen, and whether it is selected.
    private var decided: [Store.LaunchName: Bool] = [:]
    /// How many launches are selected.
    private(set) var selected = 0

    /// For a stream: launches are decided by ``see(_:)``.
    init(_ selection: AppSelection) {
        self.selection = selection
    }

    /// For a store: the launches `selection` takes, found beforehand.
    init(_ selection: AppSelection, launches: [Store.LaunchName]) {
        self.selection = selection
        for launch in launches where decided.updateValue(true, forKey: launch) == nil { selected += 1 }
    }

    /// Decides the launch of `event` if it is its first event.
    mutating func see(_ event: Event) {
        see(device: event.device, launch: event.launch, app: event.app, version: event.appVersion)
    }

    mutating func see(device: String, launch: String, app: String?, version: String?) {
        let name = Store.LaunchName(device: device, launch: launch)
        guard decided[name] == nil else { return }
        let matches = selection.matches(app: app, version: version)
        decided[name] = matches
        if matches { selected += 1 }
    }

    /// Whether the launch is selected (a launch never seen is not).
    func takes(device: String, launch: String) -> Bool {
        decided[Store.LaunchName(device: device, launch: launch)] ?? false
    }

    /// Whether the finding's launch is selected.
    func takes(_ finding: Finding) -> Bool {
        takes(device: finding.device, launch: finding.launch)
    }
}
