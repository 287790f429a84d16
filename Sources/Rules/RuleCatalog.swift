import Replay

/// Every rule Lifeline checks, in the order their checks run: the lifecycle check first (the
/// others read the state it keeps), the open-work check after every check that tracks work (they
/// hand it what was open when a log ended), the termination check last (it explains a
/// termination by the findings the terminate itself caused).
public enum RuleCatalog {
    public static let standard = RuleBook(
        LifecycleRules.blueprints + WorkRules.blueprints
            + [SharedResourceCheck.blueprint, SimulatedLaunchCheck.blueprint, DeviceSharedByAppsCheck.blueprint,
               OpenWorkCheck.blueprint, TerminationRules.blueprint])

    /// Every rule, in catalog order.
    public static var rules: [Rule] { standard.rules }

    /// The rule with this id, if there is one.
    public static func rule(id: String) -> Rule? { rules.first { $0.id == id } }
}
