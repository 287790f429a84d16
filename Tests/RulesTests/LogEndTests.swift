import Replay
import Rules
import Testing
import TraceDecode
import TraceModel

@Suite struct LogEndTests {
    /// The quick start's false alarm: a file cut right after `urlsession.handleEvents` gave an
    /// error-level urlsession-completion-missing listing the handleEvents twice, measured 0.0.
    @Test func aLogEndingAfterHandleEventsIsOpenWorkNotAMissedCompletion() throws {
        let events = try ExampleTrace(Example("""
            {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"system","cause":"urlsession"}
            {"ts":0.05,"seq":1,"event":"urlsession.create","identifier":"com.example.download"}
            {"ts":0.1,"seq":2,"event":"didEnterBackground","phase":"begin"}
            {"ts":0.2,"seq":3,"event":"didEnterBackground","phase":"end"}
            {"ts":1,"seq":4,"event":"urlsession.handleEvents","identifier":"com.example.download","call":1}
            """)).events
        let whole = Replayer.findings(in: events, book: RuleCatalog.standard)
        #expect(whole.map(\.rule) == ["log-ended-with-open-work"])
        let finding = try #require(whole.first)
        #expect(finding.category == .data)
        #expect(finding.ts == Timestamp(seconds: 1))
        #expect(finding.events.count == 1)  // the handleEvents, once
        #expect(finding.message.contains("urlsession.handleEvents (call 1)"))
        #expect(finding.message.contains("the device logged nothing more"))
        #expect(!finding.message.contains("cut short"))

        let cut = Replayer.findings(in: events, book: RuleCatalog.standard, cutShort: ["D"])
        #expect(cut.map(\.rule) == ["log-ended-with-open-work"])
        #expect(cut.first?.message.contains("the file holding its last event was cut short") == true)
    }

    /// One finding per launch naming every open item, and only the launch the caller said was cut.
    @Test func oneFindingPerLaunchNamingEachOpenItem() throws {
        let events = try ExampleTrace(Example("""
            {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"user"}
            {"ts":0.3,"seq":1,"event":"didBecomeActive"}
            {"ts":5,"seq":2,"event":"beginBackgroundTask","task":1,"name":"upload"}
            {"ts":6,"seq":3,"event":"beginBackgroundTask","task":2,"name":"sync"}
            {"launch":"L2","ts":100,"seq":0,"event":"launch","reason":"user"}
            {"launch":"L2","ts":100.3,"seq":1,"event":"didBecomeActive"}
            {"launch":"L2","ts":101,"seq":2,"event":"beginBackgroundTask","task":1}
            """)).events
        let replayer = Replayer(book: RuleCatalog.standard)
        replayer.logWasCutShort(device: "D", launch: "L1")
        var findings: [Finding] = []
        for event in events { replayer.receive(event) { findings.append($0) } }
        replayer.finishAll { findings.append($0) }
        #expect(findings.map(\.rule) == ["log-ended-with-open-work", "log-ended-with-open-work"])
        let first = try #require(findings.first)
        #expect(first.launch == "L1" && first.ts == Timestamp(seconds: 6))
        #expect(first.message.contains("beginBackgroundTask (task 1)") && first.message.contains("beginBackgroundTask (task 2)"))
        #expect(first.message.contains("a new launch began"))
        #expect(first.message.contains("cut short"))
        #expect(findings.last?.message.contains("cut short") == false)
    }

    /// Each rule's failing example, as `lifeline rules RULE` prints it, read the way `check
    /// --stdin` reads: decoded line by line, put in `seq` order, replayed; the rule is found.
    @Test(arguments: RuleCatalog.rules)
    func theFailingExamplePipedLikeStdinTriggersTheRule(_ rule: Rule) throws {
        let example = try #require(rule.failing.first)
        var decoder = EventDecoder()
        var orderer = SequenceOrderer()
        let replayer = Replayer(book: RuleCatalog.standard)
        var findings: [Finding] = []
        for line in example.lines {
            #expect(line.json.contains("\"device\":") && line.json.contains("\"launch\":") && line.json.contains("\"ts\":\""))
            var bytes = Array(line.json.utf8)
            let result = bytes.withUnsafeMutableBytes { decoder.decode(UnsafeRawBufferPointer($0)) }
            guard case .event(let event) = result else {
                Issue.record("\(rule.id): \(line.json) → \(result)")
                continue
            }
            orderer.push(event) { replayer.receive($0) { findings.append($0) } }
        }
        orderer.flush { replayer.receive($0) { findings.append($0) } }
        replayer.finishAll { findings.append($0) }
        #expect(findings.contains { $0.rule == rule.id }, "\(rule.id): \(findings.map(\.rule))")
    }

    /// A `mono` that jumps by 1e16 s between two events of a launch is a legal (if absurd) input:
    /// the findings it causes are measured and worded, not a trap.
    @Test func aMonoJumpOf1e16IsMeasured() throws {
        let events = try ExampleTrace(Example("""
            {"launch":"L1","ts":0,"mono":10,"seq":0,"event":"launch","reason":"user"}
            {"ts":0.3,"mono":10.3,"seq":1,"event":"didBecomeActive"}
            {"ts":60,"mono":70,"seq":2,"event":"willResignActive"}
            {"ts":60.1,"mono":70.1,"seq":3,"event":"didEnterBackground","phase":"begin"}
            {"ts":60.2,"mono":1e16,"seq":4,"event":"didEnterBackground","phase":"end"}
            {"ts":61,"mono":-1e308,"seq":5,"event":"terminate","reason":"watchdog"}
            """)).events
        let findings = Replayer.findings(in: events, book: RuleCatalog.standard)
        let overrun = try #require(findings.first { $0.rule == "did-enter-background-overrun" })
        #expect(overrun.measured == 1e16 - 70.1)
        #expect(overrun.message.contains("1.0e16 s"))
    }
}
