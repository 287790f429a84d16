import Foundation
@testable import LifelineKit
import Replay
import Rules
import Testing
import TraceModel
import TraceStore
import TraceSynth

/// `check` over the store makes its compact events on the reading thread, from the columns,
/// with no `Event` in between (``CompactBatch``). It must find exactly what replaying the same
/// rows as `Event`s finds: same findings, same order, same messages.
@Suite struct CompactReplayTests {
    @Test func theStoresCompactEventsFindWhatItsEventsFind() throws {
        let workspace = try Workspace()
        let corpus = try workspace.fieldCorpus(devices: 24, seed: 5)
        let store = try workspace.store()
        _ = Ingestor(store: store).ingest([corpus])

        let report = try Analyzer().check(store: store, options: CheckOptions(), version: "test")
        var compact: [Finding] = []
        try report.findings.forEach { compact.append($0) }

        let replayer = Replayer(book: RuleCatalog.standard)
        let cuts = try cutShortLaunches(in: store)
        #expect(!cuts.isEmpty, "the corpus has a file cut short")
        for cut in cuts { replayer.logWasCutShort(device: cut.device, launch: cut.launch) }
        var viaEvents: [Finding] = []
        let events = try store.forEachEvent { event in
            replayer.receive(event) { viaEvents.append($0) }
        } deviceEnded: { device in
            replayer.finish(device: device) { viaEvents.append($0) }
        }
        #expect(report.events == events)
        #expect(compact.count > 50)
        #expect(Set(compact.map(\.rule)).count > 10)
        #expect(compact == viaEvents)
        // The attributes the v1.1 resource, URL session and never-ran rules read come through the
        // columns too (readings, a submit's earliest begin date and requirements, fetch intervals).
        let v11: Set = [
            "shared-resource-held-at-suspension", "listener-open-at-suspension",
            "urlsession-delayed-request-completion-missing", "urlsession-delayed-request-completion-multiple",
            "urlsession-byte-counts-missing", "urlsession-background-enqueue-discretionary",
            "bgtask-never-ran", "fetch-never-ran",
        ]
        #expect(v11.subtracting(compact.map(\.rule)).isEmpty, "\(v11.subtracting(compact.map(\.rule)))")
        #expect(compact.contains { !$0.factors.isEmpty })
    }
}
