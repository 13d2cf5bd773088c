import BestiaryContent
import BestiaryDiagnostics
import BestiaryStorage
import Foundation

/// The cache as read by ``WikipediaCache/load()``: every intact entry, and an index from the
/// titles records ask for (normalised) to those entries. Immutable, so `build` can share it
/// between threads.
public struct WikipediaSnapshot: Sendable {
    /// A (language, title) pair; titles in ``WikipediaTitle/normalize(_:)`` form.
    public struct Key: Hashable, Sendable, Comparable {
        public var language: String
        public var title: String

        public init(language: String, title: String) {
            self.language = language
            self.title = title
        }

        public static func < (a: Key, b: Key) -> Bool { (a.language, a.title) < (b.language, b.title) }
    }

    public let cache: WikipediaCache
    /// Entries by (language, canonical title).
    public let entries: [Key: WikipediaEntry]
    /// Requested title → canonical key.
    public let index: [Key: Key]
    /// Problems found while reading (damaged entries and pictures): warnings, stage `enrich`.
    public let diagnostics: [Diagnostic]
    /// Paths (relative to `content/`) of the pictures checked intact by ``WikipediaCache/load()``;
    /// nil when not checked beforehand (each is then checked when resolved).
    public let intactImages: Set<String>?
    /// How many pictures ``WikipediaCache/load()`` checked one by one (by the preview's memo, the
    /// file facts or their bytes); 0 when their checks stood as a whole, as the last build made
    /// them.
    public internal(set) var picturesChecked = 0
    /// The pictures' folder as ``WikipediaCache/load()`` listed it, each file with its metadata
    /// (empty when there is none): the preview's update takes them for its links to the pictures
    /// instead of looking at each link (``pictureInfos(prefix:)``).
    public internal(set) var pictureFiles: [(entry: DirectoryEntry, info: FileInfo?)] = []
    /// When this snapshot is the one the preview's memo keeps whole (``CacheMemo``): the digest
    /// of the cache's folder as the walk listed it and of the pictures' folder as it was listed.
    /// Two snapshots with the same stamp hold the same entries and picture checks (each entry
    /// file by its metadata, settled), so what was looked up in one holds in the other, but for
    /// the refusals a lookup reads (``PageLookup/refuses(aTitleOf:)``). nil otherwise.
    public internal(set) var wholeStamp: String?

    /// ``pictureFiles`` by path (`prefix` + `wikipedia/images/NAME`): the regular files.
    public func pictureInfos(prefix contentPrefix: String) -> [String: FileInfo] {
        var infos: [String: FileInfo] = [:]
        infos.reserveCapacity(pictureFiles.count)
        let prefix = contentPrefix + WikipediaCache.imagesFolder + "/"
        for (entry, info) in pictureFiles where entry.kind == .file {
            if let info, info.kind == .file { infos[prefix + entry.name] = info }
        }
        return infos
    }

    /// A snapshot of given entries (tests of later stages build one without files; images are
    /// still looked up under `cache`). ``WikipediaCache/load()`` is the usual way to get one.
    public init(cache: WikipediaCache, entries: [Key: WikipediaEntry], diagnostics: [Diagnostic] = [], intactImages: Set<String>? = nil) {
        self.init(cache: cache, entries: entries, index: Self.index(of: entries), diagnostics: diagnostics, intactImages: intactImages)
    }

    /// A snapshot whose index was made from these very entries (``CacheMemo`` keeps it whole).
    init(cache: WikipediaCache, entries: [Key: WikipediaEntry], index: [Key: Key], diagnostics: [Diagnostic], intactImages: Set<String>?) {
        self.cache = cache
        self.entries = entries
        self.index = index
        self.diagnostics = diagnostics
        self.intactImages = intactImages
    }

    /// Requested titles → canonical keys (``index``).
    static func index(of entries: [Key: WikipediaEntry]) -> [Key: Key] {
        var index: [Key: Key] = [:]
        index.reserveCapacity(entries.count * 2)
        // A title leads to the entry a fetch last filed it under (its `requested`); only a title no
        // entry lists leads to the entry whose own title it is. After a rename (`Rotfuchs` now
        // redirects to `Fuchs (Art)`) the old entry stays, listing nothing, and must not win: it
        // did, and pages kept the old text (found by a tester).
        var byOwnTitle: [Key: Key] = [:]
        byOwnTitle.reserveCapacity(entries.count)
        // Sorted, so that a title claimed by two entries (a redirect changed target) resolves the
        // same way on every machine: the entry whose own title it is wins, else the first.
        for key in entries.keys.sorted() {
            let i = entries.index(forKey: key)!
            // Read in place (an entry taken out is a copy of all its fields).
            let canonical = entries.values[i].canonicalTitle
            for title in entries.values[i].requested {
                let requested = Key(language: key.language, title: WikipediaTitle.normalize(title))
                if index[requested] == nil || title == canonical { index[requested] = key }
            }
            let own = Key(language: key.language, title: WikipediaTitle.normalize(canonical))
            if byOwnTitle[own] == nil { byOwnTitle[own] = key }
        }
        for (title, key) in byOwnTitle where index[title] == nil { index[title] = key }
        return index
    }

