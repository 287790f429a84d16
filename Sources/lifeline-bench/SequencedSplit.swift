import Foundation
import TraceDecode
import TraceRead

/// The files of a corpus parted by whether their device logs `seq`: the field-like corpus drops
/// it per device, so each file is wholly one or the other, and ingesting each part alone shows
/// what an event identified by content costs against one identified by `seq`.
struct SequencedSplit {
    var sequenced: [String] = []
    var unsequenced: [String] = []

    /// Classifies each file by its first event (a file with no event goes with the sequenced).
    init(files: [String]) throws {
        var decoder = EventDecoder()
        for file in files {
            var hasSeq = true
            try LineReader(path: file).forEachLine { line in
                guard case .event(let event) = decoder.decode(line.bytes) else { return true }
                hasSeq = event.seq != nil
                return false
            }
            if hasSeq { sequenced.append(file) } else { unsequenced.append(file) }
        }
    }
}
