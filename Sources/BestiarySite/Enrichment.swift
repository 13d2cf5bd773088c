import BestiaryContent
import BestiaryDiagnostics
import BestiaryRender
import BestiaryStorage
import BestiaryWikipedia
import Foundation

/// The enrich stage: each animal's Wikipedia summary per page language (along the site's
/// fallback list), from the cache under `content/wikipedia/` alone. A missing or damaged entry is
/// a warning and the page falls back to the record's own description.
struct Enrichment {
    /// Animal id → page language → what the page shows.
    var views: [String: [String: SummaryView]] = [:]
    /// The same, as the cache resolved it (the packs carry these).
    var resolved: [String: [String: ResolvedSummary]] = [:]
    /// Lead images to copy into `media/`, by output path.
    var files: [String: OutputFile] = [:]
    var diagnostics: [Diagnostic] = []
    /// How many animal pages show a summary (the stage's report).
    var pagesWithSummary = 0

    static func run(
        _ catalog: Catalog, fileSystem: any FileSystem, memo: CacheMemo? = nil, facts: FileFacts? = nil,
        kept: KeptByFile<WikipediaEntry>? = nil
    ) -> Enrichment {
        run(catalog, snapshot: cache(root: catalog.root, fileSystem: fileSystem, memo: memo, facts: facts, kept: kept))
    }

    /// The cache's entries and pictures, checked: what does not need the records, so a build reads
    /// it while it loads them.
    /// `listing`: the cache's folder as the build's walk over the inputs saw it (``WikipediaCache/Listing``).
    static func cache(
        root: String, fileSystem: any FileSystem, memo: CacheMemo? = nil, facts: FileFacts? = nil, kept: KeptByFile<WikipediaEntry>? = nil,
        listing: WikipediaCache.Listing? = nil
    ) -> WikipediaSnapshot {
        var cache = WikipediaCache(root: root, fileSystem: fileSystem, memo: memo, facts: facts, kept: kept)
        cache.listing = listing
        return cache.load()
    }

    /// `memo`: what the preview's last build looked up for each animal, taken for an animal whose
    /// lookups read the same bytes while the snapshot has the same stamp (``EnrichMemo``).
    static func run(_ catalog: Catalog, snapshot: WikipediaSnapshot, memo: EnrichMemo? = nil) -> Enrichment {
        let lookup = WikipediaSnapshot.PageLookup(catalog.config, snapshot: snapshot)
        let token = snapshot.wholeStamp.map { EnrichMemo.token(stamp: $0, lookup: lookup) }
        let taken = token.flatMap { memo?.take(under: $0) }
        let known = taken?.animals ?? [:]
        // One pass on every core: each animal's summaries, its pages' views and the image files
        // they plan (a second pass over the summaries, and a merge of each chunk's dictionaries,
        // were 2 % of a one-record rebuild's CPU on the bench corpus).
        let found = Parallel.map(catalog.animals, chunk: 64) { animal -> (EnrichMemo.Looked, anew: Bool) in
            let key = memo == nil || token == nil ? [] : EnrichMemo.key(of: animal)
            // An animal one of whose titles was refused reads that refusal's file: looked up again.
            if let looked = known[animal.id], looked.key == key, !lookup.refuses(aTitleOf: animal) { return (looked, false) }
            let (pages, diagnostics) = snapshot.pages(of: animal, lookup)
            var files: [(String, OutputFile)] = []
            let views = pages.mapValues { view(of: $0, planning: &files) }
            return (EnrichMemo.Looked(key: key, pages: pages, views: views, files: files, diagnostics: diagnostics), true)
        }
        let lookedUp = found.lazy.filter(\.anew).count
        // Every animal's lookups taken, for the same ids in the same order: what the last build
        // made of them is what this one would make (the snapshot, kept whole, warns of nothing).
        let ids = memo == nil ? [] : catalog.animals.map(\.id)
        if let memo, let token, let taken, lookedUp == 0, taken.ids == ids {
            memo.keep(EnrichMemo.Kept(token: token, animals: taken.animals, ids: ids, result: taken.result), lookedUp: 0)
            return taken.result
        }
        let animals = found.map(\.0)
        var result = Enrichment()
        result.resolved.reserveCapacity(animals.count)
        result.views.reserveCapacity(animals.count)
        // Grown once, not by doubling while 29,110 pictures are put in one by one.
        result.files.reserveCapacity(animals.reduce(0) { $0 + $1.files.count })
        // Gathered in catalogue order, so the diagnostics' order is fixed (as `summaries(for:)`'s).
        var diagnostics = snapshot.diagnostics
        var seen = Set<Diagnostic>()
        for (animal, looked) in zip(catalog.animals, animals) {
            let (pages, views, files, found) = (looked.pages, looked.views, looked.files, looked.diagnostics)
            if !pages.isEmpty {
                result.resolved[animal.id] = pages
                result.views[animal.id] = views
            }
            // The same rendition planned twice is the same file.
            for (path, file) in files { result.files[path] = file }
            for d in found where seen.insert(d).inserted { diagnostics.append(d) }
            // The pages that show one: not those whose own description in their language comes
            // before another language's summary (counted in place: a filtered copy of each
            // animal's summaries took 30–40 ms of the bench corpus's rebuilds).
            for (language, summary) in pages where !animal.prefersOwnDescription(in: language, overSummaryIn: summary.language) {
                result.pagesWithSummary += 1
            }
        }
        // `diagnostics` begins with the snapshot's own (damaged entries and images).
        result.diagnostics = reported(diagnostics)
        if let memo {
            let animalsByID = Dictionary(zip(ids, animals), uniquingKeysWith: { a, _ in a })
            memo.keep(token.map { EnrichMemo.Kept(token: $0, animals: animalsByID, ids: ids, result: result) }, lookedUp: lookedUp)
        }
        return result
    }