    /// The entry a record's title leads to (following redirects recorded at fetch time).
    public func entry(language: String, title: String) -> WikipediaEntry? {
        index[Key(language: language, title: WikipediaTitle.normalize(title))].flatMap { entries[$0] }
    }

    /// The summary to show on `animal`'s page in `language`.
    ///
    /// Tries the record's title in `language`, then along `fallback` (the site's languages:
    /// `SiteConfig.fallback(for:)`), and returns the first cached one, marked as a fallback when
    /// its language differs. A title in the page's own language that is not in the cache (never
    /// fetched, refused, or damaged) yields a warning at the record's `wikipedia.LANG` field, stage
    /// `enrich`, saying what that page shows meanwhile (another language's summary, the record's
    /// description, or nothing). The other languages' titles are warned about by their own pages'
    /// lookups. A build never fails for a missing summary.
    ///
    /// `refused`: the stems of the page language's titles a later fetch found no article for
    /// (``WikipediaCache/refusedStems(language:)``): a cached summary of one still shows, and is
    /// warned about (a refresh that found the article deleted left its old text without a word).
    public func summary(for animal: Animal, language: String, fallback: [String], refused: Set<String>? = nil) -> SummaryLookup {
        var order = [language]
        for lang in fallback where !order.contains(lang) { order.append(lang) }
        var found: ResolvedSummary? = nil
        var missing: String? = nil
        var stale: [Diagnostic] = []
        for lang in order {
            guard let title = animal.wikipedia[lang] else { continue }
            guard let entry = entry(language: lang, title: title) else {
                if lang == language { missing = title }
                continue
            }
            found = resolve(entry, pageLanguage: language)
            // The stem (a folding and a SHA-256) is made only when some title was refused: on
            // 20,000 lookups it was 2.6 % of a one-record rebuild's CPU (docs/BENCHMARKS.md).
            if lang == language, case let stems = refused ?? cache.refusedStems(language: language), !stems.isEmpty,
                stems.contains(WikipediaCache.refusalStem(language: lang, title: title)),
                let reason = cache.refusal(language: lang, title: title)
            {
                stale.append(.warning(
                    "wikipedia.\(lang): the last `bestiary fetch` found that \(reason); the page still shows the summary cached on \(entry.fetchedAt.prefix(10)) (revision \(entry.revision)) until the title is mended or removed",
                    at: animal.location(of: "wikipedia.\(lang)"), stage: "enrich"))
            }
            break
        }
        guard let title = missing else { return SummaryLookup(summary: found, diagnostics: stale) }
        let meanwhile = "(until then its page in \(language) shows \(Self.shown(on: animal, language: language, fallback: order, summary: found)))"
        // A title the last fetch found no usable article for: fetching again will not help.
        let message = cache.refusal(language: language, title: title).map { reason in
            "wikipedia.\(language): '\(title)' has no summary: the last `bestiary fetch` found that \(reason) \(meanwhile)"
        } ?? "wikipedia.\(language): '\(title)' is not in the Wikipedia cache; run `bestiary fetch` \(meanwhile)"
        return SummaryLookup(summary: found, diagnostics: [.warning(message, at: animal.location(of: "wikipedia.\(language)"), stage: "enrich")])
    }

    /// What the page in `language` shows as the animal's text without its own language's summary,
    /// as the renderer chooses it (`AnimalView.shortText`): another language's summary unless the
    /// record has a description in the page's language, else the record's description in the
    /// first language it has one in.
    static func shown(on animal: Animal, language: String, fallback: [String], summary: ResolvedSummary?) -> String {
        if let summary, !animal.prefersOwnDescription(in: language, overSummaryIn: summary.language) {
            return "the summary from \(summary.language).wikipedia"
        }
        guard let description = animal.description.resolve(language, fallback: fallback) else {
            return "no summary or description"
        }
        return description.language == language ? "the record's description" : "the record's description in \(description.language)"
    }

    /// Summaries of every record in every site language: `[animal id: [page language: summary]]`,
    /// with the warnings for missing entries (each reported once per record and language).
    public func summaries(for catalog: Catalog) -> (summaries: [String: [String: ResolvedSummary]], diagnostics: [Diagnostic]) {
        let lookup = PageLookup(catalog.config, snapshot: self)
        // Looked up on every core; gathered in catalogue order, so the diagnostics' order is fixed.
        let found = Parallel.map(catalog.animals, chunk: 64) { pages(of: $0, lookup) }
        var result: [String: [String: ResolvedSummary]] = [:]
        result.reserveCapacity(catalog.animals.count)
        var diagnostics = self.diagnostics
        var seen = Set<Diagnostic>()
        for (animal, found) in zip(catalog.animals, found) {
            if !found.pages.isEmpty { result[animal.id] = found.pages }
            for d in found.diagnostics where seen.insert(d).inserted { diagnostics.append(d) }
        }
        return (result, diagnostics)
    }

