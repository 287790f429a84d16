import TraceModel

/// The checks a replay runs, with the dispatch table that sends each event kind only to the
/// checks that asked for it (a replay must do millions of events a second).
public struct RuleBook: Sendable {
    public let blueprints: [CheckBlueprint]
    /// Every rule the blueprints report, in blueprint order, each once (two blueprints may
    /// report one rule: an app's `didEnterBackground` and a scene's share their budget rule).
    public var rules: [Rule] {
        var seen = Set<String>()
        return blueprints.flatMap(\.rules).filter { seen.insert($0.id).inserted }
    }

    /// Which checks run, per process kind: app processes run every check; extension processes
    /// (no UIKit life cycle) only the blueprints that say ``CheckBlueprint/runsOnExtensions``.
    struct Dispatch: Sendable {
        /// Every launch- and device-scoped blueprint, for the end of a launch.
        let launchBlueprints: [Int]
        let deviceBlueprints: [Int]
    }

    let app: Dispatch
    let appExtension: Dispatch
    /// For each process kind, scope and event kind (by its position in `EventKind.allCases`),
    /// the blueprints to call, in order.
    let table: DispatchTable
    /// For each blueprint, the ids of the rules it declares: a check that reports another rule
    /// is wired wrong (checked in debug builds, see ``ReplayContext/calling(blueprint:of:)``).
    let declaredRuleIDs: [Set<String>]
    /// The launch-scoped blueprints, and of them those whose checks end with their launch (the
    /// others outlive it, ``CheckBlueprint/outlivesLaunch``): read at every launch's start and
    /// end, where going through every blueprint (and copying them out, their arrays and closures
    /// retained and released) cost more than the rest.
    let launchScopedBlueprints: [Int]
    let endingBlueprints: [Int]

    /// Checks run in the order given; the lifecycle check must come first so that the others
    /// see the state after the event, and a termination check last, so that it sees every
    /// finding the terminate itself caused.
    public init(_ blueprints: [CheckBlueprint]) {
        self.blueprints = blueprints
        func dispatch(extensions: Bool) -> Dispatch {
            let runs = blueprints.indices.filter { !extensions || blueprints[$0].runsOnExtensions }
            return Dispatch(
                launchBlueprints: runs.filter { blueprints[$0].scope == .launch },
                deviceBlueprints: runs.filter { blueprints[$0].scope == .device })
        }
        let app = dispatch(extensions: false), appExtension = dispatch(extensions: true)
        self.app = app
        self.appExtension = appExtension
        func hearers(_ indices: [Int]) -> [[Int]] {
            EventKind.allCases.map { kind in
                indices.filter { blueprints[$0].interests?.contains(kind) ?? true }
            }
        }
        table = DispatchTable(DispatchTable.Table.allCases.map { kind in
            switch kind {
            case .appLaunch: hearers(app.launchBlueprints)
            case .appDevice: hearers(app.deviceBlueprints)
            case .extensionLaunch: hearers(appExtension.launchBlueprints)
            case .extensionDevice: hearers(appExtension.deviceBlueprints)
            }
        })
        declaredRuleIDs = blueprints.map { Set($0.rules.map(\.id)) }
        launchScopedBlueprints = blueprints.indices.filter { blueprints[$0].scope == .launch }
        endingBlueprints = launchScopedBlueprints.filter { !blueprints[$0].outlivesLaunch }
    }
}
