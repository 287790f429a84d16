extension FleetSummary {
    /// JUnit XML for CI dashboards: one test case per rule of the catalogue, each finding of it a
    /// failure (the first `cap`, then one that counts the rest), so a rule with no finding passes.
    public func junit(ruleIDs: [String], cap: Int = 20) -> String {
        let byRule = Dictionary(uniqueKeysWithValues: rules.map { ($0.rule, $0) })
        let failing = ruleIDs.filter { byRule[$0] != nil }.count
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#,
                     "<testsuites name=\"lifeline\" tests=\"\(ruleIDs.count)\" failures=\"\(failing)\">",
                     "  <testsuite name=\"lifeline\" tests=\"\(ruleIDs.count)\" failures=\"\(failing)\">"]
        for id in ruleIDs {
            guard let rule = byRule[id] else {
                lines.append("    <testcase classname=\"lifeline\" name=\(Self.attribute(id))/>")
                continue
            }
            lines.append("    <testcase classname=\"lifeline.\(rule.category)\" name=\(Self.attribute(id))>")
            for sample in rule.samples.prefix(cap) {
                lines.append("      <failure type=\(Self.attribute(rule.severity)) message=\(Self.attribute(sample.message))>"
                    + Self.text("\(sample.ts) device \(sample.device) launch \(sample.launch)") + "</failure>")
            }
            if rule.findings > min(cap, rule.samples.count) {
                let rest = rule.findings - min(cap, rule.samples.count)
                lines.append("      <failure type=\(Self.attribute(rule.severity)) message=\(Self.attribute("… and \(rest.counted("more finding"))"))/>")
            }
            lines.append("    </testcase>")
        }
        lines += ["  </testsuite>", "</testsuites>"]
        return lines.joined(separator: "\n") + "\n"
    }

    private static func attribute(_ value: String) -> String { "\"" + text(value).replacingOccurrences(of: "\"", with: "&quot;") + "\"" }

    /// XML text: markup escaped, and the control characters XML 1.0 cannot hold dropped.
    private static func text(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\n", "\t", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20: continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
