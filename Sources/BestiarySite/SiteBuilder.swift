import BestiaryContent
import BestiaryDiagnostics
import BestiaryPacks
import BestiaryRender
import BestiaryStorage
import BestiaryWikipedia
import Foundation

/// `bestiary build`: the pipeline's stages in order, each named and timed, over injected I/O.
/// Never touches the network: Wikipedia summaries come from the cache under `content/`.
public final class SiteBuilder: @unchecked Sendable {
    public let options: BuildOptions
    /// Called after each stage with its report line (the command prints `[i/N] stage  12 ms`).
    public var onStage: (@Sendable (BuildReport.Stage, Int, Int) -> Void)?

    /// Warnings and notes collected across stages (errors are thrown).
    public private(set) var diagnostics = DiagnosticBag()
    /// The output's files a rebuild found changed or removed since the last build wrote them,
    /// and makes again: said once, in the write stage.
    private let touched = LockedPaths()

    /// Kept between builds by a long-running process (the preview); nil for one-shot builds.
    public let memo: BuildMemo?

    /// The preview's build that fills an empty memo when its session began on an output a build
    /// left up to date (its first build stopped at the no-op check): it does not stop there, and
    /// when the output holds exactly the files it makes (``OutputWriter/index(ifHolding:)``), it
    /// writes nothing and takes the output as it is. Otherwise it writes the output anew, as the
    /// preview's first build does.
    public var adoptsOutput = false
    /// Called when another build of the same output (a second `build`, the preview) holds the
    /// build lock: this one waits for it (``FileLock``).
    public var onWait: (@Sendable () -> Void)?
    /// Called when a build of the same site into another output holds the site's lock (on
    /// `content/`): this one waits for it, as both would record the next pack version.
    public var onWaitForSite: (@Sendable () -> Void)?
    /// Called before the stages of a build that goes on, with what changed among its inputs
    /// since the output was built (when that build recorded them).
    public var onInputChanges: (@Sendable (InputChanges) -> Void)?
    /// The preview's: a rebuild of the output it holds keeps the memory it frees for the next
    /// one, and the memory goes back to the system once edits stop; any other build gives it back
    /// before it begins (its peak counts). Nil: a rebuild gives it back at its end.
    public var warmMemory: WarmMemory?
    /// Whether this build replaced the output (true also when a later step, recording the pack
    /// version in the lock, failed): what a failed build's message may say about the output.
    public private(set) var replacedOutput = false

    public init(options: BuildOptions, memo: BuildMemo? = nil) {
        self.options = options
        self.memo = memo
    }

    static let stageNames = ["load", "enrich", "media", "render", "packs", "write"]

