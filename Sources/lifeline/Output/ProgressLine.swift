import Foundation
import LifelineKit

/// A single self-rewriting status line on standard error, redrawn at most a few times a
/// second; silent when standard error is not a terminal, so logs and pipes stay clean.
final class ProgressLine: @unchecked Sendable {
    /// What the line reports on: the first line of a new phase is drawn at once.
    enum Phase {
        /// Reading the input (and replaying as it comes).
        case main
        /// Replaying the devices `check --stdin` kept on disk, once the stream has ended.
        case spilledDevices
    }

    private let enabled: Bool
    private let lock = NSLock()
    private var lastDraw = Date.distantPast
    private var lastPhase = Phase.main
    private var drawn = false

    init(enabled: Bool) {
        self.enabled = enabled
    }

    func show(ingest progress: IngestProgress) {
        let eventsRate = Int(progress.eventsPerSecond / 1000)
        let name = progress.currentPath.map { ($0 as NSString).lastPathComponent } ?? ""
        draw(
            "files \(progress.filesDone)/\(progress.filesTotal)  \(progress.eventsStored) events"
                + "  \(String(format: "%.1f", progress.megabytesPerSecond)) MB/s  \(eventsRate)k events/s  \(name)")
    }

    func show(replay progress: Analyzer.ReplayProgress) {
        let rate = progress.elapsedSeconds > 0 ? Int(Double(progress.events) / progress.elapsedSeconds / 1000) : 0
        draw("replaying: \(progress.devices) devices  \(progress.events) events  \(rate)k events/s  \(progress.findings) findings")
    }

    func show(stream progress: Analyzer.StreamProgress) {
        if let replayed = progress.spilledReplayed {
            draw(
                "replaying the devices kept on disk: \(replayed)/\(progress.spilled) events  \(progress.findings) findings",
                phase: .spilledDevices)
        } else {
            let kept = progress.spilled > 0 ? "  \(progress.spilled) kept on disk" : ""
            draw("reading: \(progress.lines) lines  \(progress.events) events replayed\(kept)  \(progress.findings) findings")
        }
    }

    /// Draws `text` over the line before, at most five times a second — but at once when the
    /// work moves on to another `phase`, so that the first line of each shows.
    func draw(_ text: String, phase: Phase = .main) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard now.timeIntervalSince(lastDraw) >= 0.2 || phase != lastPhase else { return }
        lastDraw = now
        lastPhase = phase
        drawn = true
        FileHandle.standardError.write(Data(("\r\u{1B}[2K" + String(text.prefix(120))).utf8))
    }

    func clear() {
        lock.lock()
        defer { lock.unlock() }
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
        drawn = false
    }
}