    /// The cache's problems as the stage reports them: in its name, the missing articles condensed.
    static func reported(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        condensed(diagnostics.map { $0.inStage("enrich") })
    }

    /// A site that was never fetched would print a warning per article: a few are named, the
    /// rest counted (`bestiary fetch` names every one it fetches).
    static func condensed(_ diagnostics: [Diagnostic], shown: Int = 3) -> [Diagnostic] {
        let isMissing = { (d: Diagnostic) in d.message.contains("is not in the Wikipedia cache") }
        let missing = diagnostics.filter(isMissing)
        guard missing.count > shown + 1 else { return diagnostics }
        var result = diagnostics.filter { !isMissing($0) }
        result.append(contentsOf: missing.prefix(shown))
        result.append(.warning(
            "\(missing.count - shown) more Wikipedia articles named by records are not in the cache; run `bestiary fetch` to fetch them all",
            at: SourceLocation(path: "content/wikipedia"), stage: "enrich"))
        return result
    }

    /// `path.split(separator: ".").last?.lowercased() ?? format`, by bytes when the path is
    /// ASCII (as every picture `bestiary fetch` stores is: 58,000 views on the bench corpus).
    static func extensionOf(_ path: String, orElse format: String) -> String {
        let utf8 = path.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return path.split(separator: ".").last.map { $0.lowercased() } ?? format }
        // The last run of bytes that are not dots.
        let dot = UInt8(ascii: ".")
        var end = utf8.endIndex
        while end > utf8.startIndex, utf8[utf8.index(before: end)] == dot { end = utf8.index(before: end) }
        guard end > utf8.startIndex else { return format }
        var start = end
        while start > utf8.startIndex, utf8[utf8.index(before: start)] != dot { start = utf8.index(before: start) }
        return String(decoding: utf8[start..<end].map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// Maps a resolved summary to the renderer's view, planning its image files (by output path).
    static func view(of summary: ResolvedSummary, planning files: inout [(String, OutputFile)]) -> SummaryView {
        var image: WikiImageView?
        if let lead = summary.image, !lead.renditions.isEmpty {
            var variants: [MediaOutput] = []
            for rendition in lead.renditions {
                let ext = extensionOf(rendition.path, orElse: rendition.format)
                let path = "media/\(rendition.sha256.prefix(16)).\(ext)"
                files.append((path, OutputFile(path: path, linking: rendition.absolutePath)))
                variants.append(MediaOutput(path: path, bytes: rendition.bytes, width: rendition.width, height: rendition.height))
            }
            let attribution = lead.attribution
            image = WikiImageView(
                variants: variants,
                credit: attribution?.artist ?? attribution?.credit,
                license: attribution?.license?.name,
                licenseURL: attribution?.license?.url,
                sourceURL: attribution?.descriptionURL ?? lead.descriptionURL,
                articleLanguage: lead.borrowedFrom?.language, articleURL: lead.borrowedFrom?.url)
        }
        return SummaryView(
            text: summary.extract, language: summary.language, title: summary.title, articleURL: summary.url,
            license: summary.license.name, licenseURL: summary.license.url ?? "https://creativecommons.org/licenses/by-sa/4.0/",
            image: image)
    }
}

/// What the preview's enrich stage looked up for each animal in its last build, under the
/// snapshot's ``WikipediaSnapshot/wholeStamp`` and the site's page languages with their fallbacks:
/// while the next build's snapshot has the same stamp, an animal whose ``key(of:)`` is the same
/// bytes (its titles, descriptions and where its fields are written, which the warnings name) has
/// the same summaries, views, image files and warnings, and is not looked up again (20,000 lookups took
/// about 0.1 s of each rebuild of the bench corpus on both cores). A snapshot without a stamp
/// (a damaged entry or picture, an entry changed just before the build) keeps nothing. An animal
/// with a title a fetch found no article for is looked up on every build: its warning quotes the
/// refusal's file, which no digest vouches for (`.pending/` may be a link). Thread-safe.
final class EnrichMemo: @unchecked Sendable {
    struct Looked: Sendable {
        /// What the lookups read of the animal (``key(of:)``).
        var key: [UInt8]
        var pages: [String: ResolvedSummary]
        var views: [String: SummaryView]
        var files: [(String, OutputFile)]
        var diagnostics: [Diagnostic]
    }

