import Foundation
import LifelineKit

/// `LIFELINE_REPLAY_THREADS`: how many threads `check` replays devices on, for a machine where the
/// default (one below four cores, one per two cores from four; see the README) is not the right
/// share, or to try the replay threads anywhere. Unset: the default.
enum ReplayThreadsSetting {
    static let name = "LIFELINE_REPLAY_THREADS"
    static let range = 1 ... 64

    /// The setting from `environment`: nil when unset, a usage error when it is not a whole number
    /// in ``range``.
    static func parse(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Int? {
        guard let text = environment[name] else { return nil }
        guard let threads = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(threads) else {
            throw CommandFailure.usage(
                "\(name)=\(ShownValue.shown(text)) is not a number of threads from \(range.lowerBound) to \(range.upperBound); unset it for the default")
        }
        return threads
    }
}
