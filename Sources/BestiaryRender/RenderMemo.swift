import BestiaryContent
import BestiaryStorage
import Foundation

/// What the render stage remembers from one build to the next in the same process (the
/// preview): the last render's page digests (``PageDigests``: the same inputs a one-shot rebuild
/// compares, ``PageReuse``), its orders by name, where the cards of its list pages and the
/// catalogue's objects are, and the bytes of every file it made. A page whose digest is
/// unchanged is not rendered again; the list pages and the catalogue copy unchanged animals'
/// cards and objects from their last bytes. Thread-safe; one render at a time.
public final class RenderMemo: @unchecked Sendable {
    private let lock = NSLock()
    private var last: (digests: [String: String], nameOrders: [String: [Int]], fragments: [String: FragmentTable])?
    private var files: [String: OutputFile] = [:]
    /// Pages rendered and pages reused by the last render.
    public private(set) var rendered = 0
    public var reused: Int { reusedPaths.count }
    /// The output paths of the pages the last render reused: their bytes are those of the render
    /// before, so the writer need not hash them again.
    public private(set) var reusedPaths: Set<String> = []

    public init() {}

    /// Forgets everything (the next render renders every page).
    public func reset() {
        lock.lock()
        defer { lock.unlock() }
        last = nil
        files = [:]
        reusedPaths = []
    }

    /// The last render as ``SiteRenderer/render(reusing:streamingAnimalPagesTo:)`` takes it (its
    /// files are "intact" while the memo holds their bytes), with those files. Nil before the
    /// first render.
    func previous() -> (reuse: PageReuse, files: [String: OutputFile])? {
        lock.lock()
        defer { lock.unlock() }
        guard let last else { return nil }
        let files = self.files
        let reuse = PageReuse(
            digests: last.digests, nameOrders: last.nameOrders, fragments: last.fragments,
            read: { path in files[path].flatMap { file in if case .data(let data) = file.content { [UInt8](data) } else { nil } } },
            intact: { files[$0] != nil })
        return (reuse, files)
    }

    /// Keeps this render: `result` and every file it made (and only them: files no longer made
    /// are dropped).
    func finish(_ result: RenderResult, files made: [OutputFile]) {
        lock.lock()
        defer { lock.unlock() }
        last = (result.digests, result.nameOrders, result.fragments)
        files = Dictionary(made.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        reusedPaths = Set(result.kept)
        rendered = result.digests.count - result.kept.count
    }
}

/// The inputs every page depends on.
struct SiteKey: Equatable, Encodable {
    var config: SiteConfig
    var navigation: [NavigationKey]
    var strings: [String: [String: String]]
    var assets: [String: String]
    var baseURL: String
    var siteID: String
    var buildDay: String

    struct NavigationKey: Equatable, Encodable {
        var slug: String
        var title: LocalizedText
        var weight: Int
    }
}

/// One animal as pages show it: the record, its summaries per language, its media in the output.
struct AnimalKey: Equatable, Encodable {
    var animal: Animal
    var summaries: [String: SummaryView]?
    var media: [MediaOutput?]

    /// Every field, fed by hand (``Animal/feed(into:)``; a test lists the fields of each type),
    /// the same in every process: 10,000 of them through the `Encodable` digest took half a CPU-second.
    var digest: String {
        var feed = DigestFeed()
        animal.feed(into: &feed)
        if let summaries {
            feed.add(summaries.count as Int?)
            for (language, view) in summaries.sorted(by: { $0.key < $1.key }) {
                feed.add(language)
                view.feed(into: &feed)
            }
        } else {
            feed.add(nil as Int?)
        }
        feed.add(count: media.count)
        for output in media { Self.feed(output, into: &feed) }
        return feed.finish()
    }

