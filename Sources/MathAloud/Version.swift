/// The version of MathAloud (semantic versioning; releases are tagged `v<version>` in git).
public enum MathAloudVersion {
    /// The version string, e.g. `0.4.0`.
    public static let string = "0.4.0"
}
