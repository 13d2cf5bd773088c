import BestiaryContent
import BestiaryStorage
import BestiaryTemplate
import Foundation

/// The render stage: every page of the site in every language, plus the quiz catalogue, the
/// sitemap, the web app manifest and the 404 page. Pure: inputs in, files out (the write stage
/// puts them on disk), so two runs over the same inputs give the same bytes.
public struct SiteRenderer: Sendable {
    public let input: RenderInput
    let paths: SitePaths

    public init(_ input: RenderInput) {
        self.input = input
        self.paths = SitePaths(defaultLanguage: input.catalog.config.defaultLanguage)
    }

    var config: SiteConfig { input.catalog.config }

    /// One page to render.
    enum Job: Sendable {
        case home(String)
        case animal(Int, String)  // index into catalog.animals
        case collection(String)
        case quiz(String)
        case credits(String)
        case sightings(String)
        case settings(String)
        case offline(String)
        case page(Int, String)
        case notFound

        /// Pages the service worker precaches (``shellPages()``).
        var isShell: Bool {
            switch self {
            case .animal, .credits: false
            default: true
            }
        }
    }

    /// Everything the render stage writes, sorted by path.
    public func render() -> [OutputFile] {
        renderAll()
    }

    /// The same, in a process that renders again and again (the preview): pages whose input
    /// digest is that of the memo's last render are taken from it, the list pages and the
    /// catalogue copy unchanged animals' cards and objects from its bytes, as a one-shot
    /// rebuild does from the previous output (``render(reusing:streamingAnimalPagesTo:)``).
    /// `animalDigests` and `affectedAnimalPages`: what the caller knows still holds of the last
    /// render's animals (``PageReuse/animalDigests``, ``PageReuse/affectedAnimalPages``). Returns
    /// the files, in no particular order (the preview's writer takes them into an index by path),
    /// and each animal's input digest (``RenderResult/animalDigests``).
    public func render(
        memo: RenderMemo, animalDigests: [String: String] = [:], affectedAnimalPages: Set<String>? = nil
    ) throws -> (files: [OutputFile], animalDigests: [String]) {
        var previous = memo.previous()
        previous?.reuse.animalDigests = animalDigests
        previous?.reuse.affectedAnimalPages = affectedAnimalPages
        let lock = NSLock()
        var pages: [OutputFile] = []
        let result = try render(reusing: previous?.reuse) { page in
            lock.lock()
            pages.append(page)
            lock.unlock()
        }
        var files = result.files + pages
        for path in result.kept {
            // Kept only where the memo held the file (``PageReuse/intact``).
            guard let file = previous?.files[path] else { preconditionFailure("a kept page the memo does not hold: \(path)") }
            files.append(file)
        }
        memo.finish(result, files: files)
        return (files, result.animalDigests)
    }

