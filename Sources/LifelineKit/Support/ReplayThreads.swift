/// How many threads `check` and `check --stdin` replay devices on unless told
/// (``ParallelReplay``, ``DeviceReplayPool``; the CLI's `LIFELINE_REPLAY_THREADS`).
enum ReplayThreads {
    /// Threads beyond a handful would wait on the calling thread, which hands out and merges.
    static let max = 8

    /// One replay on the calling thread below four cores (see ``AvailableCores``), else one per
    /// two cores, up to ``max``: the other cores decode (``ParallelDecoder``; a third of a
    /// stream's work) or read the store, and hand over. On two cores, two replay threads ran no
    /// faster than the calling thread alone and took more CPU, as the cores were already full:
    /// `check --stdin`, 2M events, alternating runs, 4.8–5.9 s against 4.6–5.6 s; `check` of the
    /// tidy bench store 2.88–2.94 s against 2.54–2.67 s, of the field one 3.73–3.86 s against
    /// 3.58–3.98 s.
    static var byDefault: Int {
        let cores = AvailableCores.count
        return cores < 4 ? 1 : min(cores / 2, max)
    }
}
