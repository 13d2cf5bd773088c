import BestiaryDiagnostics

/// The preview's build state as open pages see it, sent over the event stream as JSON.
public struct LiveStatus: Sendable, Equatable {
    public enum Phase: String, Sendable {
        /// The first build has not finished yet.
        case building
        /// The last build succeeded; output/ is current.
        case ok
        /// The last build failed; output/ still holds the last good build.
        case failed
    }

    /// Random per server run: a page from an earlier run reloads when it reconnects.
    public var session: String
    /// Counts finished builds (successful or not) in this run.
    public var generation: Int
    public var phase: Phase
    /// The errors (and warnings) of a failed build; empty otherwise.
    public var diagnostics: [Diagnostic]
    /// Output files changed by the last successful build; nil when unknown.
    public var changed: [String]?

    /// `{"session":…,"generation":…,"phase":…,"changed":[…]|null,"diagnostics":[…]}`.
    public var json: String {
        let changedJSON = changed.map { "[" + $0.map(DiagnosticFormatter.quote).joined(separator: ",") + "]" } ?? "null"
        let diagnosticsJSON = "[" + diagnostics.map(DiagnosticFormatter.json).joined(separator: ",") + "]"
        return "{\"session\":\(DiagnosticFormatter.quote(session)),\"generation\":\(generation),\"phase\":\"\(phase.rawValue)\","
            + "\"changed\":\(changedJSON),\"diagnostics\":\(diagnosticsJSON)}"
    }
}
