import BestiaryDiagnostics
import BestiarySite
import BestiaryStorage
import Foundation

/// The preview's ``Rebuilder``: runs the build pipeline with a ``BuildMemo`` kept for the whole
/// session, so each rebuild does only the work whose inputs changed: an edited record is parsed
/// again, its pages, the pages that show it (the lists, the "similar" cards of its group, the
/// home page's counts), the quiz catalogue, the sitemap and the packs are rendered again, and
/// only the output files whose bytes changed are written. The memo compares the actual inputs,
/// never guesses from the changed paths, so the result is the same as a full build's
/// (`RebuildEquivalenceTests`); a change of unknown scope (the watcher lost track) forgets it.
public final class SiteRebuilder: Rebuilder, @unchecked Sendable {
    public let options: BuildOptions
    /// Called after each stage (for a progress line); may be nil.
    private let onStage: (@Sendable (BuildReport.Stage, Int, Int) -> Void)?
    private let lock = NSLock()
    let memo = BuildMemo()
    /// What a rebuild frees, kept for the next while edits come (``WarmMemory``).
    let warmMemory: WarmMemory

    /// A preview never records pack versions in content/packs.lock, nor signs them (`options` is
    /// changed to say so): its versions are never published.
    public init(
        options: BuildOptions, onStage: (@Sendable (BuildReport.Stage, Int, Int) -> Void)? = nil, warmMemory: WarmMemory = WarmMemory()
    ) {
        self.warmMemory = warmMemory
        var options = options
        options.recordsPackVersions = false
        options.signsPacks = false
        self.options = options
        self.onStage = onStage
    }

    public func rebuild(changes: [ChangedPath]) throws(DiagnosticError) -> RebuildResult {
        lock.lock()
        defer { lock.unlock() }
        if changes.contains(where: { $0.kind == .everything }) { memo.reset() }
        return try build(adoptingOutput: false)
    }

    /// A session that began on an output an earlier session left up to date has an empty memo,
    /// and its first edit would build the whole site. This builds it in memory now; while the
    /// output holds exactly what it makes, nothing is written (``SiteBuilder/adoptsOutput``).
    /// Nil once the memo holds the output.
    public func warm() throws(DiagnosticError) -> RebuildResult? {
        lock.lock()
        defer { lock.unlock() }
        guard !memo.holdsOutput(of: options.outputDirectory) else { return nil }
        do {
            return try build(adoptingOutput: true)
        } catch {
            memo.reset()
            throw error
        }
    }

    /// The output's record, as this session last wrote it (``SiteBuilder/recordPreviewOutput(_:options:)``):
    /// the `bestiary build` after the preview then updates the output instead of writing it whole.
    public func finish() {
        lock.lock()
        defer { lock.unlock() }
        SiteBuilder.recordPreviewOutput(memo, options: options)
    }

    private func build(adoptingOutput: Bool) throws(DiagnosticError) -> RebuildResult {
        let start = DispatchTime.now().uptimeNanoseconds
        let builder = SiteBuilder(options: options, memo: memo)
        builder.adoptsOutput = adoptingOutput
        builder.onStage = onStage
        builder.warmMemory = warmMemory
        let report: BuildReport
        do {
            report = try builder.build()
        } catch {
            throw DiagnosticError(builder.diagnostics.items + error.diagnostics)
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return RebuildResult(
            pages: report.pages, files: report.files, changedOutputs: report.upToDate ? [] : report.changedOutputs,
            diagnostics: builder.diagnostics.items, seconds: seconds, upToDate: report.upToDate)
    }
}
