import Replay
import Testing

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
