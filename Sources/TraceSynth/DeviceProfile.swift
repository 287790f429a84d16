/// The stable traits of one simulated device: what stays the same from one day to the next.
///
/// Everything derives from `(seed, device)` alone, so any day of the device can be generated
/// without generating the days before it.
struct DeviceProfile: Sendable {
    /// The opaque installation id, UUID-like (`3F2A…-…`).
    let id: String
    let model: String
    /// Hours east of UTC where the user lives: it shapes when the app is used.
    let utcOffsetHours: Int64
    /// How much more (or less) this user opens the app than the average.
    let activity: Double

    private let osVersions: (before: String, after: String)
    private let osUpdateDay: Int
    private let appVersions: (before: String, after: String)
    private let appUpdateDay: Int
    private let bootBeforeStartMillis: Int64

    static let models = [
        "iPhone12,1", "iPhone13,2", "iPhone14,2", "iPhone14,5", "iPhone14,7", "iPhone15,2",
        "iPhone15,3", "iPhone15,4", "iPhone16,1", "iPhone16,2", "iPhone17,1", "iPhone17,3",
    ]
    /// OS releases in order: a device updates from one to the next.
    static let osReleases = ["16.7.8", "17.4.1", "17.5", "17.5.1", "17.6.1", "18.0", "18.0.1", "18.1"]
    static let appReleases = ["5.11.2", "5.12.0", "5.12.1", "5.13.0"]
    static let utcOffsets: [Int64] = [-8, -7, -5, -5, -4, 0, 1, 1, 2, 3, 5, 8, 9, 10]

    init(seed: UInt64, device: Int) {
        var rng = SplitMix64(seed, 0xDE71CE, UInt64(device))
        id = DeviceProfile.uuid(&rng, uppercase: true)
        model = rng.pick(DeviceProfile.models)
        utcOffsetHours = rng.pick(DeviceProfile.utcOffsets)
        activity = 0.7 + 0.6 * rng.unit()
        let os = Int(rng.int(1...Int64(DeviceProfile.osReleases.count - 2)))
        osVersions = (DeviceProfile.osReleases[os], DeviceProfile.osReleases[os + 1])
        // Updates fall on a day that does not depend on the corpus length, so that a longer
        // corpus of the same seed starts with the same days.
        osUpdateDay = Int(rng.int(1...21))
        let app = Int(rng.int(0...Int64(DeviceProfile.appReleases.count - 2)))
        appVersions = (DeviceProfile.appReleases[app], DeviceProfile.appReleases[app + 1])
        appUpdateDay = Int(rng.int(1...14))
        bootBeforeStartMillis = rng.millis(3_600, 6 * 86_400)
    }

    func osVersion(day: Int) -> String { day >= osUpdateDay ? osVersions.after : osVersions.before }

    func appVersion(day: Int) -> String { day >= appUpdateDay ? appVersions.after : appVersions.before }

    /// When the device last booted before day `day` began (the zero of `mono`). An OS update
    /// reboots the device just before midnight, when every process of the day has ended.
    func bootMillis(day: Int, dayStart: (Int) -> Int64) -> Int64 {
        if day >= osUpdateDay { return dayStart(osUpdateDay) - 240_000 - Int64(osUpdateDay % 7) * 37_000 }
        return dayStart(0) - bootBeforeStartMillis
    }

    /// A UUID-shaped string (8-4-4-4-12 hexadecimal digits) from two draws of `rng`.
    static func uuid(_ rng: inout SplitMix64, uppercase: Bool) -> String {
        let digits = Array((uppercase ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        var bytes = [UInt8]()
        bytes.reserveCapacity(36)
        for word in [rng.next(), rng.next()] {
            for shift in stride(from: 60, through: 0, by: -4) {
                if bytes.count == 8 || bytes.count == 13 || bytes.count == 18 || bytes.count == 23 {
                    bytes.append(UInt8(ascii: "-"))
                }
                bytes.append(digits[Int((word >> UInt64(shift)) & 0xF)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
