@testable import Replay
import Rules
import Testing
import TraceModel

/// A launch-scoped check that an ended launch leaves for the next one
/// (``Check/clearForNextLaunch()``) must be as a fresh one: a field the clearing forgets would
/// carry one launch's state into the next and change its findings.
@Suite struct CheckReuseTests {
    /// Every example of every rule is replayed; each check left as a spare is compared, field by
    /// field, with a check its blueprint makes fresh.
    @Test func aClearedCheckIsAsAFreshOne() throws {
        let book = RuleCatalog.standard
        let budgets = Budgets()
        var compared: Set<Int> = []
        for rule in RuleCatalog.rules {
            for example in rule.passing + rule.failing {
                let events = try ExampleTrace(example).events
                for device in Set(events.map(\.device)) {
                    let replayer = DeviceReplayer(device: device, book: book, configuration: ReplayConfiguration())
                    for event in events where event.device == device { replayer.receive(event) { _ in } }
                    replayer.finish { _ in }
                    for (index, spare) in replayer.spareChecks {
                        let fresh = book.blueprints[index].make(budgets)
                        #expect(Self.fields(of: spare) == Self.fields(of: fresh), "\(type(of: spare)) after \(rule.id):\n\(example.trace)")
                        compared.insert(index)
                    }
                }
            }
        }
        // Each blueprint whose checks can be reused was compared at least once.
        let reusable = book.blueprints.indices.filter { index in
            let blueprint = book.blueprints[index]
            return blueprint.scope == .launch && !blueprint.outlivesLaunch && blueprint.make(budgets).clearForNextLaunch()
        }
        #expect(!reusable.isEmpty)
        #expect(Set(reusable) == compared)
    }

    /// A check's stored properties, as text.
    static func fields(of check: Check) -> [String] {
        Mirror(reflecting: check).children.map { "\($0.label ?? "?") = \(String(reflecting: $0.value))" }
    }
}