    static func feed(_ output: MediaOutput?, into feed: inout DigestFeed) {
        guard let output else {
            feed.add(nil as String?)
            return
        }
        feed.add(output.path)
        feed.add(output.bytes)
        feed.add(output.width)
        feed.add(output.height)
    }
}

extension SummaryView {
    func feed(into feed: inout DigestFeed) {
        feed.add(text)
        feed.add(language)
        feed.add(title)
        feed.add(articleURL)
        feed.add(license)
        feed.add(licenseURL)
        guard let image else {
            feed.add(nil as Int?)
            return
        }
        feed.add(image.variants.count as Int?)
        for variant in image.variants { AnimalKey.feed(variant, into: &feed) }
        feed.add(image.credit)
        feed.add(image.license)
        feed.add(image.licenseURL)
        feed.add(image.sourceURL)
        feed.add(image.articleLanguage)
        feed.add(image.articleURL)
    }
}

/// What one page is rendered from, beyond the ``SiteKey``; an animal stands for the digest of its
/// ``AnimalKey`` (``PageDigests``, which a one-shot rebuild and the preview's ``RenderMemo`` both
/// compare). A field added here must go into ``digestParts`` too (a test counts the fields).
struct PageKey: Equatable {
    /// The digest of the templates it renders with.
    var templates: String
    /// The digests of the animals it shows (itself and its similar cards, for an animal page).
    var animals: [String] = []
    /// It lists every animal: reusable only when no animal changed.
    var everyAnimal = false
    /// A free page's record.
    var page: ContentPage?
    /// The quiz catalogue's file name, for pages whose scripts load it.
    var catalogPath = ""
}

extension PageKey {
    /// Every field as a string, in a fixed order with the animals last and counted, so that no
    /// two keys give the same parts once each is length-prefixed (``StableDigest/combine(_:)``);
    /// only a free page's record goes through the `Encodable` digest.
    func digestParts(everyAnimalDigest: String) -> [String] {
        var parts = [
            templates, everyAnimal ? "every animal " + everyAnimalDigest : "", catalogPath,
            page.map { StableDigest.hex($0) } ?? "", String(animals.count),
        ]
        parts.append(contentsOf: animals)
        return parts
    }
}

// MARK: Across processes

/// What a build in a new process knows of the previous one's pages: the digest of the inputs each
/// was rendered from (``PageDigests``), and whether its file in the output is still as that build
/// wrote it. A page whose digest is unchanged and whose file is intact is not rendered again.
public struct PageReuse: Sendable {
    public var digests: [String: String]
    public var intact: @Sendable (String) -> Bool
    /// Its orders of the animals by name (``RenderResult/nameOrders``).
    public var nameOrders: [String: [Int]]
    /// Where the cards of its list pages are in their files (``RenderResult/fragments``).
    public var fragments: [String: FragmentTable]
    /// A page's file as the previous build left it in the output (asked only when ``intact``).
    public var read: @Sendable (String) -> [UInt8]?
    /// The same file read in place (mapped), for a caller that writes the output's files in parts
    /// (a one-shot build): a list page's kept cards are then slices of it (``RenderedPage/splices``),
    /// not copied. Nil: ``read`` (the preview's memo, which keeps whole pages).
    public var readFile: (@Sendable (String) -> Data?)?
    /// The previous build's animal digests (``RenderResult/animalDigests``) that still hold, by
    /// id: those of the animals none of whose input files changed since, when only record files
    /// did (the caller knows it from the build's change set). Taken instead of digesting those
    /// animals' ``AnimalKey``s again.
    public var animalDigests: [String: String] = [:]
    /// When known, the only animal pages (output paths) whose inputs may have changed since the
    /// previous build (``AffectedOutputs``): every other one's digest is its previous one.
    public var affectedAnimalPages: Set<String>?

    public init(
        digests: [String: String], nameOrders: [String: [Int]] = [:], fragments: [String: FragmentTable] = [:],
        read: @escaping @Sendable (String) -> [UInt8]? = { _ in nil }, intact: @escaping @Sendable (String) -> Bool
    ) {
        self.digests = digests
        self.nameOrders = nameOrders
        self.fragments = fragments
        self.read = read
        self.intact = intact
    }

    /// ``keptFragments(_:salt:)`` of a page the renderer may splice (``readFile``).
    func keptPage(_ path: String, salt: String) -> KeptBytes? {
        guard let readFile else { return keptFragments(path, salt: salt) }
        guard let table = fragments[path], table.salt == salt, intact(path), let file = readFile(path) else { return nil }
        return table.kept(inFile: file)
    }