    /// What one build looked up: each animal's lookups by id, the ids in the catalogue's order,
    /// and the stage's result made of them.
    struct Kept {
        var token: String
        var animals: [String: Looked]
        var ids: [String]
        var result: Enrichment
    }

    private let lock = NSLock()
    private var kept: Kept?

    /// What the stamp and the lookup's languages say about the lookups.
    static func token(stamp: String, lookup: WikipediaSnapshot.PageLookup) -> String {
        var token = stamp
        for (language, fallback) in lookup.languages {
            token += "\n" + language + ":" + fallback.joined(separator: ",")
        }
        return token
    }

    /// What ``WikipediaSnapshot/pages(of:_:)`` reads of an animal, as bytes: its record's path,
    /// its titles with where each is written, and its descriptions. Compared byte for byte, not
    /// by `==`, which takes a text and the same text in another Unicode form as one (a title
    /// respelled so would keep the warnings that quote it as they were).
    static func key(of animal: Animal) -> [UInt8] {
        var key: [UInt8] = []
        func add(_ text: String) {
            withUnsafeBytes(of: UInt32(text.utf8.count).littleEndian) { key.append(contentsOf: $0) }
            key.append(contentsOf: text.utf8)
        }
        func add(_ number: Int) { withUnsafeBytes(of: Int64(number).littleEndian) { key.append(contentsOf: $0) } }
        func sorted(_ values: [String: String]) -> [(key: String, value: String)] {
            values.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        }
        add(animal.sourcePath)
        add(animal.wikipedia.count)
        for (language, title) in sorted(animal.wikipedia) {
            add(language)
            add(title)
            let location = animal.location(of: "wikipedia.\(language)")
            add(location.path)
            add(location.line)
            add(location.column)
        }
        add(animal.description.values.count)
        for (language, text) in sorted(animal.description.values) {
            add(language)
            add(text)
        }
        return key
    }

    /// What was looked up under `token`, taken out (the build keeps what it looks up).
    func take(under token: String) -> Kept? {
        lock.withLock {
            defer { kept = nil }
            return kept?.token == token ? kept : nil
        }
    }

