import BestiaryDiagnostics

/// The preview's view of the build engine: "these inputs changed, bring output/ up to date".
///
/// The preview never writes into `output/` itself; a rebuilder must leave `output/` servable at
/// every moment: each file the previous build's or the new one's, and every file a page names
/// there. `SiteBuilder` swaps its first build in whole and updates in place in that order
/// (``OutputWriter``'s `update`). Calls never overlap: the preview waits for one rebuild to finish before it starts
/// the next, folding the changes that arrived meanwhile into one call.
///
/// `changes` is never empty. The first call of a session is `[.everything]`; so is any call after
/// the watcher lost track (queue overflow). Otherwise it lists every changed path since the last
/// call, deduplicated, sorted by path, each with its ``ChangeKind`` and ``ChangeEvent``. After a
/// failed call, the next one repeats that call's changes (merged with newer ones): the list is
/// always everything changed since the last *successful* rebuild, so the engine keeps no state
/// about failures.
public protocol Rebuilder: Sendable {
    func rebuild(changes: [ChangedPath]) throws(DiagnosticError) -> RebuildResult

    /// Called once the first build found `output/` up to date (so it did no work): does now, while
    /// the site is served, the work that lets the next rebuild do only what a change needs. Nil
    /// when there is nothing to do.
    func warm() throws(DiagnosticError) -> RebuildResult?

    /// Called once when the session ends, after its last build: leaves beside `output/` what a
    /// later one-shot build can take from it.
    func finish()
}

extension Rebuilder {
    public func warm() throws(DiagnosticError) -> RebuildResult? { nil }
    public func finish() {}
}

/// What a successful rebuild did.
public struct RebuildResult: Sendable, Hashable {
    /// Pages (HTML files) in the site after the rebuild.
    public var pages: Int
    /// Files in `output/` after the rebuild.
    public var files: Int
    /// Output paths (relative to `output/`, e.g. `animals/red-fox/index.html`) whose bytes changed
    /// or that appeared or disappeared; `nil` when unknown (open pages then all reload).
    public var changedOutputs: Set<String>?
    /// Warnings and notes of the build (errors are thrown instead).
    public var diagnostics: [Diagnostic]
    /// How long the rebuild took.
    public var seconds: Double
    /// Nothing the build reads had changed: no stage ran and `pages`/`files` are 0.
    public var upToDate: Bool

    public init(
        pages: Int, files: Int, changedOutputs: Set<String>? = nil, diagnostics: [Diagnostic] = [], seconds: Double, upToDate: Bool = false
    ) {
        self.upToDate = upToDate
        self.pages = pages
        self.files = files
        self.changedOutputs = changedOutputs
        self.diagnostics = diagnostics
        self.seconds = seconds
    }
}