    /// For a build in a new process (`bestiary build`): hands each rendered animal page to `sink`
    /// (from the worker threads, as soon as it is rendered) instead of returning it, so a large
    /// catalogue's pages are never all in memory at once, and skips every page whose input digest
    /// equals the one in `previous` and whose file the previous build wrote is intact. Returns the
    /// other files, sorted, the paths given to `sink`, the pages kept, and every page's digest.
    public func render(reusing previous: PageReuse? = nil, streamingAnimalPagesTo sink: @escaping (OutputFile) throws -> Void) throws -> RenderResult {
        // A rebuild makes the sitemap on a thread of its own while the shared context and every
        // page's input digest are computed, then the quiz catalogue and its descriptions' files
        // (6.5 and 6.7 MB on the bench corpus) from the animals' parts in the previous ones where
        // their digests are unchanged; only the pages that link the catalogue need its
        // (content-hashed) name. A full build makes them in turn: made on other threads, their
        // memory raised its peak by 4–13 MiB.
        let sitemapAhead = previous != nil ? Background { Sitemap.file(renderer: self) } : nil
        let jobs = allJobs()
        let shared = SharedContext(renderer: self, catalogPath: "", knownOrders: previous?.nameOrders ?? [:])
        if previous == nil { shared.makeCards() }
        let digests = PageDigests(renderer: self, shared: shared, known: previous?.animalDigests ?? [:])
        shared.animalDigests = digests.animals
        let catalog = CatalogJSON.files(
            input: input, digests: digests.animals, kept: previous?.keptCatalog(salt: CatalogJSON.salt(config), languages: config.languages))
        shared.catalogPath = catalog.catalog.path
        enum Outcome { case kept, streamed, file(OutputFile) }
        let results = try Parallel.map(jobs, chunk: 32) { job -> (String, String, Outcome, FragmentTable?) in
            let path = location(of: job).file
            let before = previous?.digests[path]
            let digest: String
            if case .animal = job, let before, let affected = previous?.affectedAnimalPages, !affected.contains(path) {
                digest = before
            } else {
                digest = digests.digest(of: job)
            }
            // The app shell is always rendered: the service worker's version digests its bytes.
            if let previous, !job.isShell, before == digest, previous.intact(path) {
                return (path, digest, .kept, previous.fragments[path])
            }
            let (file, table) = renderPage(job, shared: shared, site: digests.site, previous: previous)
            guard case .animal = job else { return (path, digest, .file(file), table) }
            try sink(file)
            return (path, digest, .streamed, table)
        }
        var result = RenderResult()
        result.nameOrders = shared.nameOrders
        result.animalDigests = digests.animals
        result.fragments.merge(catalog.tables) { _, new in new }
        for (path, digest, outcome, table) in results {
            result.digests[path] = digest
            if let table { result.fragments[path] = table }
            switch outcome {
            case .kept: result.kept.append(path)
            case .streamed: result.streamed.append(path)
            case .file(let file): result.files.append(file)
            }
        }
        result.files += finishing(&result.files, catalog: catalog, sitemap: sitemapAhead?.value())
        result.files.sort { $0.path < $1.path }
        return result
    }

    private func allJobs() -> [Job] {
        var jobs: [Job] = []
        for lang in config.languages {
            jobs.append(.home(lang))
            jobs.append(.collection(lang))
            jobs.append(.quiz(lang))
            jobs.append(.credits(lang))
            jobs.append(.sightings(lang))
            jobs.append(.settings(lang))
            jobs.append(.offline(lang))
            for i in input.catalog.pages.indices { jobs.append(.page(i, lang)) }
            for i in input.catalog.animals.indices { jobs.append(.animal(i, lang)) }
        }
        jobs.append(.notFound)
        return jobs
    }

    private func renderAll() -> [OutputFile] {
        let catalog = CatalogJSON.files(input: input)
        let jobs = allJobs()
        let shared = SharedContext(renderer: self, catalogPath: catalog.catalog.path)
        shared.makeCards()
        var files = Parallel.map(jobs, chunk: 32) { job in renderPage(job, shared: shared) }
        files += finishing(&files, catalog: catalog)
        files.sort { $0.path < $1.path }
        return files
    }

    /// The files made from the whole site rather than one page: the quiz catalogue and its
    /// descriptions, the sitemap, the web app manifest, the theme's assets and the service worker
    /// (which lists the others).
    /// The worker's version digests the bytes of the app shell's `pages` and of the files it
    /// precaches: each of them gets that SHA-256 to keep, which the write stage takes to check it
    /// against the last build and to stage it (it hashed each again: a tenth of a small site's
    /// rebuild, and the list pages are megabytes at 10,000 animals).
    private func finishing(_ pages: inout [OutputFile], catalog: CatalogJSON.Files, sitemap: OutputFile? = nil) -> [OutputFile] {
        let shell = Set(shellPages())
        for i in pages.indices where pages[i].sha256 == nil && shell.contains(pages[i].path) {
            if let digest = pages[i].dataSHA256 { pages[i] = pages[i].knowing(sha256: digest) }
        }
        var files = catalog.all + [sitemap ?? Sitemap.file(renderer: self)]
        files += WebManifest.files(renderer: self).map { file in file.dataSHA256.map { file.knowing(sha256: $0) } ?? file }
        files.append(contentsOf: input.assets.files)
        files.append(ServiceWorker.file(renderer: self, files: pages + files, catalog: catalog.all.map(\.path)))
        return files
    }

