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
        #expect(reader.double("missing") == nil)
    }

    @Test func readsIdsAndTimes() {
        let reader = AttributeReader(#"{"a":"x","n":42,"f":1.5,"t":"2026-11-21T08:00:00.5Z","e":12.25,"bad":"soon","nan":null}"#)
        #expect(reader.identifier("a") == "x")
        #expect(reader.identifier("n") == "42")
        #expect(reader.identifier("f") == nil)
        #expect(reader.time("t") == Timestamp(seconds: 1_795_248_000.5))
        #expect(reader.time("e") == Timestamp(seconds: 12.25))
        #expect(reader.time("bad") == nil)
        #expect(reader.time("nan") == nil)
        #expect(reader.time("missing") == nil)
    }

    @Test func noOrBadAttributesReadAsAbsent() {
        #expect(AttributeReader(nil).string("x") == nil)
        #expect(AttributeReader("not json").int("x") == nil)
    }
}
