import Dispatch

/// A time limit for the work on one formula, so a formula that takes too long is stopped and its
/// thread freed (the service's per-request time limit). It is set around a call with ``run(seconds:_:)``
/// and read by the stages' long loops — the macro expander at each expansion, the speech run and the
/// layout every few nodes — which stop early once it has passed: the expander records `limit.time`
/// and expands no more, the speech run and layout skip the nodes left. The caller then sees
/// ``hasPassed`` and treats the partial result as a failure.
///
/// The limit travels as a task-local value, so no signature changes between the caller and the loops
/// and no global state: outside ``run(seconds:_:)`` there is no limit.
public struct FormulaDeadline: Sendable {
    /// The deadline in force on this thread or task (nil: none).
    @TaskLocal public static var current: FormulaDeadline?

    /// When it passes, in `DispatchTime` nanoseconds.
    public let uptimeNanoseconds: UInt64
    /// The limit it was made from, for messages.
    public let seconds: Double

    /// A deadline `seconds` from now.
    public init(seconds: Double) {
        self.seconds = seconds
        let now = DispatchTime.now().uptimeNanoseconds
        self.uptimeNanoseconds = now &+ UInt64(max(0, min(seconds, 1e6)) * 1e9)
    }

    /// Whether the time is up.
    public var hasPassed: Bool { DispatchTime.now().uptimeNanoseconds >= uptimeNanoseconds }

    /// Whether the deadline in force (if any) has passed: what the stages' loops ask.
    @inline(__always)
    public static var isExpired: Bool { current?.hasPassed ?? false }

    /// Runs `work` with a deadline `seconds` from now; returns its result and whether the deadline
    /// passed (the result is then partial).
    public static func run<T>(seconds: Double, _ work: () throws -> T) rethrows -> (value: T, expired: Bool) {
        let deadline = FormulaDeadline(seconds: seconds)
        let value = try $current.withValue(deadline) { try work() }
        return (value, deadline.hasPassed)
    }

    /// The diagnostic a stage records when it stops for the deadline.
    public func diagnostic(at range: SourceRange?) -> Diagnostic {
        .error("limit.time", "stopped: the formula took longer than the time limit of \(seconds) s", at: range)
    }
}