    func siteKey(_ shared: SharedContext) -> SiteKey {
        SiteKey(
            config: config,
            navigation: input.catalog.pages.map { SiteKey.NavigationKey(slug: $0.slug, title: $0.title, weight: $0.weight) },
            strings: shared.flatStrings, assets: input.assets.urls, baseURL: input.baseURL, siteID: input.siteID,
            buildDay: shared.buildDay)
    }

    func animalKey(_ animal: Animal) -> AnimalKey {
        let paths = [animal.sound?.filePath, animal.image?.filePath]
        return AnimalKey(animal: animal, summaries: input.summaries[animal.id], media: paths.map { $0.flatMap { input.media[$0] } })
    }

    /// What a job's page is rendered from (``PageDigests``); `animals`: every animal's digest.
    func pageKey(_ job: Job, shared: SharedContext, animals: [String]) -> PageKey {
        let t = input.templates
        switch job {
        case .animal(let i, _):
            let shown = [i] + shared.similarIndices(input.catalog.animals[i])
            return PageKey(templates: t.digest("layouts/animal", "markdown/animal"), animals: shown.map { animals[$0] })
        case .page(let i, _):
            return PageKey(templates: t.digest("layouts/page", "markdown/page"), page: input.catalog.pages[i])
        case .home:
            return PageKey(templates: t.digest("layouts/home"), everyAnimal: true, catalogPath: shared.catalogPath)
        case .settings:
            return PageKey(templates: t.digest("layouts/settings"), everyAnimal: true, catalogPath: shared.catalogPath)
        case .quiz:
            return PageKey(templates: t.digest("layouts/quiz"), catalogPath: shared.catalogPath)
        case .collection:
            return PageKey(templates: t.digest("layouts/collection"), everyAnimal: true)
        case .sightings:
            return PageKey(templates: t.digest("layouts/sightings"), everyAnimal: true)
        case .credits:
            return PageKey(templates: t.digest("layouts/credits"), everyAnimal: true)
        case .offline:
            return PageKey(templates: t.digest("layouts/offline"))
        case .notFound:
            return PageKey(templates: t.digest("layouts/404"))
        }
    }

    /// The output path of a job's HTML file and its directory.
    func location(of job: Job) -> (directory: String, file: String) {
        let dir: String
        switch job {
        case .home(let l): dir = paths.home(l)
        case .animal(let i, let l): dir = paths.animal(input.catalog.animals[i].id, l)
        case .collection(let l): dir = paths.collection(l)
        case .quiz(let l): dir = paths.quiz(l)
        case .credits(let l): dir = paths.credits(l)
        case .sightings(let l): dir = paths.sightings(l)
        case .settings(let l): dir = paths.settings(l)
        case .offline(let l): dir = paths.offline(l)
        case .page(let i, let l): dir = paths.page(input.catalog.pages[i].slug, l)
        case .notFound: return ("", "404.html")
        }
        return (dir, dir + "index.html")
    }

    func renderPage(_ job: Job, shared: SharedContext) -> OutputFile {
        let (template, context) = pageContext(job, shared: shared)
        return OutputFile(path: location(of: job).file, text: input.templates.render(template, context))
    }

