/// Lifeline's version, recorded with every check run.
public enum LifelineVersion {
    public static let current = "0.1.0"
}
