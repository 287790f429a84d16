import Foundation
import Replay

extension FleetSummary {
    /// One self-contained HTML page a manager can forward: no network, no scripts, no fonts or
    /// images from elsewhere — its charts are inline SVG drawn here. It holds the totals and the
    /// change since the run before, findings per rule per day, the duration histograms with
    /// their budgets, how processes ended with the share a finding explains, where the findings
    /// concentrate, and each rule with its documentation, examples and what to do.
    public func html() -> String {
        var body: [String] = []
        body.append("<h1>Lifeline report</h1>")
        body.append("<p class=\"headline\">\(Self.escape(headline))</p>")
        body.append("<div class=\"tiles\">" + ["error", "warning", "info"].map { severity in
            "<div class=\"tile \(severity)\"><b>\(findingsBySeverity[severity] ?? 0)</b>\(severity)</div>"
        }.joined() + "<div class=\"tile\"><b>\(events)</b>events</div></div>")
        body.append("<h2>Findings per day</h2>")
        body.append(perDay.isEmpty ? "<p>No findings in this window.</p>" : perDayChart())
        for histogram in durations {
            body.append("<h2>How long \(Self.escape(histogram.name)) takes</h2>")
            body.append(histogramChart(histogram))
        }
        if !terminations.isEmpty {
            body.append("<h2>How processes ended</h2>")
            body.append(terminationChart())
        }
        body.append("<h2>Where the findings are</h2><div class=\"columns\">")
        for (title, counts) in [("Devices", topDevices), ("App versions", topVersions), ("OS releases", topOSReleases)] {
            body.append("<table><tr><th>\(title)</th><th>findings</th></tr>"
                + counts.map { "<tr><td>\(Self.escape($0.name))</td><td class=\"n\">\($0.count)</td></tr>" }.joined() + "</table>")
        }
        body.append("</div>")
        if !rules.isEmpty { body.append("<h2>Rules broken</h2>") }
        for rule in rules {
            body.append("<section class=\"rule\"><h3><code>\(Self.escape(rule.rule))</code> <span class=\"badge \(rule.severity)\">\(rule.severity)</span> "
                + "\(rule.findings.counted("finding")) on \(rule.devices.counted("device"))</h3>")
            body.append("<p><b>How to fix:</b> \(Self.escape(rule.summary))</p>")
            body.append("<blockquote>\(Self.escape(rule.source))</blockquote><ul>")
            body += rule.samples.map { "<li><code>\(Self.escape($0.ts))</code> device <code>\(Self.escape($0.device))</code>: \(Self.escape($0.message))</li>" }
            if rule.findings > rule.samples.count { body.append("<li>… \(rule.findings - rule.samples.count) more</li>") }
            body.append("</ul></section>")
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Lifeline report</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <style>\(Self.style)</style></head>
            <body>
            \(body.joined(separator: "\n"))
            </body></html>

            """
    }

    // MARK: charts

    /// Stacked bars: one per day, one colour per rule, with a legend.
    private func perDayChart() -> String {
        let days = Array(Set(perDay.map(\.name))).sorted()
        let ruleNames = Array(Set(perDay.compactMap(\.detail))).sorted()
        let totals = days.map { day in perDay.filter { $0.name == day }.reduce(0) { $0 + $1.count } }
        let maximum = max(totals.max() ?? 1, 1)
        let barWidth = 36, gap = 18, height = 180, left = 40
        let width = left + days.count * (barWidth + gap) + gap
        var shapes: [String] = []
        for (index, day) in days.enumerated() {
            let x = left + gap + index * (barWidth + gap)
            var y = Double(height)
            for (ruleIndex, rule) in ruleNames.enumerated() {
                let count = perDay.first { $0.name == day && $0.detail == rule }?.count ?? 0
                guard count > 0 else { continue }
                let barHeight = Double(count) / Double(maximum) * Double(height - 20)
                y -= barHeight
                shapes.append("<rect x=\"\(x)\" y=\(Self.number(y)) width=\"\(barWidth)\" height=\(Self.number(barHeight)) fill=\"\(Self.color(ruleIndex))\"><title>\(Self.escape("\(day) \(rule): \(count)"))</title></rect>")
            }
            shapes.append("<text x=\"\(x + barWidth / 2)\" y=\"\(height + 14)\" text-anchor=\"middle\">\(Self.escape(String(day.dropFirst(5))))</text>")
            shapes.append("<text x=\"\(x + barWidth / 2)\" y=\(Self.number(y - 4)) text-anchor=\"middle\">\(totals[index])</text>")
        }
        let legend = ruleNames.enumerated().map { index, rule in
            "<span><i style=\"background:\(Self.color(index))\"></i>\(Self.escape(rule))</span>"
        }.joined()
        return "<svg class=\"chart\" width=\"\(width)\" height=\"\(height + 20)\" role=\"img\" aria-label=\"findings per day\">"
            + "<line x1=\"\(left)\" y1=\"\(height)\" x2=\"\(width)\" y2=\"\(height)\" class=\"axis\"/>" + shapes.joined()
            + "</svg><div class=\"legend\">\(legend)</div>"
    }

    /// Bars per duration bin, the budget drawn as a red line at its bin's edge.
    private func histogramChart(_ histogram: Histogram) -> String {
        let maximum = max(histogram.bins.map(\.count).max() ?? 1, 1)
        let barWidth = 40, gap = 6, height = 160, left = 10
        let width = left + histogram.bins.count * (barWidth + gap)
        var shapes: [String] = []
        var budgetX: Int?
        for (index, bin) in histogram.bins.enumerated() {
            let x = left + index * (barWidth + gap)
            let barHeight = Double(bin.count) / Double(maximum) * Double(height - 20)
            let over = histogram.budgetSeconds.map { budget in (Double(bin.name) ?? .infinity) > budget } ?? false
            shapes.append("<rect x=\"\(x)\" y=\(Self.number(Double(height) - barHeight)) width=\"\(barWidth)\" height=\(Self.number(barHeight)) class=\"\(over ? "over" : "within")\"><title>≤ \(Self.escape(bin.name)) s: \(bin.count)</title></rect>")
            shapes.append("<text x=\"\(x + barWidth / 2)\" y=\"\(height + 14)\" text-anchor=\"middle\">\(Self.escape(bin.name))</text>")
            if bin.count > 0 { shapes.append("<text x=\"\(x + barWidth / 2)\" y=\(Self.number(Double(height) - barHeight - 4)) text-anchor=\"middle\">\(bin.count)</text>") }
            if let budget = histogram.budgetSeconds, Double(bin.name) == budget { budgetX = x + barWidth + gap / 2 }
        }
        if let budgetX, let budget = histogram.budgetSeconds {
            shapes.append("<line x1=\"\(budgetX)\" y1=\"0\" x2=\"\(budgetX)\" y2=\"\(height)\" class=\"budget\"/>"
                + "<text x=\"\(budgetX + 4)\" y=\"12\" class=\"budget-label\">budget \(SecondsText.seconds(budget, trimmed: true))</text>")
        }
        return "<svg class=\"chart\" width=\"\(width)\" height=\"\(height + 20)\" role=\"img\" aria-label=\"\(Self.escape(histogram.name)) durations\">"
            + "<line x1=\"\(left)\" y1=\"\(height)\" x2=\"\(width)\" y2=\"\(height)\" class=\"axis\"/>" + shapes.joined()
            + "</svg><p class=\"note\">Seconds (upper bound of each bin); red bars are over the budget.</p>"
    }

    /// Horizontal bars per termination reason, the part a finding explains darker.
    private func terminationChart() -> String {
        let maximum = max(terminations.map(\.count).max() ?? 1, 1)
        let rowHeight = 22, labelWidth = 150, barSpace = 360
        var shapes: [String] = []
        for (index, termination) in terminations.enumerated() {
            let y = index * rowHeight
            let explained = Int(termination.detail ?? "") ?? 0
            let width = Double(termination.count) / Double(maximum) * Double(barSpace)
            let explainedWidth = Double(explained) / Double(maximum) * Double(barSpace)
            shapes.append("<text x=\"\(labelWidth - 6)\" y=\"\(y + 15)\" text-anchor=\"end\">\(Self.escape(termination.name))</text>")
            shapes.append("<rect x=\"\(labelWidth)\" y=\"\(y + 3)\" width=\(Self.number(width)) height=\"16\" class=\"kills\"><title>\(termination.count) terminations</title></rect>")
            shapes.append("<rect x=\"\(labelWidth)\" y=\"\(y + 3)\" width=\(Self.number(explainedWidth)) height=\"16\" class=\"explained\"><title>\(explained) explained by a finding</title></rect>")
            shapes.append("<text x=\(Self.number(Double(labelWidth) + width + 6)) y=\"\(y + 15)\">\(termination.count)\(explained > 0 ? " (\(explained) explained)" : "")</text>")
        }
        return "<svg class=\"chart\" width=\"\(labelWidth + barSpace + 140)\" height=\"\(terminations.count * rowHeight + 4)\" role=\"img\" aria-label=\"terminations by reason\">"
            + shapes.joined() + "</svg><p class=\"note\">Darker: the part a <code>termination-explained</code> finding accounts for.</p>"
    }

    // MARK: helpers

    private static func number(_ value: Double) -> String { "\"" + SecondsText.number(value, decimals: 1) + "\"" }

    private static func color(_ index: Int) -> String {
        ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"][index % 10]
    }

    /// Text in HTML: each line printable (a NUL or an escape from a log is written as `\u{0}`, as in
    /// every report for people: the page would hide it or carry it raw), then escaped.
    static func escape(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { PrintableText.escaped(String($0)) }
            .joined(separator: "\n")
            .replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    private static let style = """
        body{font:14px/1.45 -apple-system,system-ui,sans-serif;margin:2em auto;max-width:1000px;color:#222;padding:0 1em}
        h1{margin-bottom:.2em}.headline{font-size:16px}.note{color:#666;font-size:12px}
        .tiles{display:flex;gap:12px;margin:1em 0}.tile{border:1px solid #ddd;border-radius:8px;padding:8px 16px;min-width:90px}
        .tile b{display:block;font-size:24px}.tile.error b{color:#c0392b}.tile.warning b{color:#d68910}.tile.info b{color:#2e86c1}
        svg.chart{display:block;margin:.5em 0;font-size:11px}svg .axis{stroke:#999}svg .within{fill:#4e79a7}svg .over{fill:#e15759}
        svg .budget{stroke:#c0392b;stroke-width:2;stroke-dasharray:4 3}svg .budget-label{fill:#c0392b}
        svg .kills{fill:#c9d6e8}svg .explained{fill:#4e79a7}
        .legend span{margin-right:12px;white-space:nowrap}.legend i{display:inline-block;width:10px;height:10px;margin-right:4px}
        .columns{display:flex;gap:24px;flex-wrap:wrap}table{border-collapse:collapse}td,th{padding:2px 8px;border-bottom:1px solid #eee;text-align:left}
        td.n{text-align:right}code{font-size:12px}.rule{border-top:1px solid #eee;margin-top:1em}
        .badge{font-size:11px;border-radius:4px;padding:1px 6px;color:#fff;background:#888}.badge.error{background:#c0392b}
        .badge.warning{background:#d68910}.badge.info{background:#2e86c1}blockquote{color:#555;border-left:3px solid #ddd;margin:0;padding-left:10px;overflow-wrap:anywhere}
        """
}