    /// The site's page languages, each with its fallback list, and the titles fetches found no
    /// article for: what ``pages(of:_:)`` needs of the site, made once for the catalogue.
    public struct PageLookup: Sendable {
        public let languages: [(language: String, fallback: [String])]
        let refused: [String: Set<String>]

        public init(_ config: SiteConfig, snapshot: WikipediaSnapshot) {
            languages = config.languages.map { ($0, config.fallback(for: $0)) }
            // Listed once per language.
            refused = Dictionary(
                languages.map { ($0.language, snapshot.cache.refusedStems(language: $0.language)) }, uniquingKeysWith: { a, _ in a })
        }

        /// Whether a fetch found no article for one of `animal`'s titles in a page language: its
        /// lookups then read that refusal's file (``WikipediaCache/refusal(language:title:)``),
        /// which no digest of the cache's listing vouches for (its folder may be a link).
        public func refuses(aTitleOf animal: Animal) -> Bool {
            refused.contains { language, stems in
                !stems.isEmpty && animal.wikipedia[language].map { stems.contains(WikipediaCache.refusalStem(language: language, title: $0)) } == true
            }
        }
    }

    /// One animal's summary per page language (the languages without one left out), and its
    /// lookups' warnings in the site's language order: ``summaries(for:)`` for one record, safe to
    /// call from any thread.
    public func pages(of animal: Animal, _ lookup: PageLookup) -> (pages: [String: ResolvedSummary], diagnostics: [Diagnostic]) {
        var pages: [String: ResolvedSummary] = [:]
        var diagnostics: [Diagnostic] = []
        for (language, fallback) in lookup.languages {
            let found = summary(for: animal, language: language, fallback: fallback, refused: lookup.refused[language])
            if let s = found.summary { pages[language] = s }
            diagnostics.append(contentsOf: found.diagnostics)
        }
        // An article without a lead picture (a new revision dropped it) left its pages, and
        // the quiz, without one while another language's article has one (a curator's): that
        // picture, along the same fallback as the text, said to be that article's.
        guard pages.values.contains(where: { $0.image == nil }) else { return (pages, diagnostics) }
        for (language, fallback) in lookup.languages where pages[language].map({ $0.image == nil }) == true {
            guard let lender = fallback.lazy.compactMap({ pages[$0] }).first(where: { $0.image != nil && $0.language != pages[language]!.language }),
                var image = lender.image
            else { continue }
            if image.borrowedFrom == nil { image.borrowedFrom = ResolvedImage.Article(language: lender.language, url: lender.url) }
            pages[language]!.image = image
        }
        return (pages, diagnostics)
    }

    /// An entry as a page shows it, with the image files checked (a missing image file drops the
    /// image, never the text).
    public func resolve(_ entry: WikipediaEntry, pageLanguage: String) -> ResolvedSummary {
        var image: ResolvedImage? = nil
        if let cached = entry.image {
            let intact = cached.renditions.filter { intactImages?.contains($0.path) ?? cache.imageIsIntact($0, verifyHash: true) }
            if !intact.isEmpty {
                image = ResolvedImage(
                    file: cached.file,
                    renditions: intact.sorted { $0.width < $1.width }.map {
                        ResolvedImage.Rendition(
                            width: $0.width, height: $0.height, path: $0.path, absolutePath: cache.imageFile($0.path),
                            sha256: $0.sha256, format: $0.format, bytes: $0.bytes)
                    },
                    attribution: cached.attribution.map(Self.withoutControls),
                    descriptionURL: cached.attribution?.descriptionURL)
            }
        }
        // Wikipedia's text and Commons' credits go into pages and packs as they are, but for
        // control characters (a page cannot show them; the user cannot mend them in the cache).
        let clean = ControlCharacter.removed(from:)
        return ResolvedSummary(
            pageLanguage: pageLanguage, language: entry.language, direction: entry.direction, title: clean(entry.title),
            canonicalTitle: entry.canonicalTitle, description: entry.description.map(clean), extract: clean(entry.extract),
            extractHTML: clean(entry.extractHTML), url: entry.url, revision: entry.revision, lastEdited: entry.lastEdited,
            license: entry.license, image: image)
    }

    private static func withoutControls(_ attribution: ImageAttribution) -> ImageAttribution {
        var clean = attribution
        clean.artist = attribution.artist.map(ControlCharacter.removed(from:))
        clean.credit = attribution.credit.map(ControlCharacter.removed(from:))
        clean.license?.name = ControlCharacter.removed(from: attribution.license?.name ?? "")
        return clean
    }
}

/// The outcome of ``WikipediaSnapshot/summary(for:language:fallback:)``.
public struct SummaryLookup: Sendable {
    /// nil when no language along the fallback has a cached summary.
    public var summary: ResolvedSummary?
    /// Warnings for titles the record gives that are not cached.
    public var diagnostics: [Diagnostic]

    public init(summary: ResolvedSummary?, diagnostics: [Diagnostic]) {
        self.summary = summary
        self.diagnostics = diagnostics
    }
}
