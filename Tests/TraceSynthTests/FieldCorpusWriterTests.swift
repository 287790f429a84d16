import Foundation
import Testing
import TraceDecode
import TraceSynth

/// The field-like corpus holds the untidiness it promises, in about its proportions, and comes
/// out byte for byte the same for the same spec.
@Suite struct FieldCorpusWriterTests {
    static let spec = CorpusSpec(devices: 60, days: 2, seed: 9)

    @Test func theSameSpecWritesTheSameFiles() throws {
        let first = try makeTemporaryDirectory()
        let second = try makeTemporaryDirectory()
        defer {
            try? FileManager.default.removeItem(atPath: first)
            try? FileManager.default.removeItem(atPath: second)
        }
        let written = try FieldCorpusWriter.write(spec: Self.spec, to: first)
        _ = try FieldCorpusWriter.write(spec: Self.spec, to: second)
        let names = try FileManager.default.contentsOfDirectory(atPath: first).sorted()
        #expect(names.count == written.files && written.files == 120)
        #expect(try FileManager.default.contentsOfDirectory(atPath: second).sorted() == names)
        for name in names {
            #expect(FileManager.default.contentsEqual(atPath: first + "/" + name, andPath: second + "/" + name))
        }
    }

    @Test func itHoldsTheMixItPromises() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let written = try FieldCorpusWriter.write(spec: Self.spec, to: directory)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        let gzip = names.filter { $0.hasSuffix(".jsonl.gz") }.count
        let plain = names.filter { $0.hasSuffix(".jsonl") }.count
        #expect((4...24).contains(gzip) && (4...24).contains(plain), "gzip \(gzip), plain \(plain) of 120")
        #expect(written.cutFiles >= 1)

        var lines = 0
        var rejects = 0
        var devicesWithSeq = Set<String>()
        var devicesWithout = Set<String>()
        var epoch = 0, offset = 0, micros = 0, extra = 0
        var decoder = EventDecoder()
        for name in names {
            // zstd -f passes gzip'd and plain files through as zcat -f would.
            let (_, output) = try run("zstd", ["-dcfq", directory + "/" + name])
            for line in output.split(separator: 10) {
                lines += 1
                let text = String(decoding: line, as: UTF8.self)
                let result = Array(line).withUnsafeBytes { decoder.decode($0) }
                guard case .event(let event) = result else {
                    rejects += 1
                    continue
                }
                if event.seq == nil { devicesWithout.insert(event.device) } else { devicesWithSeq.insert(event.device) }
                if text.hasPrefix(#"{"ts":1"#) { epoch += 1 }
                if text.range(of: #"^\{"ts":"[^"]*[+-]\d\d:\d\d""#, options: .regularExpression) != nil { offset += 1 }
                if text.range(of: #"^\{"ts":"[^"]*\.\d{6}"#, options: .regularExpression) != nil { micros += 1 }
                if text.contains(#""ctx":{"#) { extra += 1 }
            }
        }
        #expect(devicesWithSeq.isDisjoint(with: devicesWithout))
        #expect((3...18).contains(devicesWithout.count), "\(devicesWithout.count) of 60 devices log no seq")
        #expect(lines > written.lines * 9 / 10, "the cut file loses part of a frame only")
        let share = { (count: Int) in Double(count) / Double(lines) }
        #expect((0.01...0.035).contains(share(rejects)), "\(rejects) of \(lines) lines rejected")
        #expect(rejects <= written.damagedLines)
        #expect((0.03...0.08).contains(share(extra)), "\(extra) lines with unknown nested fields")
        #expect(epoch > 0 && offset > 0 && micros > offset, "epoch \(epoch), offset \(offset), micros \(micros)")
    }
}