    public func build() throws(DiagnosticError) -> BuildReport {
        let startTime = DispatchTime.now().uptimeNanoseconds
        var report = BuildReport()
        // Freed memory goes back to the system after each stage where the peak matters: a full
        // build (its peak is the goal) and the preview's first build (the preview runs for hours;
        // its rebuilds keep it for the next one while edits come: ``warmMemory``). A rebuild
        // after an edit skips it: trimming walks the whole heap while the packs thread allocates.
        report.outputDirectory = options.outputDirectory
        let fs = options.fileSystem
        let writer = OutputWriter(fileSystem: fs, output: options.outputDirectory, removesInBackground: options.removesInBackground)
        // What a build keeps next to the output: `.NAME.bestiary-KIND`.
        let keptPath = { (kind: String) in (writer.parent == "." ? "" : writer.parent + "/") + ".\(writer.name).bestiary-\(kind)" }
        // The preview's rebuilds (its memo holds the output it wrote) go as a one-shot rebuild
        // goes: the walk's listing kept, the Wikipedia cache read beside load, the freed memory
        // not returned after each stage (0.3–0.5 s of a preview rebuild on 10,000 animals) but
        // kept for the next rebuild while edits come (``warmMemory``), or returned at the end.
        let previewRebuild = !options.force && memo?.output(for: options.outputDirectory) != nil
        if previewRebuild { warmMemory?.begin() } else { warmMemory?.giveBack() }
        defer {
            if previewRebuild {
                if let warmMemory { warmMemory.end() } else { ProcessMemory.releaseFreed() }
            }
        }
        let returnsFreedMemory = !previewRebuild && (memo != nil || options.force || fs.info(OutputRecord.path(writer)) == nil)
        // A rebuild in a process that ends with it leaves what it no longer needs to the exit
        // instead of freeing it value by value on its way (a full build frees: its peak counts).
        let leaves = options.exitsAfterBuild && !returnsFreedMemory
        if leaves { ProcessMemory.keepFreedMemory() }
        let total = Self.stageNames.count
        var index = 0
        // What changed since the output was built, worked out beside the first stage and said
        // before its line (or its errors).
        var changesAhead: Background<InputChanges?, Never>?
        func announceChanges() {
            guard let ahead = changesAhead else { return }
            changesAhead = nil
            guard let changes = ahead.value(), !changes.isEmpty else { return }
            report.inputChanges = changes
            onInputChanges?(changes)
        }
        defer { _ = changesAhead?.value() }

        /// `ownTime`: how long the stage took when it ran meanwhile (``Background``), not in `body`.
        func stage<T>(
            _ name: String, ownTime: ((T) -> Double?)? = nil, _ body: () throws(DiagnosticError) -> (T, String)
        ) throws(DiagnosticError) -> T {
            index += 1
            let start = DispatchTime.now().uptimeNanoseconds
            let value: T
            let detail: String
            do {
                (value, detail) = try body()
            } catch {
                announceChanges()
                throw DiagnosticError(error.diagnostics.map { $0.inStage(name) })
            }
            announceChanges()
            let seconds = ownTime?(value) ?? Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            if returnsFreedMemory { ProcessMemory.releaseFreed() }
            let s = BuildReport.Stage(name: name, seconds: seconds, detail: detail)
            report.stages.append(s)
            onStage?(s, index, total)
            return value
        }
        // The work around the stages (what builds keep for each other), timed part by part.
        var mark = DispatchTime.now().uptimeNanoseconds
        func upkeep(_ name: String) {
            let now = DispatchTime.now().uptimeNanoseconds
            report.upkeep.append(BuildReport.Stage(name: name, seconds: Double(now - mark) / 1e9, detail: ""))
            mark = now
        }
        func finished() -> BuildReport {
            report.seconds = Double(DispatchTime.now().uptimeNanoseconds - startTime) / 1e9
            return report
        }

        // Before anything is kept next to the output (the lock, the kept files).
        try checkSiteRoot()
        try checkOutputLocation()
        if memo == nil {
            try writer.refuseForeignOutput()
            try refuseWhilePreviewed(writer)
        }
        let lock = FileLock.acquire(keptPath("lock"), waiting: { onWait?() })
        defer { withExtendedLifetime(lock) {} }

        // Nothing changed since the last complete build: the output is already what it would make.
        let state = BuildState(options: options)
        let started = options.time.now()
        // When the walk began, by the system clock (file times' clock): the Wikipedia entries
        // are kept under the metadata this walk read, so whether each had settled is judged
        // from here, not from when the kept entries are loaded.
        let walkStarted = Date()
        var before: [String]
        var sortListing: (() -> BuildState.Listing)?
        // A rebuild takes the Wikipedia cache's listing, and the records' and media's metadata,
        // from this walk. A full build does not hold them: they would be held to the end, and a
        // full build's peak is the memory goal (the next rebuild lists the cache itself once).
        // The preview's first build does: its memo keeps the cache's entries whole only under
        // the digest of the walk's listing, and without it the first rebuild after an edit read
        // every entry again (enrich 0.6 s instead of 0.2 s on the bench corpus).
        // The files it found changed in the 2 s before it began, or later, are digested below.
        let racyPaths: [String]
        (before, sortListing, racyPaths) = state.snapshot(
            now: started, listing: !returnsFreedMemory || memo != nil,
            racyFrom: FileFacts.nanoseconds(walkStarted) - FileInfo.racyNanoseconds)
        let current = state.fingerprint(before)
        // The files the recorded walk found changed just before its build began must hold what
        // they held then: changed again within their clock's resolution, they could keep the
        // metadata that walk found.
        let last = state.recorded()
        // Read whether or not the rest matches: a rebuild takes those whose bytes changed as
        // modified, and the others as they were (a build just after a clone or a fetch found
        // thousands changed just before it: each digested again, their animals would all be).
        let changedBytes = current != nil && !options.force ? state.changedBytes(last?.racy ?? []) : []
        if !options.force, !adoptsOutput, let current, let last, current == last.fingerprint, changedBytes.isEmpty {
            // Once this walk finds them settled, a later change shows in their metadata: the
            // checks after this one need not read them (10,000 records written just before a
            // build would be read by every check).
            if !last.racy.isEmpty, Set(racyPaths).isDisjoint(with: last.racy.map(\.path)) {
                state.record(BuildState.Recorded(fingerprint: last.fingerprint))
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - startTime) / 1e9
            let s = BuildReport.Stage(name: "check", seconds: seconds, detail: "nothing changed since the last build: \(options.outputDirectory) is up to date")
            report.stages.append(s)
            report.upToDate = true
            onStage?(s, 1, 1)
            if memo == nil { writer.removeLeftovers() }
            return finished()
        }

        // What the files this walk found changed just before it began hold, read before any stage
        // reads them: recorded with the fingerprint, they tell the next build's check a change that
        // kept their metadata. None on the bench corpus but the edited record.
        let racyFiles = state.digests(of: racyPaths)
        // What this build may write itself: its pack lock (and with it `content/`'s time).
        let ownWrites: Set<String> = ["content", PackLock.path]

        upkeep("inputs walked")

        // What changed since the output was built (its fingerprint and the walk it was made from
        // recorded beside it): 14 ms on the bench corpus, beside load. The preview keeps that walk
        // in its memo instead (saving 3 MB would be waited for by each of its rebuilds). The
        // inputs the last walk found changed just before it began were read again (above): those
        // whose bytes changed are among the modified.
        let memoWalk = memo?.takeWalk()
        if current != nil, !options.force, memo == nil, let last {
            let walk = before
            changesAhead = Background { state.changes(since: walk, recorded: last, changedBytes: changedBytes) }
        } else if previewRebuild, let memoWalk {
            // The racy files the state recorded are those of the memo's walk when it recorded
            // that walk's fingerprint: those of them whose bytes held are taken as they were.
            let walk = before
            changesAhead = Background {
                if let last, state.fingerprint(memoWalk.lines) == last.fingerprint {
                    return InputChanges.between(memoWalk.lines, walk, changedBytes: changedBytes)
                }
                return InputChanges.since(memoWalk.lines, walkedBefore: memoWalk.started, to: walk)
            }
        }

        // The walk's listing, sorted out only now that the build goes on (it holds the walk's
        // lines until then).
        let listing = sortListing?()
        sortListing = nil
        let listed = listing.map { ListedFiles($0.files) }
        // What the inputs were is kept as a digest, not as the walk's 60,000 lines (about 7 MB held
        // to the end: through the full build's peak, which is the memory goal).
        let inputsBefore = BuildState.digest(before, except: ownWrites)
        // And whole, for a build that does not write the lock after all: then a lock another hand
        // wrote while it ran is a change like any other (a rebuild records this walk instead).
        let inputsBeforeWhole = returnsFreedMemory ? BuildState.digest(before, except: []) : nil
        // A rebuild keeps them instead (its peak is not the goal's), the preview's too: what it
        // records is this walk with the build's own writes looked at again, not a second walk of
        // every input (``recordedWalk``).
        let walked = !returnsFreedMemory ? before : nil
        // Looked at again once read (after the theme is): a change between the walk and a read
        // makes the build record no fingerprint, as one of a record does.
        let sourceLines = BuildState.sourceLines(before)
        var sourcesAsWalked = true
        before = []

        // A one-shot build takes the records, and what it read from media and cached pictures,
        // whose files are unchanged from the last build (the preview keeps them in its memo).
        let tool = state.tool
        let recordsPath = keptPath("records"), factsPath = keptPath("files"), entriesPath = keptPath("wikipedia")
        let unrecordedPath = keptPath("unrecorded"), publishedPath = keptPath("published"), pendingPath = keptPath("pending")
        // Read side by side; the Wikipedia entries are only needed by the enrich stage.
        let reading = memo == nil && !options.force
        // Kept by paths below the root, whatever its spelling (`site`, `/home/me/site`, `.`).
        let keyPrefix = Catalog.pathPrefix(root: options.root)
        let entriesAhead = reading
            ? Background { KeptEntries.load(entriesPath, tool: tool, keyPrefix: keyPrefix, fileSystem: fs, started: walkStarted) } : nil
        let factsAhead = reading ? Background { FileFacts.load(factsPath, tool: tool, keyPrefix: keyPrefix, fileSystem: fs) } : nil
        // The previous build's record of the output (83,000 lines on the bench corpus), read
        // beside the stages before render.
        let previousAhead = reading ? Background { OutputRecord.load(writer, tool: tool) } : nil
        // Not a thread left reading once the build returns, even when a stage failed first.
        defer {
            _ = entriesAhead?.value()
            _ = factsAhead?.value()
            _ = previousAhead?.value()
        }
        let records = memo != nil ? nil : options.force ? RecordCache(tool: tool) : RecordCache.load(recordsPath, tool: tool, fileSystem: fs)
        // The preview keeps its records the same way, in memory: an unchanged record file is not
        // read again (reading 10,000 records to compare their bytes, and their media files'
        // headers, took about 0.2 s of every rebuild of the bench corpus).
        memo?.begin(started: walkStarted)
        let memoRecords = options.force ? nil : memo?.records(tool: tool, started: walkStarted)
        // The kept file facts and Wikipedia entries are waited for where they are used (the
        // Wikipedia cache's read beside load, the media stage), not before load starts.
        let oneShot = memo == nil
        let noFacts = oneShot && factsAhead == nil ? FileFacts(tool: tool, keyPrefix: keyPrefix) : nil
        let facts = { oneShot ? factsAhead?.value() ?? noFacts : nil }
        // The Wikipedia cache (its entries read or taken from what the last build kept, its
        // pictures checked) does not need the records: a rebuild reads it while they load, on the
        // other core. A full build reads it in the enrich stage: its 14,555 entries, decoded
        // while load's transient memory is still held, fragment the heap and raise the render
        // stage's peak (46 MiB, measured on 2026-11-25).
        let noEntries = oneShot && entriesAhead == nil ? KeptEntries.empty(tool: tool, keyPrefix: keyPrefix, started: walkStarted) : nil
        let entries = { oneShot ? entriesAhead?.value() ?? noEntries : nil }
        let root = options.root, wikipediaMemo = memo?.wikipedia, cacheListing = listing?.wikipedia
        let readCache = {
            Enrichment.cache(root: root, fileSystem: fs, memo: wikipediaMemo, facts: facts(), kept: entries(), listing: cacheListing)
        }
        var cacheAhead = returnsFreedMemory ? nil : Background(readCache)
        defer { _ = cacheAhead?.value() }
        upkeep("kept files read")
        // Media and pictures are named by paths below it (`content/…` when the root is `.`).
        let contentPrefix = Catalog.contentDirectory(root: options.root) + "/"

        var readAfterAChange = Set<String>()
        var recordFilesAsWalked = true
        // Whether every media file the media stage read had the metadata it was looked up by
        // (``MediaPlanner/Planned/readAfterAChange``).
        var mediaAsWalked = true
        let catalog: Catalog = try stage("load") { () throws(DiagnosticError) in
            var loader = ContentLoader(root: options.root, fileSystem: fs, memo: memo?.parse)
            loader.cache = records ?? memoRecords
            loader.listed = listed
            // A media file whose metadata is that of last time has the format its bytes had then.
            // The preview's memo knows it from the media stage, by the path relative to content/.
            let keptFacts = oneShot ? factsAhead : nil
            let mediaMemo = memo
            loader.knownFormat = { path, info in
                if let mediaMemo {
                    return path.hasPrefix(contentPrefix) ? mediaMemo.mediaFormat(String(path.dropFirst(contentPrefix.count)), info: info) : nil
                }
                return keptFacts?.value().kind(of: path, info: info, prefix: MediaPlanner.factPrefix).flatMap { MediaFormat(rawValue: String($0)) }
            }
            let result = loader.load()
            (readAfterAChange, recordFilesAsWalked) = (result.readAfterAChange, result.recordFilesAsWalked)
            diagnostics.append(contentsOf: result.diagnostics.items.filter { $0.severity != .error })
            // The warnings are in `diagnostics` already: a failed build must not show them twice.
            if result.diagnostics.hasErrors { throw DiagnosticError(result.diagnostics.sorted.filter { $0.severity == .error }) }
            guard let catalog = result.catalog else { throw DiagnosticError(result.diagnostics.sorted) }
            // A quiz that no round can start is published broken: said by each build and the
            // preview as well as by `check` (a volunteer's two animals and four answers).
            diagnostics.append(contentsOf: ContentLoader.quizProblems(catalog))
            // A record file renamed: its animal under a new id, its learners' progress lost. Read
            // from the output itself, not the kept state, so also said by `--force`.
            diagnostics.append(contentsOf: RenamedRecords.warnings(of: catalog, output: options.outputDirectory, fileSystem: fs))
            // The default language changed: every address, and what the ID.md bodies are taken as.
            diagnostics.append(contentsOf: DefaultLanguageChange.warnings(of: catalog, output: options.outputDirectory, fileSystem: fs))
            // An output built into a web root (`--output /var/www/birds`): what the build keeps
            // beside it, a copy of the last output with it, is in the published folder too (a
            // deploy trial served `/.birds.bestiary-spare/index.html`).
            if memo == nil, fs.info(writer.parent + "/index.html")?.kind == .file {
                diagnostics.append(.warning(
                    "\(writer.parent == "." ? "the current folder" : writer.parent), which holds the output, also holds an index.html: a build keeps what the next one reuses beside its output (.\(writer.name).bestiary-*, a copy of the last output among them), so if that folder is published, they are too; build into a folder of its own and copy the output where it is served",
                    stage: "write"))
            }
            func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
            return (catalog, "\(count(catalog.animals.count, "animal")), \(count(catalog.pages.count, "page"))")
        }
        // Builds of this site into other outputs record pack versions in the same packs.lock:
        // one at a time, from reading it to writing it (the preview records none).
        let siteLock = memo != nil || !options.recordsPackVersions || catalog.config.packs == nil
            ? nil : FileLock.acquireFolder(Catalog.contentDirectory(root: options.root), waiting: { onWaitForSite?() })
        defer { withExtendedLifetime(siteLock) {} }
        // A rebuild makes the packs beside render, and is then done when the packs are. The pack
        // history they start from (replayed, the digests of the versions used checked: 0.1–0.2 s)
        // is read now, beside enrich, which waits for the Wikipedia cache with a core to spare.
        let rebuilding = reading && fs.info(OutputRecord.path(writer)) != nil
        let lockAhead = rebuilding ? Background { () -> Result<PackLock?, DiagnosticError> in
            Result { () throws(DiagnosticError) in try PackStage.lock(of: catalog, options: self.options) }
        } : nil
        defer { _ = lockAhead?.value() }
        // The parsed records are true of their files whatever happens next: a rebuild saves them
        // while the later stages run. A full build saves them while the output is written, after
        // render, whose memory is the build's peak.
        var recordsSaved = !returnsFreedMemory ? records.map { records in Background { _ = records.save(recordsPath, fileSystem: fs) } } : nil
        // No thread is left saving once the build returns, failed or not (see below).
        defer { recordsSaved?.value() }

        let signingKeys = try PackStage.keys(for: catalog, options: options)
        // A key named for a site that makes no packs was dropped without a word (the packs stage
        // says only "no content packs"): a user who passes one expects something signed.
        if catalog.config.packs == nil, let file = options.signingKeyFile {
            report.notes.append("--signing-key \(file) is not used: site.yml has no packs section, so no content pack is made or signed; `packs: {id: NAME}` in site.yml makes them (docs/packs.md)")
        }
        let buildDate: Date
        do {
            // The walk's time, whose day the walk recorded: a build that runs past midnight (UTC)
            // dates its pages as its check did (a rebuild after an edit keeps pages by that day).
            buildDate = try BuildTime.sourceDateEpoch(options.environment) ?? started
        } catch {
            throw DiagnosticError(.error("\(error)", stage: "load"))
        }
        var baseURL = catalog.config.baseURL
        if let override = options.baseURL {
            if let problem = URLCheck.problem(baseURL: override) {
                throw DiagnosticError(.error("--base-url \(problem)", stage: "load"))
            }
            baseURL = override.hasSuffix("/") ? override : override + "/"
        }

        // The entries are in the enrichment once it ran: what was decoded is kept for the next
        // build, and freed, on a thread of its own (a full build's 32 MB of entries took 0.3–0.5 s
        // on one core while the other waited). It runs into the start of render and is joined
        // before the packs stage.
        var entriesSaved: Background<Void, Never>?
        defer { entriesSaved?.value() }
        // The preview's update takes the pictures' metadata from the cache's listing (below).
        var pictureInfos: [String: FileInfo] = [:]
        // Whether the cached pictures' checks stood as the last build made them: a picture changed
        // in place changes no line of the walk (their folder is walked by its own metadata), so
        // the change set cannot show it (``InputChanges/unchangedAnimals(_:)``).
        var picturesAsBefore = false
        var enrichment: Enrichment = try stage("enrich") { () throws(DiagnosticError) in
            let snapshot = cacheAhead?.value() ?? readCache()
            picturesAsBefore = snapshot.picturesChecked == 0
            if previewRebuild, let memo { pictureInfos = memo.pictureInfos(of: snapshot, prefix: contentPrefix) }
            // A file under the cache's folder changed just before the walk could change again
            // and keep the metadata its stamp was made from: nothing looked up is kept then.
            let cacheSettled = !racyPaths.contains { $0.utf8.starts(with: (WikipediaCache.relativeDirectory + "/").utf8) }
            if !cacheSettled { memo?.enrich.reset() }
            let result = Enrichment.run(catalog, snapshot: snapshot, memo: cacheSettled ? memo?.enrich : nil)
            if let entries = entries() {
                entriesSaved = Background {
                    KeptEntries.save(entries, to: entriesPath, fileSystem: fs)
                    entries.forget(leavingToExit: leaves)
                }
            }
            diagnostics.append(contentsOf: result.diagnostics)
            // The pages that show one: not those whose own description in their language comes
            // before another language's summary (it counted every page with any summary).
            let count = result.pagesWithSummary
            let pages = catalog.animals.count * catalog.config.languages.count
            let images = result.files.count
            return (result, "\(count) of \(pages) animal pages with a summary, \(images) image\(images == 1 ? "" : "s")")
        }

        // The decoded entries are in `enrichment` now: the snapshot goes (the thread is done).
        if leaves, let cacheAhead { ProcessMemory.leaveToExit([cacheAhead]) }
        cacheAhead = nil
        let media: [String: MediaRecord] = try stage("media") { () throws(DiagnosticError) in
            let planned = try MediaPlanner.planAndWarn(catalog, fileSystem: fs, memo: memo, facts: facts(), listed: listed)
            let plan = planned.plan
            mediaAsWalked = planned.readAfterAChange.isEmpty
            diagnostics.append(contentsOf: planned.warnings)
            diagnostics.append(contentsOf: MediaPlanner.sizeProblems(plan))
            let bytes = plan.values.reduce(0) { $0 + $1.bytes }
            return (plan, "\(plan.count) file\(plan.count == 1 ? "" : "s"), \(bytes >> 10) KiB")
        }
        // No file is hashed after this: what the build learned is kept now (it is true of the
        // files whatever happens to the build) and its memory freed before render and packs.
        mark = DispatchTime.now().uptimeNanoseconds
        // A rebuild checks the media files the output links against what it learned here.
        let sourceInfos = returnsFreedMemory ? [:] : facts()?.infos() ?? [:]
        // Saved and freed on a thread of its own, as render begins (a full build's 39,110 facts
        // took 0.11–0.15 s on one core while the other waited), joined before the packs stage.
        var factsSaved = facts().map { facts in
            Background {
                facts.save(factsPath, fileSystem: fs)
                facts.forget(leavingToExit: leaves)
            }
        }
        defer { factsSaved?.value() }

        // A one-shot build writes animal pages into the staging folder as they are rendered (only
        // the staged output replaces output/, at the end); the preview keeps them for its memo.
        if memo == nil { try writer.prepare() }
        // What the previous build left (another process): pages whose inputs are unchanged are
        // not rendered again, and only files whose bytes changed go into the output.
        // (`prepare()` drops the record when the output may be a mix: then it is not used.)
        let previous = fs.info(OutputRecord.path(writer)) != nil ? previousAhead?.value() : nil
        let staging = memo == nil ? try writer.begin(reusingSpare: previous != nil, spare: previous?.spareRecord) : nil
        upkeep("output record read")
        var streamed: [String] = []
        var kept: [String] = []
        var pageDigests: [String: String] = [:]
        var nameOrders: [String: [Int]] = [:]
        var fragments: [String: FragmentTable] = [:]
        var keptAnimals: [String: KeptAnimal] = [:]
        // Paths of the other files a one-shot build staged as soon as their stage made them.
        var built: [String] = []

        // A rebuild after an edit makes the packs while it renders: their inputs are ready and their
        // files go to other paths. A full build makes them after the pages, so that the memory of
        // the two stages is never held at once (the peak-memory goal is measured on a full build).
        struct Packs { var output: PackOutput, paths: [String], seconds: Double }
        let resolved = enrichment.resolved
        // After an edit of record files alone, the animals none of whose files changed: what the
        // last build digested of them (for its pages and its pack records) still holds. Not one
        // whose file was read after it changed, though the walk found it unchanged (it changed
        // after the walk): what was read is not what the last build digested, and this build's
        // pages show what was read. None when the records' folder did not hold the files the walk
        // found (a translation gone for a moment is not read, and its animal not named), when a
        // media file was read with other metadata than the walk found (its animal is not named
        // either), nor when a cached picture's check did not stand as it was (a picture damaged
        // in place would leave the cards, the catalogue and the pack record of its animal showing it).
        // (The preview's: what its last build kept of each animal, with the walk its change set
        // starts from.)
        // (None kept is none known: the record a preview session leaves holds its index alone.)
        let lastAnimals = previous.flatMap { $0.animals.isEmpty ? nil : $0.animals } ?? (previewRebuild ? memoWalk?.animals : nil)
        let unchangedAnimals = lastAnimals != nil && recordFilesAsWalked && mediaAsWalked && picturesAsBefore
            ? report.inputChanges?.unchangedAnimals(catalog.animals).map { $0.subtracting(readAfterAChange) } : nil
        // And the animal pages such an edit can change (``AffectedOutputs``): the others' inputs
        // are those of the last build, and so are their digests.
        let affectedPages = unchangedAnimals.flatMap { unchanged in
            lastAnimals.flatMap { Self.affectedAnimalPages(catalog, unchanged: unchanged, kept: $0) }
        }
        let makePacks = { () throws(DiagnosticError) -> Packs in
            let start = DispatchTime.now().uptimeNanoseconds
            // The records of the previous build's newest manifest, while that file is as it wrote it.
            let kept = previous.flatMap { record -> KeptRecords? in
                guard let table = record.packRecords, writer.isAsWritten("packs/" + table.manifestPath, in: record.index),
                    let manifest = try? fs.readMapped(writer.output + "/packs/" + table.manifestPath)
                else { return nil }
                return KeptRecords(manifest: manifest, table: table)
            } ?? self.memo?.keptPackRecords()
            var output = try PackStage.run(
                catalog: catalog, media: media, summaries: resolved, options: self.options, now: buildDate, keys: signingKeys, kept: kept,
                lock: lockAhead?.value(), unrecorded: unrecordedPath, pending: pendingPath, publishedNote: publishedPath,
                outputIndex: OutputRecord.path(writer), memo: self.memo, unchanged: unchangedAnimals, leavingToExit: leaves)
            // The preview keeps this manifest's records for its next build.
            if let memo = self.memo {
                let manifest = output.recordTable.flatMap { table in
                    output.files.first { $0.path == table.manifestPath }?.data.map { KeptRecords(manifest: $0, table: table, madeHere: true) }
                }
                memo.keepPackRecords(manifest)
            }
            var paths: [String] = []
            if let staging {
                paths = try self.stageEarly(PackStage.outputFiles(output), staging, writer, previous, sourceInfos)
                output.files = []
            }
            return Packs(output: output, paths: paths, seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        // The preview too: it runs on, so its peak is not the goal's, and each rebuild is waited for.
        let packsAhead = previous != nil || memo != nil ? Background(makePacks) : nil

        // The preview's render memo holds what render made, which the output holds only once the
        // write stage is done: a build that fails in between forgets it (the next would take a
        // page re-rendered here as unchanged, and the writer would leave the older one in place).
        var written = false
        defer { if !written { memo?.render.reset() } }
        let files: [OutputFile]
        do {
            files = try stage("render") { () throws(DiagnosticError) in
            let prepared = try PreparedTheme.load(
                root: options.root, fileSystem: fs, languages: catalog.config.languages, config: catalog.config.location(of: "languages"))
            diagnostics.append(contentsOf: prepared.warnings)
            // site.yml and the pages were read by the load stage, the theme's files just now.
            sourcesAsWalked = state.changedSinceWalk(sourceLines).isEmpty
            let (theme, templates, strings, assets) = (prepared.theme, prepared.templates, prepared.strings, prepared.assets)
            // (Each table made at its whole size: growing them was 1 % of a one-record rebuild.)
            var mediaOutputs: [String: MediaOutput] = Dictionary(minimumCapacity: media.count)
            var files: [OutputFile] = []
            files.reserveCapacity(media.count + enrichment.files.count)
            var recordMedia = Set<String>(minimumCapacity: media.count)
            for record in media.values.sorted(by: { $0.contentPath < $1.contentPath }) {
                mediaOutputs[record.contentPath] = MediaOutput(path: record.sitePath, bytes: record.bytes, width: record.width, height: record.height)
                // Two media files with the same bytes are one file in the output.
                if recordMedia.insert(record.sitePath).inserted {
                    files.append(OutputFile(path: record.sitePath, linking: record.fullPath))
                }
            }
            files.append(contentsOf: enrichment.files.values.filter { !recordMedia.contains($0.path) })
            let siteID = catalog.config.packs?.id ?? String(Hashing.sha256Hex(baseURL).prefix(8))
            let input = RenderInput(
                catalog: catalog, theme: theme, templates: templates, strings: strings, assets: assets,
                summaries: enrichment.views, media: mediaOutputs, buildDate: buildDate, baseURL: baseURL, siteID: siteID)
            let renderer = SiteRenderer(input)
            let rendered: [OutputFile]
            if let staging {
                let reuse = previous.map { record in
                    var reuse = PageReuse(
                        digests: record.digests, nameOrders: record.nameOrders, fragments: record.fragments,
                        read: { path in (try? fs.readShared(writer.output + "/" + path))?.array }
                    ) { [touched] path in
                        let asWritten = writer.isAsWritten(path, in: record.index)
                        // A page whose inputs did not change, not as the last build wrote it.
                        if !asWritten, record.index.entries[path] != nil { touched.insert(path) }
                        return asWritten
                    }
                    // A list page's kept cards are slices of its previous file, mapped: it is written in parts.
                    reuse.readFile = { path in try? fs.readMapped(writer.output + "/" + path) }
                    if let unchangedAnimals {
                        reuse.animalDigests.reserveCapacity(unchangedAnimals.count)
                        for (id, animal) in record.animals where unchangedAnimals.contains(id) { reuse.animalDigests[id] = animal.digest }
                        reuse.affectedAnimalPages = affectedPages
                    }
                    return reuse
                }
                do {
                    let result = try renderer.render(reusing: reuse, streamingAnimalPagesTo: staging.add)
                    (rendered, streamed, kept, pageDigests) = (result.files, result.streamed, result.kept, result.digests)
                    nameOrders = result.nameOrders
                    fragments = result.fragments
                    keptAnimals = Self.keptAnimals(catalog, digests: result.animalDigests)
                } catch {
                    throw DiagnosticError(.error("cannot write the site: \(error); \(options.outputDirectory) is unchanged", stage: "write"))
                }
            } else {
                do {
                    // The preview: pages taken from its memo by their digests (nothing else throws).
                    if let memo {
                        var known: [String: String] = [:]
                        if let unchangedAnimals, let lastAnimals {
                            known.reserveCapacity(unchangedAnimals.count)
                            for (id, animal) in lastAnimals where unchangedAnimals.contains(id) { known[id] = animal.digest }
                        }
                        let made = try renderer.render(
                            memo: memo.render, animalDigests: known, affectedAnimalPages: unchangedAnimals == nil ? nil : affectedPages)
                        rendered = made.files
                        keptAnimals = Self.keptAnimals(catalog, digests: made.animalDigests)
                    } else {
                        rendered = renderer.render()
                    }
                } catch {
                    throw DiagnosticError(.error("cannot render the site: \(error)", stage: "render"))
                }
            }
            report.pages = rendered.filter { $0.path.hasSuffix(".html") }.count + streamed.count + kept.count
            files.append(contentsOf: rendered)
            // Two files at one path would make the output depend on write order.
            var seen = Set<String>(minimumCapacity: streamed.count + kept.count + files.count)
            for path in streamed { seen.insert(path) }
            for path in kept { seen.insert(path) }
            var duplicates: [String] = []
            files = files.filter { file in
                if seen.insert(file.path).inserted { return true }
                duplicates.append(file.path)
                return false
            }
            if !duplicates.isEmpty {
                throw DiagnosticError(.error("two outputs at the same path: \(duplicates.sorted().prefix(5).joined(separator: ", "))", stage: "render"))
            }
            let reusedPages = memo?.pagesReused ?? kept.count
            report.pagesReused = reusedPages
            let reused = reusedPages > 0 ? " (\(report.pages - reusedPages) rendered, \(reusedPages) unchanged)" : ""
            let detail = "\(report.pages) pages\(reused), \(files.count + streamed.count + kept.count) files"
            if let staging {
                built.append(contentsOf: try stageEarly(files, staging, writer, previous, sourceInfos))
                return ([], detail)
            }
            // The preview's, in no particular order (see the write stage).
            return (files, detail)
            }
        } catch {
            // Not a thread left writing into a staging folder the failed build drops.
            _ = try? packsAhead?.value()
            throw error
        }

        // The pages are made: what only they needed goes before the packs stage adds its own.
        if leaves { ProcessMemory.leaveToExit([enrichment.views, enrichment.files]) }
        enrichment.views = [:]
        enrichment.files = [:]

        // The kept entries and file facts are saved and freed before a full build's packs add their memory.
        entriesSaved?.value()
        entriesSaved = nil
        factsSaved?.value()
        factsSaved = nil
        let packs: Packs = try stage("packs", ownTime: { packsAhead == nil ? nil : $0.seconds }) { () throws(DiagnosticError) in
            let made: Packs
            if let packsAhead { made = try packsAhead.value() } else { made = try makePacks() }
            diagnostics.append(contentsOf: made.output.diagnostics)
            built.append(contentsOf: made.paths)
            return (made, made.output.summary)
        }

        if recordsSaved == nil { recordsSaved = records.map { records in Background { _ = records.save(recordsPath, fileSystem: fs) } } }
        // Every input has been read: what they are now is taken while the output is written (the
        // lock this build writes after it is looked at again then), by a full build, `--force`, and
        // the preview's first build. Not a rebuild, which records its first walk (``recordedWalk``).
        let afterAhead: Background<[String], Never>? = walked == nil ? Background { state.snapshot(now: started) } : nil

        var recordSaved: Background<Void, Never>?
        // Whatever happens next, no thread is left writing once the build returns (a failed
        // build's process may exit at once, and a test may remove the folder).
        defer {
            recordsSaved?.value()
            recordSaved?.value()
            _ = afterAhead?.value()
        }
        // A new version is noted as pending until the lock records it: killed between the
        // output's swap and the lock's write (a museum's `kill -9`), the next build made another
        // version of that number with other bytes. It takes a pending note only if the output
        // publishes that version (``PackStage/outputPublishes(_:options:)``); one the build could
        // note as unrecorded (the lock's write failed, after the swap) it takes in any case.
        if options.recordsPackVersions, packs.output.lock != nil, let published = packs.output.published {
            _ = PackStage.writeVersionNote(published, at: pendingPath, fileSystem: fs)
        }
        report.files = try stage("write") { () throws(DiagnosticError) in
            guard let memo else {
                guard let staging else { preconditionFailure("a build without a memo stages its output") }
                let count = built.count + streamed.count + kept.count + 1
                guard let previous else {
                    let entries = staging.entries
                    // The record describes the staging folder, which the swap makes the output (its
                    // identity is kept): its bytes are made while the folders are stamped and the
                    // output swapped, and written while the build records its state.
                    let folder = OutputRecord.folderIdentity(of: staging.path, fs)
                    let recordTable = packs.output.recordTable
                    let encoding = folder.map { folder in
                        Background {
                            OutputRecord(
                                tool: tool, outputFolder: folder, index: OutputIndex(entries: entries), digests: pageDigests,
                                nameOrders: nameOrders, fragments: fragments, packRecords: recordTable, animals: keptAnimals
                            ).encoded().map(OutputRecord.Bytes.whole)
                        }
                    }
                    let stamps = FolderStamps.take(below: staging.path, folders: Array(FolderStamps.folders(of: entries.keys)), fileSystem: fs)
                    // From the swap until the new record is written, an old record would not describe the output.
                    OutputRecord.forget(writer)
                    do throws(DiagnosticError) {
                        try staging.commit()
                    } catch {
                        _ = encoding?.value()
                        throw error
                    }
                    try? fs.remove(writer.spareFoldersPath)
                    recordSaved = Self.saveRecord(encoding, folder: folder, stamps: stamps, writer)
                    return (count, "\(count) files to \(options.outputDirectory)")
                }
                let changed = try updateInPlace(
                    writer, staging, built: built + kept + streamed, previous: previous, pageDigests: pageDigests, nameOrders: nameOrders,
                    fragments: fragments, packRecords: packs.output.recordTable, animals: keptAnimals, recordSaved: &recordSaved)
                return (count, "\(changed) of \(count) files changed in \(options.outputDirectory)")
            }
            // In no particular order: each way of writing or checking them takes them in parallel
            // into an index by path (sorting 83,000 paths took 40–75 ms of each preview rebuild).
            let all = files + PackStage.outputFiles(packs.output)
            if adoptsOutput, memo.output(for: options.outputDirectory) == nil, let index = writer.index(ifHolding: all) {
                memo.setOutput(index, for: options.outputDirectory, folder: OutputRecord.folderIdentity(writer))
                report.changedOutputs = []
                return (all.count + 1, "0 of \(all.count + 1) files changed in \(options.outputDirectory)")
            }
            // The preview keeps its index in memory; a one-shot build's record no longer describes
            // the output once the preview changed it. Read first, though, when this session has not
            // written the output yet: a build's output differs from the preview's in every page
            // (they name the site's base_url, not this server) but in few other files. Its media,
            // pictures and packs' media (63,000 of 83,800 files on the bench corpus) are then kept
            // as they are, not linked anew into a new folder with the old output and its spare
            // deleted (10.5 s of a preview's start on a build's output there, 2026-12-07).
            let sessionIndex = memo.output(for: options.outputDirectory)
            let buildRecord = sessionIndex == nil ? OutputRecord.load(writer, tool: tool) : nil
            OutputRecord.forget(writer)
            // And the stamps of the output's folders it was read with (a record made at the end of
            // the session does not go by them).
            try? fs.remove(writer.foldersPath)
            // In place when this session wrote the output and it is still there (not deleted
            // meanwhile), or a one-shot build did and its record says what it holds.
            if let previous = sessionIndex ?? buildRecord?.index, writer.holdsOutput {
                let fromBuildRecord = sessionIndex == nil
                // Until this update is complete, the output is no longer what the state says.
                state.forget()
                memo.setOutput(nil, for: options.outputDirectory)
                // The media files' metadata as this build's walk found them, and the pictures' as
                // the Wikipedia cache listed them, by the path a link names.
                let pictures = pictureInfos
                let sources = listed.map { listed in
                    { @Sendable (source: String) -> FileInfo? in
                        if let picture = pictures[source] { return picture }
                        return source.hasPrefix(contentPrefix) ? listed.file("content/" + source.dropFirst(contentPrefix.count)) : nil
                    }
                }
                do throws(DiagnosticError) {
                    let (index, changed) = try writer.update(all, previous: consume previous, unchanged: memo.render.reusedPaths, sources: sources)
                    memo.setOutput(index, for: options.outputDirectory, folder: OutputRecord.folderIdentity(writer))
                    report.changedOutputs = changed
                    return (all.count + 1, "\(changed.count) of \(all.count + 1) files changed in \(options.outputDirectory)")
                } catch {
                    // A one-shot build's output this first build could not update in place (made
                    // read-only: the swap below writes nothing into it) is written anew, as it
                    // was before the build's record was read. A rebuild's failure stands.
                    if !fromBuildRecord { throw error }
                }
            }
            // (Not this session's output any more, whatever the write leaves.)
            memo.setOutput(nil, for: options.outputDirectory)
            let index = try writer.write(all)
            memo.setOutput(index, for: options.outputDirectory, folder: OutputRecord.folderIdentity(writer))
            return (all.count + 1, "\(all.count + 1) files to \(options.outputDirectory)")
        }
        written = true
        replacedOutput = true

        // The inputs as they were once read, taken before the lock is written (the walk would see
        // its temporary file).
        let snapshotAfter = afterAhead?.value()

        // Only now that the new version can be downloaded does the history record it.
        var wroteLock = false
        // What it wrote, for the next build to read again: its walk takes the lock's metadata as
        // it is after this write, which another write within the same clock tick (or before the
        // inputs are looked at again below) would keep.
        var lockWritten: BuildState.RacyFile?
        if let lock = packs.output.lock, options.recordsPackVersions {
            let path = options.root + "/" + PackLock.path
            do {
                wroteLock = true
                try fs.writeAtomically(lock, to: path)
                lockWritten = BuildState.RacyFile(path: PackLock.path, wrote: lock)
                for note in [unrecordedPath, pendingPath] where fs.info(note) != nil { try? fs.remove(note) }
            } catch {
                let noted = packs.output.published.map { PackStage.writeVersionNote($0, at: unrecordedPath, fileSystem: fs) } ?? false
                if noted { try? fs.remove(pendingPath) }
                let next = noted
                    ? "build again before changing the content: the next build then records version \(packs.output.version) as published, with the same bytes"
                    : "nor could the note of it be written next to the output: build again before changing the content, with the same SOURCE_DATE_EPOCH if one was set, to record version \(packs.output.version) with the same bytes"
                throw DiagnosticError(.error(
                    "the site is built, but \(PackLock.path) could not be updated (\(error)); \(next)",
                    at: SourceLocation(path: PackLock.path), stage: "write"))
            }
            report.notes.append("\(PackLock.path): recorded pack version \(packs.output.version); commit it with the content")
        }
        // The version this output publishes, noted next to it once the lock records it (a lock
        // that could not be written noted it as unrecorded above): a later build whose history
        // lacks it (the lock lost) stops instead of numbering below it. Never the preview's.
        if options.recordsPackVersions, let published = packs.output.published {
            _ = PackStage.writeVersionNote(published, at: publishedPath, fileSystem: fs)
        }

        // What another user's build (root's) left next to the output, which this one cannot remove.
        if memo == nil {
            for name in writer.stuckLeftovers() {
                diagnostics.append(.warning(
                    "cannot remove \(writer.parent == "." ? "" : writer.parent + "/")\(name), which a build left next to \(options.outputDirectory): it is another user's (a build run as root?); remove it as that user (sudo rm -rf …)",
                    stage: "write"))
            }
        }

        // Record what this output was built from, unless an input changed meanwhile (the lock
        // this build wrote, and content/'s own time with it, excepted).
        mark = DispatchTime.now().uptimeNanoseconds
        // Nothing, though, when a record, translation or media file was read with other metadata
        // than the walk found (site.yml, a page or a theme's file had other metadata once read), or the records' folder did not hold what the walk found: the walk (and a second
        // one, when the file was put back as it was, renamed back) would describe inputs this
        // build did not read. The next build then digests every animal again.
        let readAsWalked = readAfterAChange.isEmpty && recordFilesAsWalked && mediaAsWalked && sourcesAsWalked
        // What it wrote itself is looked at again; the lock it did not write is an input like any
        // other (the preview never writes it).
        let wroteItself = wroteLock ? ownWrites : []
        let recorded = readAsWalked ? walked.flatMap { Self.recordedWalk($0, state: state, ownWrites: wroteItself) } : nil
        let after = recorded ?? snapshotAfter.flatMap { state.refreshing($0, wroteItself) } ?? state.snapshot(now: started)
        let unchangedMeanwhile = recorded != nil || BuildState.digest(after, except: wroteItself) == (wroteLock ? inputsBefore : inputsBeforeWhole)
        let fingerprint = readAsWalked && unchangedMeanwhile ? state.fingerprint(after) : nil
        // The walk (3 MB on the bench corpus) is kept while the other kept files are saved, and
        // the fingerprint recorded after it.
        let walkKept = memo == nil ? fingerprint.map { _ in Background { state.keep(after) } } : nil
        if fingerprint == nil { state.forget() }
        // The preview keeps it in its memo, for its next rebuild's change set.
        if let memo, fingerprint != nil, !keptAnimals.isEmpty {
            memo.keepWalk(BuildMemo.Walk(lines: after, started: FileFacts.nanoseconds(walkStarted), animals: keptAnimals))
        }
        upkeep("inputs checked again")
        recordsSaved?.value()
        recordSaved?.value()
        if let fingerprint {
            walkKept?.value()
            state.record(BuildState.Recorded(fingerprint: fingerprint, racy: racyFiles.filter { !wroteItself.contains($0.path) } + (lockWritten.map { [$0] } ?? [])))
        }
        upkeep("kept files saved")
        if options.exitsAfterBuild {
            ProcessMemory.leaveToExit([
                catalog, enrichment, resolved, media, packs, previous as Any, staging as Any, pageDigests, streamed, kept, built, records as Any,
                fragments, keptAnimals,
            ])
        }
        return finished()
    }

    /// A one-shot build puts a stage's files into the staging folder as soon as the stage made
    /// them, so that they are not held in memory until the write stage (a 10,000-animal site's
    /// lists, catalogue and pack manifest are tens of MB each). With the previous build's record,
    /// only the files whose bytes differ from what the output holds are staged. Returns the paths
    /// of all of `files`.
    private func stageEarly(
        _ files: [OutputFile], _ staging: OutputWriter.Staging, _ writer: OutputWriter, _ previous: OutputRecord?,
        _ sources: [String: FileInfo]
    ) throws(DiagnosticError) -> [String] {
        guard let previous else {
            try staging.add(files)
            return files.map(\.path)
        }
        let checks = OutputChecks(writer: writer, index: previous.index, files: files, sources: sources, stamps: previous.stamps)
        let differing = Parallel.map(files, chunk: 64) { file in checks.changed(file) }.compactMap { $0 }
        // Of these, those not as the last build wrote them, though their bytes or media file are
        // what they were: changed or removed by another hand. (A media file changed in place
        // changes its link in the output too: not counted.)
        // (Nor is a file the record names in another Unicode form: a theme's file renamed so.)
        for file in differing {
            guard let place = previous.index.entries.index(forKey: file.path), PathText.sameBytes(previous.index.entries.keys[place], file.path),
                !writer.isAsWritten(file.path, in: previous.index)
            else { continue }
            let entry = previous.index.entries.values[place]
            switch file.content {
            case .data, .parts: touched.insert(file.path)
            case .file(let source):
                if let info = sources[source] ?? writer.fileSystem.infoFollowingLinks(source), OutputChecks.identity(entry.identity, links: info) {
                    touched.insert(file.path)
                }
            }
        }
        try staging.add(differing)
        return files.map(\.path)
    }

    /// The one-shot build's write when the previous build left its record: the staging folder
    /// holds the files whose bytes changed (``stageEarly(_:_:_:_:_:)``, and the pages the render
    /// stage streamed); every other file of this build (`paths` is all of them) is linked into it
    /// from the output, and it is swapped in whole (``OutputWriter/commitReusing(_:unchanged:index:beforeSwap:)``).
    /// Returns the number of files replaced, added or removed.
    private func updateInPlace(
        _ writer: OutputWriter, _ staging: OutputWriter.Staging, built paths: [String], previous: OutputRecord,
        pageDigests: [String: String], nameOrders: [String: [Int]], fragments: [String: FragmentTable], packRecords: PackRecordTable?,
        animals: [String: KeptAnimal], recordSaved: inout Background<Void, Never>?
    ) throws(DiagnosticError) -> Int {
        let old = previous.index.entries
        let staged = staging.entries
        // One pass over the paths (each once: the stages' paths never repeat one another), each
        // hashed once to be found in the old index, and among the staged files only when one of
        // them has its length. The new index is the old one with the staged entries set and the
        // paths no longer made taken out (``RebuiltIndex``: no copy of the old table); those paths
        // are the old entries no path found, by their places in the table.
        let mayBeStaged = LengthFilter(staged.keys)
        var unchanged: [String] = []
        unchanged.reserveCapacity(paths.count)
        var found: [Dictionary<String, OutputIndex.Entry>.Index] = []
        found.reserveCapacity(min(paths.count, old.count))
        // A path the old index has under other bytes (the same name in another Unicode form,
        // one key to a dictionary): keyed by this build's bytes, as the output's file is.
        var set: [String: OutputIndex.Entry] = [:]
        var respelled: [String] = []
        var stagedMade = Set<String>()
        for path in paths {
            if let place = old.index(forKey: path) {
                found.append(place)
                if !PathText.sameBytes(old.keys[place], path) {
                    set[path] = old.values[place]
                    respelled.append(old.keys[place])
                }
            }
            if mayBeStaged.mayContain(path), staged[path] != nil { stagedMade.insert(path) } else { unchanged.append(path) }
        }
        // Where the output this build replaces (the next spare) will differ from the new one:
        // what this build wrote, and what it no longer makes: the old entries no path found.
        let removed = OutputIndex.keys(of: old, notAt: found)
        found = []
        // (Only the files made: a staged file this build does not make, which no stage stages, is
        // left out. Each under this build's bytes of its path: an entry set in place keeps its key's.)
        for (path, entry) in staged where stagedMade.contains(path) {
            set[path] = nil
            set[path] = entry
        }
        let index = RebuiltIndex(old: old, set: set, removed: removed)
        // With the stamps of its folders, that tells the next build what the spare holds.
        let spare = previous.stamps != nil ? (folder: previous.outputFolder, differs: Array(staged.keys) + removed) : nil
        // The new record describes the staging folder, which the swap makes the output (the
        // same folder: its identity is kept), so its bytes are made while the unchanged files
        // are linked; it is written once the swap is done. Its lines are the old record's where
        // they stand (``OutputRecord/spliced(_:index:dropped:)``).
        let folder = OutputRecord.folderIdentity(of: staging.path, writer.fileSystem)
        let encoding = folder.map { folder in
            Background { () -> OutputRecord.Bytes? in
                let record = OutputRecord(
                    tool: previous.tool, outputFolder: folder, index: OutputIndex(), digests: pageDigests, nameOrders: nameOrders,
                    fragments: fragments, packRecords: packRecords, animals: animals, spare: spare)
                return record.spliced(previous, index: index, dropped: respelled)
            }
        }
        let stamps: FolderStamps?
        var foreign: [String] = []
        do {
            stamps = try writer.commitReusing(
                staging, unchanged: unchanged, index: index, removed: removed, previousFolders: previous.stamps, foreign: &foreign
            ) {
                // From the swap until the new record is written, the output is not what the old record says.
                BuildState(options: options, tool: "").forget()
                OutputRecord.forget(writer)
            }
        } catch {
            _ = encoding?.value()
            throw error
        }
        if let named = Self.naming(foreign, in: writer.output) {
            diagnostics.warning(
                "\(named): not made by bestiary; kept in the new output, but a build that writes the whole output anew (--force, a new version of bestiary, a `serve` that cannot update it in place) leaves it out. Keep such files outside the output and copy them in when you publish",
                stage: "write")
        }
        // (Only those this build makes: a content-hashed file whose name went is just removed.)
        if let named = Self.naming(touched.sorted.filter { index[$0] != nil }, in: writer.output) {
            diagnostics.warning(
                "\(named): changed or removed since the last build, not by bestiary; made again from content/ and templates/. A build undoes changes made in the output: make them in the content or the theme, or in a copy of the output after each build",
                stage: "write")
        }
        // The output it replaced is now the spare: the stamps of its folders go with it.
        let fs = writer.fileSystem
        if (try? fs.move(writer.foldersPath, to: writer.spareFoldersPath)) == nil { try? fs.remove(writer.spareFoldersPath) }
        recordSaved = Self.saveRecord(encoding, folder: folder, stamps: stamps, writer)
        return staged.count + removed.count
    }

    /// What a rebuild (one-shot or the preview's) records as the inputs its output was made from: its first walk,
    /// with the lines of what the build itself wrote (`content/packs.lock`, and `content/`'s own
    /// line) made from the files as they are now; nil when one of those was made or removed
    /// meanwhile (then the inputs are walked again and compared, as a full build does).
    ///
    /// A full build walks every input a second time instead and records nothing when one changed
    /// while it ran. The first walk does as well: an input changed after it was walked has other
    /// metadata now (its size, time or inode), so the next build's walk differs from the one
    /// recorded, and that build names it as changed and makes again what it touches, starting
    /// from what the output record keeps of its animal: what this build read of it, which is what
    /// its pages were made from (a file read with other metadata than the walk found records no
    /// walk at all: ``ContentLoader/Result/readAfterAChange``). The preview's next rebuild
    /// compares what it reads with its memo, and its watcher has seen the change. Only the walk's
    /// lines are kept for this, not 60,000 lines through a full build's peak; the second walk took
    /// about 0.1 CPU-s of every rebuild of the bench corpus, beside its write stage (0.1–0.16 CPU-s
    /// of each of the preview's).
    static func recordedWalk(_ walk: [String], state: BuildState, ownWrites: Set<String>) -> [String]? {
        state.refreshing(walk, ownWrites)
    }

    /// What each animal's pages were made from (`digests`, in the catalogue's order), which the
    /// next build's rules start from (``affectedAnimalPages``) if its file changes. An animal
    /// taken as unchanged was read as the walk found it (``ContentLoader/Result/readAfterAChange``),
    /// so its group and difficulty are those the last build kept with its digest.
    static func keptAnimals(_ catalog: Catalog, digests: [String]) -> [String: KeptAnimal] {
        var kept: [String: KeptAnimal] = [:]
        kept.reserveCapacity(catalog.animals.count)
        for (animal, digest) in zip(catalog.animals, digests) {
            kept[animal.id] = KeptAnimal(digest: digest, group: animal.group, difficulty: animal.difficulty)
        }
        return kept
    }

    /// The animal pages an edit of the records of the animals not `unchanged` can change, by
    /// ``AffectedOutputs``, with each edited animal's group and difficulty before the edit as
    /// the last build `kept` them; nil when it did not keep one (or the edit changed an id).
    static func affectedAnimalPages(_ catalog: Catalog, unchanged: Set<String>, kept: [String: KeptAnimal]) -> Set<String>? {
        // (The catalogue's ids are unique: the load stage refuses a second record of one.)
        var places: [(before: AffectedOutputs.Placement, after: AffectedOutputs.Placement)] = []
        places.reserveCapacity(catalog.animals.count)
        var changed = Set<String>()
        for animal in catalog.animals {
            let now = AffectedOutputs.Placement(animal)
            guard !unchanged.contains(animal.id) else {
                places.append((now, now))
                continue
            }
            guard let old = kept[animal.id] else { return nil }
            changed.insert(animal.id)
            places.append((AffectedOutputs.Placement(id: animal.id, group: old.group, difficulty: old.difficulty), now))
        }
        return AffectedOutputs.of(places, changed: changed, config: catalog.config).animalPages
    }

    /// "OUTPUT/FIRST and N more (A, B, C, …)" for a warning about `paths` of the output; nil for none.
    static func naming(_ paths: [String], in output: String) -> String? {
        guard let first = paths.first else { return nil }
        let more = paths.count > 1 ? " and \(paths.count - 1) more (\(paths.dropFirst().prefix(3).joined(separator: ", "))\(paths.count > 4 ? ", …" : ""))" : ""
        return "\(output)/\(first)\(more)"
    }

    /// After the swap, the output record made beside it (`encoding`, of the staging folder
    /// `folder`) and the new output's folder stamps, written on a thread of their own while the
    /// build records its state, when the output is that folder. A build killed in between leaves
    /// no record: the next one writes the whole output anew.
    private static func saveRecord(
        _ encoding: Background<OutputRecord.Bytes?, Never>?, folder: String?, stamps: FolderStamps?, _ writer: OutputWriter
    ) -> Background<Void, Never>? {
        guard let encoding, let folder, OutputRecord.folderIdentity(writer) == folder else {
            _ = encoding?.value()
            return nil
        }
        let fs = writer.fileSystem
        return Background {
            FolderStamps.save(stamps, writer.foldersPath, folder: folder, fileSystem: fs)
            OutputRecord.write(encoding.value(), writer)
        }
    }

    /// At the end of a preview session, the record of the output as the session last wrote it
    /// (``BuildMemo``'s index of it, when its last write was complete), so that the next one-shot
    /// `bestiary build` updates that output as a rebuild does instead of writing it whole anew:
    /// it renders every page again (they name the site's base_url, not the preview's server)
    /// but keeps the media, pictures and pack media where they are. The record holds the index
    /// alone: no page digests (no page is taken as it is), no list cards, pack records or
    /// animals, and no spare (the spare is walked). The stamps of the output's folders, which
    /// the last one-shot build took, go: the build looks at every file. Nothing is written when
    /// the session did not write the output.
    public static func recordPreviewOutput(_ memo: BuildMemo, options: BuildOptions) {
        let fs = options.fileSystem
        let writer = OutputWriter(fileSystem: fs, output: options.outputDirectory)
        // Only for the very folder the session wrote: one put in its place since (restored from
        // a copy) holds what the index does not say.
        guard let index = memo.output(for: options.outputDirectory), writer.holdsOutput, let folder = OutputRecord.folderIdentity(writer),
            memo.outputFolder(for: options.outputDirectory) == folder
        else { return }
        try? fs.remove(writer.foldersPath)
        let record = OutputRecord(tool: BuildState(options: options).tool, outputFolder: folder, index: index, digests: [:])
        OutputRecord.write(record.encoded().map(OutputRecord.Bytes.whole), writer)
    }

    /// A one-shot build of an output `bestiary serve` is previewing would be overwritten by the
    /// preview's next rebuild, which its own writes (content/packs.lock) set off at once, and the
    /// output would hold the preview's files (local addresses, unsigned packs) where a deployable
    /// build was asked for (found by a tester).
    func refuseWhilePreviewed(_ writer: OutputWriter) throws(DiagnosticError) {
        guard case .held = FileLock.tryAcquire(writer.servingPath, creating: false) else { return }
        throw DiagnosticError(.error(
            "\(options.outputDirectory) is being previewed by `bestiary serve`, which would overwrite this build at its next rebuild with the preview's files (local addresses, unsigned packs); stop the preview (Ctrl-C) and build again, or build into another folder with --output",
            stage: "write"))
    }

    /// Held by `bestiary serve` while it previews the output, so that a one-shot `bestiary build`
    /// of the same output refuses (``refuseWhilePreviewed(_:)``); a second `serve` of the same
    /// output is refused too. Nil when the lock cannot be had for another reason (an unwritable
    /// folder: the first build says so).
    public func holdForPreview() throws(DiagnosticError) -> FileLock? {
        let writer = OutputWriter(fileSystem: options.fileSystem, output: options.outputDirectory)
        switch FileLock.tryAcquire(writer.servingPath) {
        case .acquired(let lock): return lock
        case .held:
            throw DiagnosticError(.error(
                "\(options.outputDirectory) is already being previewed by another `bestiary serve`; stop it, or preview into another folder with --output",
                stage: "write"))
        case .unavailable: return nil
        }
    }

    /// What `serve` checks before it listens, as a build does before it makes anything next to
    /// the output: the root is a site, and the output is neither in its sources nor a folder of
    /// other files (the preview serves its output folder as it is).
    public func checkBeforeServing() throws(DiagnosticError) {
        try checkSiteRoot()
        try checkOutputLocation()
        try OutputWriter(fileSystem: options.fileSystem, output: options.outputDirectory).refuseForeignOutput()
    }

    /// A root without `content/site.yml` (a mistyped `--root`) fails here, before the build lock
    /// would make the output's folder.
    func checkSiteRoot() throws(DiagnosticError) {
        let fs = options.fileSystem
        guard fs.info(Catalog.contentDirectory(root: options.root) + "/site.yml") == nil else { return }
        let (_, problems) = ContentLoader(root: options.root, fileSystem: fs).loadConfig()
        throw DiagnosticError(problems.isEmpty ? [.error("no content/site.yml under \(options.root)", stage: "load")] : problems)
    }

    /// The output must not be, or contain, the site's own sources, nor lie below a file.
    func checkOutputLocation() throws(DiagnosticError) {
        let fs = options.fileSystem
        func real(_ path: String) -> String {
            if let r = try? fs.realPath(path) { return r }
            // Not there yet: resolve its parent.
            let parent = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
            let name = path.split(separator: "/").last.map(String.init) ?? path
            return ((try? fs.realPath(parent.isEmpty ? "/" : parent)) ?? parent) + "/" + name
        }
        // A file where a folder above the output should be (`--output notes.txt/site`).
        var above = PathText.parent(options.outputDirectory)
        while !above.isEmpty, above != "/", fs.info(above) == nil { above = PathText.parent(above) }
        if !above.isEmpty, let info = fs.infoFollowingLinks(above), info.kind != .directory {
            throw DiagnosticError(.error(
                "--output \(options.outputDirectory) is below \(above), which is a file, not a folder; choose another --output", stage: "write"))
        }
        let output = real(options.outputDirectory)
        let root = real(options.root)
        for protected in [root, real(options.root + "/content"), real(options.root + "/templates")] {
            if output == protected || protected.hasPrefix(output == "/" ? "/" : output + "/") || output.hasPrefix(root + "/content/")
                || output.hasPrefix(root + "/templates/")
            {
                throw DiagnosticError(.error(
                    "--output \(options.outputDirectory) would overwrite the site's sources; choose a folder outside content/ and templates/",
                    stage: "write"))
            }
        }
    }
}

/// Paths noted from several threads: the output's files found changed or removed by another hand
/// (``SiteBuilder``, said once), the trees a build discarded or handed on (``OutputWriter``).
final class LockedPaths: @unchecked Sendable {
    private let lock = NSLock()
    private var paths = Set<String>()

    func insert(_ path: String) { lock.withLock { _ = paths.insert(path) } }
    func contains(_ path: String) -> Bool { lock.withLock { paths.contains(path) } }
    var sorted: [String] { lock.withLock { paths.sorted() } }
}
