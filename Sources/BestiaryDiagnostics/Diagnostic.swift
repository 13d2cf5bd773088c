/// How bad a diagnostic is. Only `.error` makes a command fail (exit status 1).
public enum Severity: String, Codable, Sendable, Comparable, CaseIterable {
    case note
    case warning
    case error

    private var rank: Int {
        switch self {
        case .note: 0
        case .warning: 1
        case .error: 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// One problem found in the user's input or while building, with where it is and why.
///
/// Library code reports problems as values (collected into ``DiagnosticBag``) or throws
/// ``DiagnosticError``; only the command layer decides how to print them and what exit status
/// follows. Tests compare whole diagnostics, so the type is `Equatable`.
public struct Diagnostic: Error, Hashable, Codable, Sendable, CustomStringConvertible {
    public var severity: Severity
    /// Where the problem is; `nil` for problems not tied to a file (a bad flag value).
    public var location: SourceLocation?
    /// A sentence that says what is wrong and, where it helps, what to do.
    public var message: String
    /// The pipeline stage that found it (`load`, `validate`, `render`, `packs`, `write`, `fetch`…).
    public var stage: String?
    /// A stable name for the kind of problem, for scripts that act on it where the message may be
    /// reworded (`sync`'s refusals: `badSignature`, `notFound`, `transport`…); `nil` for most.
    public var code: String?

    public init(_ severity: Severity, _ message: String, at location: SourceLocation? = nil, stage: String? = nil) {
        self.severity = severity
        self.message = message
        self.location = location
        self.stage = stage
    }

    public static func error(_ message: String, at location: SourceLocation? = nil, stage: String? = nil) -> Diagnostic {
        Diagnostic(.error, message, at: location, stage: stage)
    }

    public static func warning(_ message: String, at location: SourceLocation? = nil, stage: String? = nil) -> Diagnostic {
        Diagnostic(.warning, message, at: location, stage: stage)
    }

    public static func note(_ message: String, at location: SourceLocation? = nil, stage: String? = nil) -> Diagnostic {
        Diagnostic(.note, message, at: location, stage: stage)
    }

    /// The same diagnostic, attributed to `stage` unless it already names one.
    public func inStage(_ stage: String) -> Diagnostic {
        var copy = self
        if copy.stage == nil { copy.stage = stage }
        return copy
    }

    /// `path:line:col: error: message [stage]`, the contract format (DESIGN.md §3).
    public var description: String { DiagnosticFormatter.text(self) }
}

/// Thrown when a stage cannot go on; carries everything that was found so far.
public struct DiagnosticError: Error, Hashable, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    public init(_ diagnostic: Diagnostic) {
        self.diagnostics = [diagnostic]
    }

    public var description: String {
        diagnostics.map(DiagnosticFormatter.text).joined(separator: "\n")
    }
}
