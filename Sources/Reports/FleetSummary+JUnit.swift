extension FleetSummary {
    /// JUnit XML for CI dashboards: one test case per rule of the catalogue (`rules`: each id and
    /// category), named `lifeline.<category>` / `<id>` whether it passes or fails, so that a
    /// dashboard keeps one history per rule; each of the rule's examples a failure, then one that
    /// counts the rest. A rule with no finding passes.
    public func junit(rules catalogue: [(id: String, category: String)]) -> String {
        let byRule = Dictionary(uniqueKeysWithValues: rules.map { ($0.rule, $0) })
        let failing = catalogue.filter { byRule[$0.id] != nil }.count
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#,
                     "<testsuites name=\"lifeline\" tests=\"\(catalogue.count)\" failures=\"\(failing)\">",
                     "  <testsuite name=\"lifeline\" tests=\"\(catalogue.count)\" failures=\"\(failing)\">"]
        for (id, category) in catalogue {
            let testCase = "    <testcase classname=\(Self.attribute("lifeline." + category)) name=\(Self.attribute(id))"
            guard let rule = byRule[id] else {
                lines.append(testCase + "/>")
                continue
            }
            lines.append(testCase + ">")
            for sample in rule.samples {
                lines.append("      <failure type=\(Self.attribute(rule.severity)) message=\(Self.attribute(sample.message))>"
                    + Self.text("\(sample.ts) device \(sample.device) launch \(sample.launch)") + "</failure>")
            }
            if rule.findings > rule.samples.count {
                let rest = rule.findings - rule.samples.count
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
