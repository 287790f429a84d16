/// The Notification Service Extension: its own process, with no UIKit life cycle, that
/// decorates alert notifications before they are shown.
extension DaySimulator {
    /// A day of a device whose app stays closed: only its extension runs, every hour or two.
    mutating func runExtensionOnly() {
        while true {
            now += Int64(rng.exponential(mean: 5_400_000)) + 60_000
            guard now < dayEnd - 900_000 else { return }
            notificationService()
        }
    }

    /// One extension process handling one to three notifications in quick succession.
    mutating func notificationService() {
        var process = newProcess(isExtension: true)
        emit("launch", of: &process) { line in
            line.field("reason", "system")
            line.field("cause", "nse")
        }
        let deliveries = rng.chance(0.75) ? 1 : Int(rng.int(2...3))
        for index in 0..<deliveries {
            let breach = drawBreach([.nseOverrun, .nseContentHandlerMissing])
            let call = process.newCall()
            emit("nse.receive", of: &process, after: index == 0 ? rng.int(20...300) : rng.millis(5, 50)) {
                $0.field("call", call)
            }
            if let breach { record(breach, launch: process.launch) }
            switch breach {
            case .nseContentHandlerMissing:
                emit("nse.timeWillExpire", of: &process, after: rng.millis(29.5, 29.9)) { $0.field("call", call) }
                emit("terminate", of: &process, after: rng.millis(0.5, 2)) { $0.field("reason", "watchdog") }
                return
            case .nseOverrun:
                emit("nse.contentHandler", of: &process, after: rng.millis(31, 34)) { $0.field("call", call) }
            default:
                emit("nse.contentHandler", of: &process, after: rng.millis(0.1, rng.chance(0.9) ? 2 : 12)) {
                    $0.field("call", call)
                }
            }
        }
    }
}
