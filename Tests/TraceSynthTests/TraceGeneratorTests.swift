import Foundation
import Testing
import TraceSynth

@Suite struct TraceGeneratorTests {
    let spec = CorpusSpec(devices: 4, days: 3, seed: 11)

    @Test func sameSpecGivesIdenticalLines() {
        let first = TraceGenerator(spec: spec)
        let second = TraceGenerator(spec: spec)
        for device in 0..<spec.devices {
            for day in 0..<spec.days {
                #expect(first.lines(device: device, day: day) == second.lines(device: device, day: day))
            }
        }
    }

    @Test func anotherSeedGivesOtherLines() {
        var other = spec
        other.seed = 12
        #expect(TraceGenerator(spec: spec).lines(device: 0, day: 0) != TraceGenerator(spec: other).lines(device: 0, day: 0))
        #expect(TraceGenerator(spec: spec).deviceID(0) != TraceGenerator(spec: other).deviceID(0))
    }

    @Test func aDeviceDayDoesNotDependOnTheCorpusSize() {
        var bigger = spec
        bigger.devices = 40
        #expect(TraceGenerator(spec: spec).lines(device: 2, day: 1) == TraceGenerator(spec: bigger).lines(device: 2, day: 1))
    }

    @Test func everyLineIsAnObjectWithTheEnvelope() throws {
        let generator = TraceGenerator(spec: spec)
        for device in 0..<spec.devices {
            for day in 0..<spec.days {
                for line in generator.lines(device: device, day: day) {
                    let fields = try #require(object(line), "not a JSON object: \(line)")
                    for key in ["ts", "device", "launch", "event", "app", "app_version", "os", "model"] {
                        #expect(fields[key] is String, "\(key) missing in \(line)")
                    }
                    #expect(fields["seq"] is Int && fields["mono"] is Double)
                    #expect(fields["device"] as? String == generator.deviceID(device))
                    let ts = try #require(fields["ts"] as? String)
                    #expect(ts.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "\(ts)")
                }
            }
        }
    }

    @Test func timesStayInTheDayAndIncrease() throws {
        let generator = TraceGenerator(spec: spec)
        for day in 0..<spec.days {
            let dayStart = Double(spec.startDay + Int64(day)) * 86_400
            var previous = dayStart
            for line in generator.lines(device: 1, day: day) {
                let parsed = (object(line)?["ts"] as? String).flatMap(epochSeconds)
                let ts = try #require(parsed, "\(line)")
                #expect(ts > previous && ts < dayStart + 86_400, "\(line)")
                previous = ts
            }
        }
    }

    @Test func seqCountsFromZeroAndMonoIncreasesPerLaunch() throws {
        let generator = TraceGenerator(spec: spec)
        var last: [String: (seq: Int, mono: Double)] = [:]
        for line in generator.lines(device: 3, day: 2) {
            let fields = try #require(object(line))
            let launch = try #require(fields["launch"] as? String)
            let seq = try #require(fields["seq"] as? Int)
            let mono = try #require(fields["mono"] as? Double)
            if let previous = last[launch] {
                #expect(seq == previous.seq + 1 && mono > previous.mono, "\(line)")
            } else {
                #expect(seq == 0 && fields["event"] as? String == "launch", "\(line)")
            }
            last[launch] = (seq, mono)
        }
        #expect(last.count > 3)
    }

    @Test func configFollowsEveryAppLaunch() throws {
        let lines = TraceGenerator(spec: spec).lines(device: 0, day: 0).compactMap(object)
        for (index, fields) in lines.enumerated() where fields["event"] as? String == "launch" {
            if fields["process"] as? String == "extension:nse" {
                #expect(fields["cause"] as? String == "nse")
                continue
            }
            let config = lines[index + 1]
            #expect(config["event"] as? String == "config")
            #expect(config["launch"] as? String == fields["launch"] as? String)
            #expect(config["permitted_identifiers"] as? [String] == ["com.example.news.refresh", "com.example.news.cleanup"])
        }
    }

    @Test(arguments: [60, 250, 1_000])
    func linesPerDeviceDayAreRoughlyAsAsked(target: Int) {
        var asked = spec
        asked.devices = 12
        asked.days = 2
        asked.approxEventsPerDeviceDay = target
        let generator = TraceGenerator(spec: asked)
        var total = 0
        for device in 0..<asked.devices {
            for day in 0..<asked.days { total += generator.lines(device: device, day: day).count }
        }
        let mean = Double(total) / Double(asked.devices * asked.days)
        #expect(mean > Double(target) * 0.7 && mean < Double(target) * 1.3, "mean \(mean) for \(target)")
    }

    @Test func fileNamesCarryDeviceAndDate() {
        let generator = TraceGenerator(spec: CorpusSpec(devices: 9, days: 12, seed: 1, year: 2026, month: 11, day: 21))
        #expect(generator.fileName(device: 7, day: 0) == "dev-0007-2026-11-21.jsonl.zst")
        #expect(generator.fileName(device: 7, day: 10) == "dev-0007-2026-12-01.jsonl.zst")
        #expect(generator.fileName(device: 7, day: 0, extension: "jsonl") == "dev-0007-2026-11-21.jsonl")
    }

    @Test func streamingAndArrayAgree() {
        let generator = TraceGenerator(spec: spec)
        var streamed: [String] = []
        generator.forEachLine(device: 1, day: 1) { streamed.append($0) }
        #expect(streamed == generator.lines(device: 1, day: 1))
        let (bytes, lineEnds) = generator.lineBytes(device: 1, day: 1)
        #expect(lineEnds.count == streamed.count)
        #expect(String(decoding: bytes, as: UTF8.self) == streamed.map { $0 + "\n" }.joined())
    }
}
