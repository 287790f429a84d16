import TraceModel

/// A device on which one request of the app never runs, for the whole corpus (the
/// ``BreachKind/bgtaskNeverRan`` and ``BreachKind/fetchNeverRan`` breaches, v1.1): what keeps it
/// from running is one of the factors rules.md names, and the log shows it.
///
/// Like ``SceneLayout`` it derives from `(seed, device)` alone, from a stream of its own.
struct NeverRunPlan {
    enum Cause: CaseIterable {
        /// Low Power Mode stays on: every `power` reading says so; the refresh never runs.
        case lowPowerMode
        /// Background App Refresh is off (`refreshStatus` `denied`); the refresh never runs.
        case refreshDisabled
        /// After the first visit the user swipes the app away and never opens it again.
        case swipedAway
        /// After the first visit the user never opens the app again.
        case appUnused
        /// The device is never on a charger: the cleanup (a processing request that requires
        /// power) never runs; the refresh runs as usual.
        case noCharger
        /// The app uses legacy background fetch (no permitted identifiers, so no BGTasks): it sets
        /// a minimum interval at every launch and the system never fetches.
        case legacyFetch
    }

    let cause: Cause

    /// The plan of device `device`, or nil for most devices: a device starves with probability
    /// `rate` (the corpus's breach rate).
    init?(seed: UInt64, device: Int, rate: Double) {
        var rng = SplitMix64(seed, 0x57A12E, UInt64(device))
        guard rate > 0, rng.chance(rate) else { return nil }
        cause = rng.pick(Cause.allCases)
    }

    var kind: BreachKind { cause == .legacyFetch ? .fetchNeverRan : .bgtaskNeverRan }

    /// The factors of rules.md the cause writes into the log: what the finding must name.
    var factors: [Finding.FactorKind] {
        switch cause {
        case .lowPowerMode: [.lowPowerMode]
        case .refreshDisabled: [.refreshDisabled]
        case .swipedAway: [.swipedAway, .appUnused]
        case .appUnused: [.appUnused]
        case .noCharger: [.powerRequired]
        // Nothing the log can show: the system fetches at its discretion, and does not.
        case .legacyFetch: []
        }
    }
    /// The app registers and submits BGTask requests (all but a legacy-fetch app).
    var usesBGTasks: Bool { cause != .legacyFetch }
    /// The refresh request runs when due.
    var refreshRuns: Bool { cause == .noCharger }
    /// The app submits the cleanup: only where it is the request that starves, so that a device
    /// has one never-run request and no other.
    var submitsCleanup: Bool { cause == .noCharger }
    /// After the first visit the app is never opened again.
    var retiresApp: Bool { cause == .swipedAway || cause == .appUnused }
}

/// What the days before a day of a starving device decided: when the wait began, and whether
/// the breach was already written.
struct NeverRunHistory {
    /// The start of the wait (the first request's earliest begin, or the first interval set).
    var waitStart: Int64?
    var reported = false
}