    /// Renders a page whose context may hold keyed lists (``SharedContext/animalDigests``),
    /// copying the cards `previous` kept for it, and says where its cards went; a page that
    /// recorded no card has no table.
    func renderPage(_ job: Job, shared: SharedContext, site: String, previous: PageReuse?) -> (OutputFile, FragmentTable?) {
        let (template, context) = pageContext(job, shared: shared)
        let path = location(of: job).file
        let libraryDigest = input.templates.libraryDigest
        let cards = PageCards(path: path, previous: previous) {
            StableDigest.combine([site, libraryDigest, FragmentTable.contextDigest(context)])
        }
        let page = input.templates.render(template, context, keeping: cards)
        let table = page.fragments.isEmpty ? nil : FragmentTable(salt: cards.salt, entries: page.fragments)
        guard !page.splices.isEmpty else { return (OutputFile(path: path, data: Data(page.bytes)), table) }
        // (Only a kept file gives ranges to splice: without it, the page would lack its cards.)
        guard let file = cards.file else { preconditionFailure("\(path): kept cards spliced without their file") }
        // Its own bytes and the runs of kept cards, as slices of the previous file, in turn.
        var parts: [Data] = []
        parts.reserveCapacity(page.splices.count * 2 + 1)
        var own = 0
        for splice in page.splices {
            if splice.at > own { parts.append(Data(page.bytes[own..<splice.at])) }
            parts.append(file[(file.startIndex + splice.range.lowerBound)..<(file.startIndex + splice.range.upperBound)])
            own = splice.at
        }
        if page.bytes.count > own { parts.append(Data(page.bytes[own...])) }
        return (OutputFile(path: path, content: .parts(parts)), table)
    }

    /// The template a job's page is rendered with and its context.
    func pageContext(_ job: Job, shared: SharedContext) -> (String, [String: TemplateValue]) {
        let directory = location(of: job).directory
        switch job {
        case .home(let lang): return ("layouts/home", shared.home(lang, directory: directory))
        case .animal(let i, let lang): return ("layouts/animal", shared.animal(i, lang, directory: directory))
        case .collection(let lang): return ("layouts/collection", shared.collection(lang, directory: directory))
        case .quiz(let lang): return ("layouts/quiz", shared.quiz(lang, directory: directory))
        case .credits(let lang): return ("layouts/credits", shared.credits(lang, directory: directory))
        case .sightings(let lang): return ("layouts/sightings", shared.sightings(lang, directory: directory))
        case .settings(let lang): return ("layouts/settings", shared.settings(lang, directory: directory))
        case .offline(let lang): return ("layouts/offline", shared.offline(lang, directory: directory))
        case .page(let i, let lang): return ("layouts/page", shared.page(input.catalog.pages[i], lang, directory: directory))
        case .notFound: return ("layouts/404", shared.notFound())
        }
    }

    /// The pages the service worker precaches, as output paths: every language's app shell (home,
    /// quiz, collection, sightings, settings, the offline page) and free pages, and the 404 page.
    /// Animal pages and credits are cached as they are visited (a catalogue may hold thousands).
    func shellPages() -> [String] {
        var result: [String] = ["404.html"]
        for lang in config.languages {
            for dir in [paths.home(lang), paths.quiz(lang), paths.collection(lang), paths.sightings(lang), paths.settings(lang), paths.offline(lang)] {
                result.append(dir + "index.html")
            }
            for page in input.catalog.pages { result.append(paths.page(page.slug, lang) + "index.html") }
        }
        return result
    }

    /// Every HTML page's directory for the sitemap (not the 404 page), language by language (in
    /// site.yml's order), the pages in the same order in each: home, quiz, collection, credits,
    /// sightings, settings, the free pages, the animals.
    func sitemapDirectories() -> [String] {
        let pages = input.catalog.pages, animals = input.catalog.animals
        var result: [String] = []
        result.reserveCapacity(config.languages.count * (6 + pages.count + animals.count))
        for lang in config.languages {
            for page in [paths.home, paths.quiz, paths.collection, paths.credits, paths.sightings, paths.settings] { result.append(page(lang)) }
            for page in pages { result.append(paths.page(page.slug, lang)) }
            for animal in animals { result.append(paths.animal(animal.id, lang)) }
        }
        return result
    }
}
