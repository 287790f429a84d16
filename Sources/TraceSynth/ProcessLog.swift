/// One process lifetime as the logger sees it: its `launch` id, the envelope bytes every line of
/// it repeats, and the counters that number its lines, tasks and completion-handler calls.
struct ProcessLog {
    let launch: String
    /// `","device":"…","launch":"…","seq":` — what follows `ts` on every line.
    let identityFields: [UInt8]
    /// `,"app":…,"app_version":…,"os":…,"model":…}` and `process` for an extension.
    let envelopeTail: [UInt8]
    var seq = 0
    private var lastTask: Int64 = 0
    private var lastCall: Int64 = 0

    init(device: String, launch: String, envelope: String, isExtension: Bool) {
        self.launch = launch
        identityFields = Array("\",\"device\":\"\(device)\",\"launch\":\"\(launch)\",\"seq\":".utf8)
        envelopeTail = Array((envelope + (isExtension ? ",\"process\":\"extension:nse\"}" : "}")).utf8)
    }

    /// The next task id, for a `bgtask.launch` run or a `beginBackgroundTask`: one counter keeps
    /// every task of a launch distinct, whichever API it came from.
    mutating func newTask() -> Int64 {
        lastTask += 1
        return lastTask
    }

    /// The next id of a completion-handler delivery (`push.receive`, `nse.receive`, …).
    mutating func newCall() -> Int64 {
        lastCall += 1
        return lastCall
    }
}
