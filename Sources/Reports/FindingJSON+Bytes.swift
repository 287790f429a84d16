extension JSONReport.FindingJSON {
    /// The finding as `JSONEncoder` writes it (sorted keys, absent optionals left out), written
    /// by hand (see ``JSONBytes``); `depth` is its nesting level in a pretty-printed document.
    func text(pretty: Bool, depth: Int = 0) -> String {
        var json = JSONBytes(pretty: pretty, depth: depth)
        write(to: &json)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// The members in `JSONEncoder`'s sorted order.
    func write(to json: inout JSONBytes) {
        json.beginObject()
        if let budget { json.key("budget"); json.string(budget) }
        if let budgetSeconds { json.key("budgetSeconds"); json.number(budgetSeconds) }
        json.key("category"); json.string(category)
        json.key("device"); json.string(device)
        json.key("events"); Self.write(events, to: &json)
        if let explainedBy {
            json.key("explainedBy")
            json.beginObject()
            json.key("rule"); json.string(explainedBy.rule)
            json.key("ts"); json.string(explainedBy.ts)
            json.endObject()
        }
        if let factors {
            json.key("factors")
            json.beginArray()
            for factor in factors {
                json.element()
                json.beginObject()
                json.key("evidence"); Self.write(factor.evidence, to: &json)
                json.key("kind"); json.string(factor.kind)
                json.key("share"); json.number(factor.share)
                json.endObject()
            }
            json.endArray()
        }
        json.key("launch"); json.string(launch)
        if let measured { json.key("measured"); json.number(measured) }
        json.key("message"); json.string(message)
        json.key("rule"); json.string(rule)
        json.key("severity"); json.string(severity)
        json.key("ts"); json.string(ts)
        if let unit { json.key("unit"); json.string(unit) }
        json.endObject()
    }

    private static func write(_ events: [JSONReport.EventJSON], to json: inout JSONBytes) {
        json.beginArray()
        for event in events {
            json.element()
            json.beginObject()
            json.key("event"); json.string(event.event)
            if let id = event.id { json.key("id"); json.integer(id) }
            if let seq = event.seq { json.key("seq"); json.integer(seq) }
            json.key("ts"); json.string(event.ts)
            json.endObject()
        }
        json.endArray()
    }
}
