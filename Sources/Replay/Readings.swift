import TraceDecode

/// The attributes a rule reads from each kind of reading, visited in one pass (see
/// ``AttributeVisitor``).
enum Readings {
    /// `power`: `low_power_mode`, `battery` (0…1) and `charging`.
    struct Power: AttributeVisitor {
        var lowPowerMode: Bool?
        var battery: Double?
        var charging: Bool?

        mutating func visit(_ key: UnsafeRawBufferPointer, _ value: () -> JSONAttributes.Value) {
            if key.isKey("low_power_mode") {
                lowPowerMode = value().bool
            } else if key.isKey("battery") {
                battery = value().double
            } else if key.isKey("charging") {
                charging = value().bool
            }
        }
    }

    /// `network`: `reachable`.
    struct Network: AttributeVisitor {
        var reachable: Bool?

        mutating func visit(_ key: UnsafeRawBufferPointer, _ value: () -> JSONAttributes.Value) {
            if key.isKey("reachable") { reachable = value().bool }
        }
    }

    /// `refreshStatus`: `status`, one of the three `UIBackgroundRefreshStatus` names (nil for
    /// anything else).
    struct RefreshStatus: AttributeVisitor {
        var status: ReplayEvent.RefreshStatus?

        mutating func visit(_ key: UnsafeRawBufferPointer, _ value: () -> JSONAttributes.Value) {
            guard key.isKey("status") else { return }
            guard case .string(let text) = value() else { return status = nil }
            status = ReplayEvent.RefreshStatus(text: text)
        }
    }
}