    func keep(_ looked: Kept?, lookedUp: Int) {
        lock.withLock {
            kept = looked
            lastLookedUp = lookedUp
        }
    }

    func reset() { lock.withLock { kept = nil } }

    /// Whether it holds anything, and how many animals the last build looked up anew (for tests).
    var holds: Bool { lock.withLock { kept != nil } }
    var lookedUp: Int { lock.withLock { lastLookedUp } }
    private var lastLookedUp = 0
}

/// What `bestiary check` reports of the Wikipedia cache: what the enrich stage would warn about
/// for a catalogue (entries missing from the cache, damaged entries and pictures).
public enum WikipediaCheck {
    public static func problems(of catalog: Catalog, fileSystem: any FileSystem) -> [Diagnostic] {
        check(of: catalog, fileSystem: fileSystem).problems
    }

    /// The problems, and for each animal the page languages that show a Wikipedia summary in
    /// their own language (one in another would give way to a description in the page's).
    public static func check(of catalog: Catalog, fileSystem: any FileSystem) -> (problems: [Diagnostic], summarised: [String: Set<String>]) {
        // What `run` reports, without the pages' views it makes.
        let snapshot = Enrichment.cache(root: catalog.root, fileSystem: fileSystem)
        let (summaries, diagnostics) = snapshot.summaries(for: catalog)
        return (
            Enrichment.reported(diagnostics) + neverAsked(catalog, summaries: summaries) + [unused(catalog, snapshot: snapshot)].compactMap { $0 },
            summaries.mapValues { Set($0.filter { $0.value.language == $0.key }.keys) }
        )
    }

    /// One note naming the cached articles no record names any more (a record removed, a title
    /// changed): nothing listed them, and their files' names are made from the title and a hash
    /// (a curator who removed records found them in the cache with no word).
    static func unused(_ catalog: Catalog, snapshot: WikipediaSnapshot) -> Diagnostic? {
        var named = Set<WikipediaSnapshot.Key>()
        for animal in catalog.animals {
            for (language, title) in animal.wikipedia {
                let asked = WikipediaSnapshot.Key(language: language, title: WikipediaTitle.normalize(title))
                named.insert(snapshot.index[asked] ?? asked)
            }
        }
        let unused = snapshot.entries.keys.filter { !named.contains($0) }.sorted()
        guard !unused.isEmpty else { return nil }
        let files = unused.map { WikipediaCache.relativeEntryPath(language: $0.language, canonicalTitle: snapshot.entries[$0]!.canonicalTitle) }
        let shown = files.prefix(5).joined(separator: ", ") + (files.count > 5 ? ", …" : "")
        return .note(
            "\(files.count) cached Wikipedia article\(files.count == 1 ? " is" : "s are") named by no record (records removed, or titles changed): \(shown); they are not published, and deleting those files drops them",
            at: SourceLocation(path: WikipediaCache.relativeDirectory), stage: "enrich")
    }

    /// Records the quiz can never ask: no sound, no picture, and no Wikipedia picture in the
    /// cache for the default language's page (a teacher's record without either passed in
    /// silence). It is only ever a wrong answer to choose.
    static func neverAsked(_ catalog: Catalog, summaries: [String: [String: ResolvedSummary]]) -> [Diagnostic] {
        let language = catalog.config.defaultLanguage
        return catalog.animals.compactMap { animal in
            guard animal.sound == nil, animal.image == nil, summaries[animal.id]?[language]?.image == nil else { return nil }
            // Its articles cached, none with a picture: fetching again does not help (a curator's).
            let fetch = animal.wikipedia.isEmpty ? ""
                : summaries[animal.id]?.isEmpty == false ? " (its cached Wikipedia articles have no lead picture)"
                : ", or run `bestiary fetch` for its Wikipedia picture"
            return .warning(
                "'\(animal.id)' has no sound and no picture, so the quiz never asks it (it is only offered as a wrong answer); add a sound: or an image:\(fetch)",
                at: animal.location(of: "name"), stage: "validate")
        }
    }
}
