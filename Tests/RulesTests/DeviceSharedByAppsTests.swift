import Replay
import Rules
import Testing
import TraceModel

/// `device-shared-by-apps` names both apps, and when one bundle id extends the other (an
/// extension logged without `process`) says how to log it instead.
@Suite struct DeviceSharedByAppsTests {
    private static func message(first: String, second: String) throws -> String? {
        let findings = try LifecycleReplay.findings("""
            {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"user","app":"\(first)"}
            {"launch":"L2","ts":60,"seq":0,"event":"launch","reason":"user","app":"\(second)"}
            """)
        return findings.first { $0.rule == "device-shared-by-apps" }?.message
    }

    @Test func twoAppsAreNamedWithTheFix() throws {
        let message = try #require(try Self.message(first: "com.example.news", second: "com.example.weather"))
        #expect(message.hasPrefix("Device D logs launches of two apps: com.example.news (launch L1) and com.example.weather (this launch)."))
        #expect(message.hasSuffix("add the bundle id to it)."))
    }

    @Test func aBundleIdThatExtendsTheOtherSuggestsAnExtension() throws {
        for (first, second) in [("com.example.news", "com.example.news.nse"), ("com.example.news.nse", "com.example.news")] {
            let message = try #require(try Self.message(first: first, second: second))
            #expect(message.hasSuffix(
                "If com.example.news.nse is an extension of com.example.news, log `process` as extension:NAME on its launch's first line instead."))
        }
        let unrelated = try #require(try Self.message(first: "com.example.news", second: "com.example.newsroom"))
        #expect(!unrelated.contains("extension"))
    }
}

/// A push just inside the rate limit's hour is told with the decimals that set it apart from 3600 s.
@Suite struct PushRateMessageTests {
    @Test func aSpanJustUnderAnHourIsNotWrittenAsAnHour() throws {
        let push = { (ts: String, seq: Int) in
            #"{"ts":\#(ts),"seq":\#(seq),"event":"push.receive","call":\#(seq),"content_available":true,"priority":5,"push_type":"background"}"#
        }
        let findings = try workFindings("""
            {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"system","cause":"push"}
            \(push("1", 1))
            \(push("2", 2))
            \(push("3", 3))
            \(push("3600.999", 4))
            """)
        let finding = try #require(findings.first { $0.rule == "push-rate-limited" })
        #expect(finding.message.contains("within 3599.999 s;"), "\(finding.message)")
    }
}
