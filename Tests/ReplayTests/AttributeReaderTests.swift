import Replay
import Testing
import TraceModel

@Suite struct AttributeReaderTests {
    @Test func readsTheTypesRulesNeed() {
        let reader = AttributeReader(#"{"priority":5,"content_available":true,"push_type":"background","ids":["a","b"],"value":29.5}"#)
        #expect(reader.int("priority") == 5)
        #expect(reader.bool("content_available") == true)
        #expect(reader.bool("priority") == nil)
        #expect(reader.int("content_available") == nil)
        #expect(reader.string("push_type") == "background")
        #expect(reader.strings("ids") == ["a", "b"])
        #expect(reader.double("value") == 29.5)
        #expect(reader.contains("value"))
        #expect(!reader.contains("missing"))
    }

    @Test func noOrBadAttributesReadAsAbsent() {
        #expect(AttributeReader(nil).string("x") == nil)
        #expect(AttributeReader("not json").int("x") == nil)
    }
}

@Suite struct AttributeReaderTimeTests {
    @Test func aTimeIsRFC3339TextOrEpochSeconds() {
        let reader = AttributeReader(
            #"{"a":"2025-11-21T08:00:00.5Z","b":1763712000.5,"c":"soon","d":true,"e":1e999,"f":"2025-11-21T09:00:00+01:00"}"#)
        #expect(reader.time("a") == Timestamp(microseconds: 1_763_712_000_500_000))
        #expect(reader.time("b") == Timestamp(microseconds: 1_763_712_000_500_000))
        #expect(reader.time("f") == Timestamp(microseconds: 1_763_712_000_000_000))
        #expect(reader.time("c") == nil)
        #expect(reader.time("d") == nil)
        #expect(reader.time("e") == nil)
        #expect(reader.time("missing") == nil)
    }
}
