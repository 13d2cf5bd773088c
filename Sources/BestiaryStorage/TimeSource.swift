import Foundation

/// Where "now" comes from, so that tests (and reproducible builds) can fix it.
public protocol TimeSource: Sendable {
    func now() -> Date
}

/// The system clock.
public struct SystemTimeSource: TimeSource {
    public init() {}
    public func now() -> Date { Date() }
}

/// Always the same instant: tests, and builds under `SOURCE_DATE_EPOCH`.
public struct FixedTimeSource: TimeSource {
    public var date: Date
    public init(_ date: Date) { self.date = date }
    public func now() -> Date { date }
}

/// The time stamped into build output. Reproducible builds set `SOURCE_DATE_EPOCH`
/// (https://reproducible-builds.org/specs/source-date-epoch/); without it the build uses the
/// given clock, and nothing in the output depends on it except where a date is shown.
public enum BuildTime {
    /// 9999-01-01T00:00:00Z: a build's time must be before it (the packs' expiry after it is
    /// checked where it is known, ``PackProducer``).
    public static let latestSeconds: Int64 = 253_370_764_800

    /// Parses `SOURCE_DATE_EPOCH` from `environment`; nil when unset or empty (as CI templates
    /// export it), throws when malformed.
    public static func sourceDateEpoch(_ environment: [String: String]) throws -> Date? {
        guard let raw = environment["SOURCE_DATE_EPOCH"] else { return nil }
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return nil }
        guard let seconds = Int64(trimmed), seconds >= 0 else {
            throw FileSystemError(
                operation: "read", path: "SOURCE_DATE_EPOCH",
                reason: "'\(raw)' is not a non-negative integer number of seconds since 1970")
        }
        // Dates are written with four-digit years: a larger value crashed the build.
        guard seconds < latestSeconds else {
            throw FileSystemError(
                operation: "read", path: "SOURCE_DATE_EPOCH",
                reason: "'\(raw)' is after the year 9998; give the time of the commit being built (`git log -1 --format=%ct`)")
        }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