    /// The cards the previous build rendered into page `path`, when its table was made under the
    /// same `salt` and its file is as that build wrote it.
    func keptFragments(_ path: String, salt: String) -> KeptBytes? {
        guard let table = fragments[path], table.salt == salt, intact(path), let bytes = read(path) else { return nil }
        return table.kept(in: bytes)
    }

    /// The animals' objects in the previous quiz catalogue and their members in its descriptions'
    /// files (``CatalogJSON``), whose names change with their content: the one catalogue the
    /// record has a table for, and each language's one descriptions' file; a language with none
    /// had no text (the catalogue's table is of the same languages: they are in its salt).
    func keptCatalog(salt: String, languages: [String]) -> CatalogJSON.Kept? {
        let paths = fragments.keys.filter(CatalogJSON.isPath)
        guard paths.count == 1, let catalog = keptFragments(paths[0], salt: salt) else { return nil }
        var kept = CatalogJSON.Kept(catalog: catalog, descriptions: [:], without: [])
        var byLanguage: [String: [String]] = [:]
        for path in fragments.keys {
            if let lang = CatalogJSON.descriptionsLanguage(path) { byLanguage[lang, default: []].append(path) }
        }
        for lang in languages {
            let paths = byLanguage[lang] ?? []
            if paths.isEmpty {
                kept.without.insert(lang)
            } else if paths.count == 1, let texts = keptFragments(paths[0], salt: salt) {
                kept.descriptions[lang] = texts
            }
        }
        return kept
    }
}

/// What ``SiteRenderer/render(reusing:streamingAnimalPagesTo:)`` made.
public struct RenderResult: Sendable {
    /// Files to write (pages not streamed, and the site-wide files), sorted by path.
    public var files: [OutputFile] = []
    /// Animal pages handed to the sink.
    public var streamed: [String] = []
    /// Pages not rendered: the previous build's file stays.
    public var kept: [String] = []
    /// Every page's input digest, by output path: the next build's ``PageReuse/digests``.
    public var digests: [String: String] = [:]
    /// Each language's order of the animals by name (indices into the catalogue) under the digest
    /// of what it was sorted from: the next build's ``PageReuse/nameOrders``.
    public var nameOrders: [String: [Int]] = [:]
    /// Where the cards of each list page are in its file (rendered now, or kept from the
    /// previous build with the page): the next build's ``PageReuse/fragments``.
    public var fragments: [String: FragmentTable] = [:]
    /// Each animal's digest (of its ``AnimalKey``), in the catalogue's order: the next build's
    /// ``PageReuse/animalDigests`` for the animals whose files it finds unchanged.
    public var animalDigests: [String] = []
}

/// Every page's inputs as one digest that is the same in every process (``StableDigest``): the
/// site-wide part, the page's templates, the animals it shows (each by the digest of its
/// ``AnimalKey``), all animals for the lists, its free page and the catalogue's name, as
/// ``SiteRenderer/pageKey(_:shared:animals:)`` says. A one-shot rebuild compares them with the
/// previous build's record, the preview with its ``RenderMemo``.
struct PageDigests {
    let renderer: SiteRenderer
    let shared: SharedContext
    let site: String
    let animals: [String]
    let everyAnimal: String

    /// `known`: digests that still hold, by animal id (``PageReuse/animalDigests``).
    init(renderer: SiteRenderer, shared: SharedContext, known: [String: String] = [:]) {
        self.renderer = renderer
        self.shared = shared
        site = StableDigest.hex(renderer.siteKey(shared))
        animals = Parallel.map(renderer.input.catalog.animals, chunk: 64) { known[$0.id] ?? renderer.animalKey($0).digest }
        everyAnimal = StableDigest.combine(animals)
    }

    /// One SHA-256 over the site-wide digest and the key's parts (``PageKey/digestParts(everyAnimalDigest:)``):
    /// taken for all 20,000 pages of a rebuild, it skips the `Encodable` walk of every key.
    func digest(of job: SiteRenderer.Job) -> String {
        let key = renderer.pageKey(job, shared: shared, animals: animals)
        return StableDigest.combine([site] + key.digestParts(everyAnimalDigest: everyAnimal))
    }
}
