extension Int {
    /// The count with its noun, singular for exactly one: "1 finding", "0 findings", "3 devices".
    public func counted(_ singular: String, plural: String? = nil) -> String {
        "\(self) \(self == 1 ? singular : plural ?? singular + "s")"
    }
}
