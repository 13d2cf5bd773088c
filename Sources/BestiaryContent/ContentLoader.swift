import BestiaryDiagnostics
import BestiaryStorage
import Foundation

/// Loads and validates a site root's `content/` completely, reporting every problem in one run
/// (the `load` and `validate` stages; `bestiary check` is this and nothing else).
public struct ContentLoader: Sendable {
    public let root: String
    public let fileSystem: any FileSystem

    /// Files larger than this are refused before anything reads them whole.
    public static let maxRecordBytes = 1 << 20
    /// Media larger than this get a warning (they make pages and packs slow).
    public static let largeMediaBytes = 25 << 20

    /// Parsed records kept between loads in one process (the preview); nil parses every record.
    public var memo: ParseMemo?
    /// Parsed records kept between builds in other processes, by file metadata (`bestiary build`).
    public var cache: RecordCache?
    /// The files the build's walk listed: their metadata is taken from it, not asked for again.
    public var listed: ListedFiles?
    /// The format a media file's bytes had when last read, if the file (full path) still has
    /// this metadata: its header is not read again. Not asked for drawings (SVG), which are
    /// inspected whole.
    public var knownFormat: (@Sendable (String, FileInfo) -> MediaFormat?)?

    public init(root: String, fileSystem: any FileSystem = LocalFileSystem(), memo: ParseMemo? = nil) {
        self.root = root
        self.fileSystem = fileSystem
        self.memo = memo
    }

    /// With an unusable site.yml whose languages are sound, the records and pages are checked
    /// against them too (`check`, `build`, `fetch`, `serve`); `add`, `remove` and `import` need
    /// only site.yml's errors.
    public var checksContentDespiteSiteYML = true

    public struct Result: Sendable {
        /// nil when site.yml is missing or unusable.
        public var catalog: Catalog?
        public var diagnostics: DiagnosticBag
        /// Whether the records and pages were read: with a catalogue, or against site.yml's
        /// languages when the rest of it is unusable.
        public var contentChecked = false
        /// With ``listed`` (a build's walk of the inputs): the ids of the animals one of whose
        /// files (its record, unless taken from ``cache``, or a translation) had other metadata
        /// once read than the walk found. It changed after the walk, perhaps before it was read:
        /// what the walk says of it (unchanged since the last build, say) may not hold for what
        /// was read.
        public var readAfterAChange: Set<String> = []
        /// With ``listed``: whether the loader found the files below `content/animals/` that the
        /// walk found, no more and no fewer (a translation removed after the walk, even for a
        /// moment, is never read, so ``readAfterAChange`` cannot name its animal).
        public var recordFilesAsWalked = true
    }

    var contentDirectory: String { Catalog.contentDirectory(root: root) }

    /// Loads site.yml alone (commands that only need the configuration).
    /// Records and pages written where nothing reads them, which were ignored without a word: a
    /// `.md` file at the top of `content/` that starts with front matter (notes such as
    /// `ATTRIBUTION.md` do not), and a folder named almost `animals` or `pages` (`animal/`, `Pages/`).
    func strayContent() -> [Diagnostic] {
        guard let entries = try? fileSystem.entries(in: contentDirectory) else { return [] }
        var problems: [Diagnostic] = []
        let whereTheyGo = "records go in content/animals/, pages in content/pages/"
        for entry in entries where !entry.name.hasPrefix(".") {
            let path = contentDirectory + "/" + entry.name
            let at = SourceLocation(path: "content/\(entry.name)")
            if entry.name != "animals", entry.name != "pages", let near = Self.nearMiss(entry.name), let info = fileSystem.infoFollowingLinks(path),
               info.kind == .directory,
               // On a file system that ignores case, `Animals/` is the folder `animals` reads.
               fileSystem.infoFollowingLinks(contentDirectory + "/" + near).map({ ($0.device, $0.inode) != (info.device, info.inode) }) ?? true
            {
                problems.append(.warning("folder '\(entry.name)' is not read: \(whereTheyGo) (did you mean '\(near)'?)", at: at, stage: "load"))
            } else if entry.name.hasSuffix(".md"), let head = try? fileSystem.readPrefix(path, count: 8),
                      Self.opensFrontMatter(head)
            {
                problems.append(.warning("\(entry.name) starts with front matter but is not read: \(whereTheyGo)", at: at, stage: "load"))
            }
        }
        return problems
    }

    /// `animals` or `pages` when `name` is almost that folder's name: the same in other case, the
    /// singular, or (for `animals`) one edit from it. Not any word near `pages` (`cages/`, `ages/`
    /// hold media).
    static func nearMiss(_ name: String) -> String? {
        let lower = name.lowercased()
        if lower == "pages" || lower == "page" { return "pages" }
        if lower.count >= 6, Suggestion.distance(lower, "animals") <= 1 { return "animals" }
        return nil
    }

    /// A first line of exactly `---` (after a byte-order mark): front matter, not a Markdown rule.
    static func opensFrontMatter(_ head: Data) -> Bool {
        var bytes = Array(head)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard bytes.starts(with: Array("---".utf8)) else { return false }
        let rest = bytes.dropFirst(3).drop { $0 == 0x20 || $0 == 0x09 }
        return rest.first == nil || rest.first == 0x0A || rest.first == 0x0D
    }

    /// The nearest folder above `root` that holds content/site.yml, written relative to `root`
    /// (`../..`), or nil (none within 8 levels).
    static func siteRootAbove(_ root: String, fileSystem: any FileSystem) -> String? {
        var up = ""
        for _ in 0..<8 {
            up += up.isEmpty ? ".." : "/.."
            let candidate = Catalog.pathPrefix(root: root) + up
            if fileSystem.info(candidate + "/content/site.yml")?.kind == .file {
                return root == "." ? up : (candidate as NSString).standardizingPath
            }
        }
        return nil
    }

    public func loadConfig() -> (SiteConfig?, [Diagnostic]) {
        let parsed = loadConfigChecked()
        return (parsed.config, parsed.diagnostics)
    }

    func loadConfigChecked() -> SiteConfig.Parsed {
        let path = "content/site.yml"
        let full = contentDirectory + "/site.yml"
        guard fileSystem.info(full) != nil else {
            let hasContent = fileSystem.isDirectory(contentDirectory)
            let hint = hasContent
                ? "content/ has no site.yml; it needs at least title, base_url and languages"
                : Self.siteRootAbove(root, fileSystem: fileSystem).map {
                    // Run from inside the site (`content/animals/`): say where its root is, as
                    // git would find it (found by a new user).
                    "'\(root)' is not a site root (no content/site.yml), but \($0) is: run there, or pass --root \($0)"
                } ?? "'\(root)' is not a site root (no content/site.yml); create one with `bestiary init DIR` or pass --root"
            // No content/ at all: at no file (a CI annotation at `content/site.yml` pointed into
            // the repository the command ran in, not at the root it was given).
            return .init(config: nil, diagnostics: [.error(hint, at: hasContent ? SourceLocation(path: path) : nil, stage: "load")])
        }
        do {
            let source = try SourceText.decode(try readText(full, relative: path), path: path)
            return SiteConfig.parseChecked(source)
        } catch let error as DiagnosticError {
            return .init(config: nil, diagnostics: error.diagnostics)
        } catch {
            return .init(config: nil, diagnostics: [.error("\(error)", at: SourceLocation(path: path), stage: "load")])
        }
    }

    public func load() -> Result {
        var bag = DiagnosticBag()
        let parsed = loadConfigChecked()
        bag.append(contentsOf: parsed.diagnostics)
        guard let config = parsed.config else {
            // The records' and pages' own problems too, checked against site.yml's languages when
            // those are sound: a teacher mended a colour in site.yml, and only then met the
            // records' errors, in a second round.
            var checked = false
            if checksContentDespiteSiteYML, !parsed.languages.isEmpty {
                checked = true
                var probe = self
                (probe.memo, probe.cache) = (nil, nil)
                var provisional = SiteConfig(
                    title: LocalizedText([:]), baseURL: "", languages: parsed.languages,
                    location: SourceLocation(path: "content/site.yml", line: 1, column: 1))
                provisional.keyLocations = parsed.keyLocations
                // What follows from the settings themselves waits until they are mended.
                for item in probe.load(config: provisional).diagnostics.items where item.location?.path != "content/site.yml" {
                    bag.append(item)
                }
                // But a language the content is written in and languages does not list is said once,
                // at languages, counting site.yml's own texts too (`languages: [ar, en-GB]` over texts
                // in `en`: a teacher met 22 errors, one per text, and that line never).
                bag.append(contentsOf: Self.unlistedLanguages(in: bag.items, config: provisional))
            }
            return Result(catalog: nil, diagnostics: bag, contentChecked: checked)
        }
        var result = load(config: config)
        bag.append(contentsOf: result.diagnostics.items)
        result.diagnostics = bag
        return result
    }

    private func load(config: SiteConfig) -> Result {
        var bag = DiagnosticBag()
        let contentReal = (try? fileSystem.realPath(contentDirectory)) ?? contentDirectory

        // Records.
        var (animalFiles, animalDiagnostics) = markdownFiles(in: "animals", contentReal: contentReal, config: config)
        bag.append(contentsOf: animalDiagnostics)
        bag.append(contentsOf: strayContent())
        cache?.begin(config: config)
        // Each with whether its file changed since the walk (``Result/readAfterAChange``).
        let parsed = Parallel.map(animalFiles.mains) { file -> (Animal?, [Diagnostic], Bool) in
            // Taken before the file is read: a change made meanwhile makes the next build parse it.
            let info = cache == nil ? nil : listed?.file(file.relativePath) ?? fileSystem.infoFollowingLinks(file.fullPath)
            if let cache, let info, let known = cache.lookup(file.relativePath, info: info) { return (known.0, known.1, false) }
            let result = parse(file, config: config)
            let changed = changedSinceWalk(file)
            // Not kept under the walk's metadata when the file has other metadata now: what was
            // read may be what it holds now, and a file put back as it was (renamed back) would
            // have had that parse taken for it.
            if let cache, let info, !(changed && listed?.file(file.relativePath) != nil) {
                cache.store(file.relativePath, info: info, result: result)
            }
            return (result.0, result.1, changed)
        }
        var readAfterAChange = Set<String>()
        let recordFilesAsWalked = animalFiles.asWalked
        // Each record is moved, not copied: a copy of an `Animal` retains each of its many fields.
        var animals: [Animal] = []
        animals.reserveCapacity(parsed.count)
        // Which record an id is: the one whose file is named so (`dog.md`) before one that says
        // `id: dog` elsewhere, which is the one in error (a tester's `id: dog` in cat.md was
        // reported in dog.md); else the first by path.
        var owners: [String: Int] = [:]
        for (i, (animal, _, _)) in parsed.enumerated() {
            guard let animal else { continue }
            if let j = owners[animal.id], animalFiles.mains[j].stem == animal.id || animalFiles.mains[i].stem != animal.id { continue }
            owners[animal.id] = i
        }
        for (i, (file, (animal, diagnostics, changed))) in zip(animalFiles.mains, parsed).enumerated() {
            bag.append(contentsOf: diagnostics)
            // Taken first: the translations of a record that failed are not "without a record"
            // (the record's own errors say what is wrong).
            let translations = animalFiles.translations.removeValue(forKey: file.stemKey) ?? []
            guard var animal else { continue }
            if let owner = owners[animal.id], owner != i, let other = parsed[owner].0 {
                bag.error(
                    "id '\(animal.id)' is already used by \(other.sourcePath); ids must be unique (they are the key apps sync by)",
                    at: animal.location(of: "id"), stage: "validate")
                continue
            }
            for translation in translations {
                if let body = translationBody(translation, config: config, bag: &bag) {
                    animal.bodies[translation.language!] = body
                }
            }
            if changed || translations.contains(where: changedSinceWalk) { readAfterAChange.insert(animal.id) }
            animals.append(animal)
        }
        for (_, orphans) in animalFiles.translations {
            for t in orphans {
                // The record moved to another folder, its translation left behind (a translator's):
                // found by its file name, which is what a translation is joined by.
                let moved = animalFiles.mains.first { $0.stem == t.stem }.map { ", but \($0.relativePath) is: move the translation next to it" } ?? ""
                bag.error(
                    "translation without its record: there is no \(t.directoryPrefix)\(t.stem).md\(moved)", at: SourceLocation(path: t.relativePath),
                    stage: "validate")
            }
        }
        animals.sort { $0.id < $1.id }
        memo?.keep(Set(animalFiles.mains.map(\.relativePath)))

        // Media.
        var media: [String: MediaFile] = [:]
        var references: [MediaReference] = []
        references.reserveCapacity(animals.count * 2)
        for animal in animals {
            if let s = animal.sound { references.append(s) }
            if let i = animal.image { references.append(i) }
        }
        let uniquePaths = Array(Set(references.compactMap(\.filePath))).sorted()
        let suggestions = SuggestionBudget()
        let checked = Parallel.map(uniquePaths) { path in checkMedia(path, contentReal: contentReal, suggestions: suggestions) }
        var mediaProblems: [String: String] = [:]
        for (path, result) in zip(uniquePaths, checked) {
            switch result {
            case .success(let file): media[path] = file
            case .failure(let problem): mediaProblems[path] = problem.message
            }
        }
        for reference in references {
            guard let path = reference.filePath else { continue }
            if let problem = mediaProblems[path] {
                bag.error("\(reference.kind.rawValue).file '\(path)': \(problem)", at: reference.location, stage: "validate")
            } else if let file = media[path] {
                if file.format.kind != reference.kind {
                    bag.error(
                        "\(reference.kind.rawValue).file '\(path)' is \(file.format.kind == .sound ? "a sound" : "a picture") (\(file.format.rawValue)), not \(reference.kind == .sound ? "a sound" : "a picture")",
                        at: reference.location, stage: "validate")
                } else if !MediaFormat.candidates(forExtension: ContentPath.mediaExtension(path)).contains(file.format) {
                    bag.error(
                        "\(reference.kind.rawValue).file '\(path)' holds \(file.format.rawValue) data, not what '.\(ContentPath.mediaExtension(path))' says; rename the file to '\(Self.renamed(path, to: file.format.fileExtension))' and write that here",
                        at: reference.location, stage: "validate")
                } else if file.size > Self.largeMediaBytes {
                    bag.warning(
                        "\(reference.kind.rawValue).file '\(path)' is \(file.size >> 20) MiB; large files make pages and packs slow",
                        at: reference.location, stage: "validate")
                }
            }
        }
        // Keep only media that validated, with the kind the record expects. Set only where it
        // differs: an animal taken from the kept records shares its fields with them, and a change
        // copies them all (``Animal``).
        for i in animals.indices {
            if let sound = animals[i].sound, let path = sound.filePath, let file = media[path], file.format.kind == .sound, sound.format != file.format {
                animals[i].sound?.format = file.format
            }
            if let image = animals[i].image, let path = image.filePath, let file = media[path], file.format.kind == .image, image.format != file.format {
                animals[i].image?.format = file.format
            }
        }

        // Pages.
        var pages: [ContentPage] = []
        var (pageFiles, pageDiagnostics) = markdownFiles(in: "pages", contentReal: contentReal, config: config)
        bag.append(contentsOf: pageDiagnostics)
        var slugs: [String: String] = [:]
        for file in pageFiles.mains {
            // As for records: the translations of a page that fails are not orphans.
            let translations = pageFiles.translations.removeValue(forKey: file.stemKey) ?? []
            do {
                let source = try SourceText.decode(try readText(file.fullPath, relative: file.relativePath), path: file.relativePath)
                let (page, diagnostics) = ContentPage.parse(source, slug: file.stem, config: config)
                bag.append(contentsOf: diagnostics)
                guard var page else { continue }
                if let other = slugs[page.slug] {
                    bag.error("page '\(page.slug)' is also defined by \(other)", at: SourceLocation(path: file.relativePath), stage: "validate")
                    continue
                }
                slugs[page.slug] = file.relativePath
                for translation in translations {
                    if let body = translationBody(translation, config: config, bag: &bag) {
                        page.bodies[translation.language!] = body
                    }
                }
                pages.append(page)
            } catch let error as DiagnosticError {
                bag.append(contentsOf: error.diagnostics)
            } catch {
                bag.error("\(error)", at: SourceLocation(path: file.relativePath), stage: "load")
            }
        }
        for (_, orphans) in pageFiles.translations {
            for t in orphans {
                bag.error("translation without its page: there is no \(t.directoryPrefix)\(t.stem).md", at: SourceLocation(path: t.relativePath), stage: "validate")
            }
        }
        pages.sort { ($0.weight, $0.slug) < ($1.weight, $1.slug) }

        let unlisted = Self.unlistedLanguages(in: bag.items, config: config)
        // `languages: [de, eng]` over texts in `en`: one error at site.yml says it, not one per
        // text (a user met 119 errors about the records, and the cause among them as a warning).
        let misspelt = Self.misspeltLanguages(config.languages)
        if !misspelt.isEmpty {
            bag.removeAll { d in d.severity == .error && Self.unlistedLanguage(in: d).map { misspelt[$0] != nil } == true }
        }
        bag.append(contentsOf: unlisted)
        if animals.isEmpty && !bag.hasErrors {
            bag.warning("no animals yet: add one with `bestiary add ID --name \(config.defaultLanguage)=Name`", at: SourceLocation(path: "content/animals"), stage: "validate")
        } else {
            // Also beside errors, among the records that loaded (a teacher mended the errors, then
            // met these in another round): neither warns wrongly of a record left out.
            bag.append(contentsOf: Self.sameNames(animals, config: config))
            bag.append(contentsOf: Self.groupSpellings(animals))
            bag.append(contentsOf: Self.sharedMedia(animals))
            // A tag only a record with errors uses would be called unused.
            if !bag.hasErrors { bag.append(contentsOf: Self.unusedTagLabels(animals, config: config)) }
        }
        let catalog = Catalog(root: root, config: config, animals: animals, pages: pages, mediaFiles: media)
        return Result(
            catalog: catalog, diagnostics: bag, contentChecked: true, readAfterAChange: readAfterAChange, recordFilesAsWalked: recordFilesAsWalked)
    }

    /// `path` with its extension (the part after its last dot, if any) replaced by `ext`.
    static func renamed(_ path: String, to ext: String) -> String {
        var core = Substring(path)
        while core.last == "." { core = core.dropLast() }
        let name = core.split(separator: "/", omittingEmptySubsequences: false).last ?? core
        guard let dot = name.lastIndex(of: "."), dot > name.startIndex else { return core + "." + ext }
        return core[..<dot] + "." + ext
    }

    /// One error at site.yml's `languages` for a language the records are written in but the list
    /// lacks (`languages: [en-UK]`, records in `en`: each text said so at its own place, and
    /// nothing pointed at the list), read from those errors. With why, when the listed code is the
    /// records' with a region.
    /// The language a record's error says site.yml does not list, if it is one.
    static func unlistedLanguage(in d: Diagnostic) -> String? {
        d.message.firstMatch(of: /(?:language '|^wikipedia: '|^')([A-Za-z0-9-]+)' is not (?:in site\.yml's languages|one of the site's languages) \(/)
            .map { String($0.1) }
    }

    /// The codes site.yml's languages misspell, each with the listed code: `eng` and `sp` listed
    /// for `en` and `es` (``LanguageCode/doubts(about:)``), where the code meant is not listed too.
    static func misspeltLanguages(_ languages: [String]) -> [String: String] {
        var meant: [String: String] = [:]
        for listed in languages {
            if let code = LanguageCode.intended(listed), code != listed, !languages.contains(code) { meant[code] = listed }
        }
        return meant
    }

    static func unlistedLanguages(in diagnostics: [Diagnostic], config: SiteConfig) -> [Diagnostic] {
        var uses: [String: (count: Int, files: Set<String>)] = [:]
        let misspelt = misspeltLanguages(config.languages)
        // `languages: [ra, en]` over texts in `ar`: a listed code no language has, whose letters
        // turned round are the texts' language.
        var turned: [String: String] = [:]
        for listed in config.languages where listed.count == 2 && LanguageCode.unknownTwoLetter(listed) == "" {
            turned[String(listed.lowercased().reversed())] = listed
        }
        for d in diagnostics where d.severity == .error {
            guard let lang = unlistedLanguage(in: d) else { continue }
            if misspelt[lang] != nil {
                uses[lang, default: (0, [])].count += 1
                if let path = d.location?.path { uses[lang, default: (0, [])].files.insert(path) }
                continue
            }
            // A language code, and not one listed in another case (`pt-br`, `cat.DE.md`, a
            // wikipedia key `english`, `owl.backup.md`: each said at its own place, no language
            // to add).
            guard LanguageCode.isValid(lang), Suggestion.listedLanguage(meant: lang, among: config.languages) == nil else { continue }
            uses[lang, default: (0, [])].count += 1
            if let path = d.location?.path { uses[lang, default: (0, [])].files.insert(path) }
        }
        return uses.keys.sorted().compactMap { lang in
            guard let use = uses[lang] else { return nil }
            let files = use.files.count
            let written = "the content is written in '\(lang)' (\(use.count) text\(use.count == 1 ? "" : "s") in \(files) file\(files == 1 ? "" : "s"))"
            let message = if let listed = turned[lang] {
                "\(written), and languages lists '\(listed)', which is no language's code: did you mean '\(lang)'? Write '\(lang)' in languages"
            } else if let listed = misspelt[lang] {
                "\(written), and languages lists '\(listed)', which is written '\(lang)' in the codes browsers, screen readers and Wikipedia use: write '\(lang)' in languages"
            } else if let regional = config.languages.first(where: { $0.lowercased().hasPrefix(lang.lowercased() + "-") }) {
                "\(written), but languages lists '\(regional)', another code (the language with a region): list '\(lang)' instead, or write the texts under '\(regional)'"
            } else {
                "\(written), which languages does not list (\(config.languages.joined(separator: ", "))): add '\(lang)' to it, or remove those texts (a record copied from a site in more languages), or write them under a listed code"
            }
            return .error(message, at: config.location(of: "languages"), stage: "validate")
        }
    }

    /// Names the quiz cannot tell apart (the same in a language, case and spaces aside: it never
    /// offers such animals side by side, and the collection shows two cards alike).
    static func sameNames(_ animals: [Animal], config: SiteConfig) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        var first: [String: String] = [:]  // language + name → the first animal's id
        first.reserveCapacity(animals.count * config.languages.count)
        // Each animal's keys made on every core (folding 10,000 animals' names took 30-50 ms of
        // each build on one core), then compared in order.
        let allKeys = Parallel.map(animals, chunk: 256) { Catalog.nameKeys($0, languages: config.languages) }
        for (i, keys) in zip(animals.indices, allKeys) {
            if let clash = keys.first(where: { first[$0.key] != nil }) {
                problems.append(.warning(
                    "name '\(clash.name)' is also \(first[clash.key]!)'s: the quiz never offers the two side by side, and the collection shows two cards named alike; give one another name",
                    at: animals[i].location(of: "name"), stage: "validate"))
            }
            for k in keys where first[k.key] == nil { first[k.key] = animals[i].id }
        }
        return problems
    }

    /// A sound or picture file named by two records (a spreadsheet's two rows naming one recording,
    /// imported as one file; a volunteer's): a question showing it cannot tell which is meant, and
    /// both answers are right. Said at each record after the first that names it, in the
    /// catalogue's order (by id: `animals` comes sorted, not copied and sorted again each build).
    static func sharedMedia(_ animals: [Animal]) -> [Diagnostic] {
        var first: [String: String] = [:]  // kind and path → the first record's id
        var problems: [Diagnostic] = []
        for animal in animals {
            for media in [animal.sound, animal.image].compactMap({ $0 }) {
                guard let path = media.filePath else { continue }
                let key = media.kind.rawValue + "/" + path
                guard let other = first[key] else {
                    first[key] = animal.id
                    continue
                }
                let (name, own) = media.kind == .sound ? ("sound", "recording") : ("image", "picture")
                problems.append(.warning(
                    "\(name) '\(path)' is also \(other)'s: a question with it cannot tell the two apart (either answer is right); give each its own \(own)",
                    at: media.location, stage: "validate"))
            }
        }
        return problems
    }

    /// Groups written in two ways that differ only in case or spaces (`Mammal`, `mammal`): the
    /// collection's filter and the quiz's settings show two groups, and the odd one has no
    /// translated label. Each record whose spelling is not the preferred one is warned about,
    /// naming it: the theme's own group, named as its label is (`quiz.group.bird`; a museum's
    /// volunteer was told to write `Bird` for `bird`, which two records had), else the commonest
    /// (else the one in lower case, else the first in name order).
    public static func groupSpellings(_ animals: [Animal]) -> [Diagnostic] {
        // Each record's group and its folded spelling, taken once (not a copy of each record per pass).
        let groups = animals.map { $0.group }
        let foldedGroups = groups.map { $0.map(Self.folded) }
        var spellings: [String: [String: Int]] = [:]  // folded → spelling → records
        for (group, folded) in zip(groups, foldedGroups) {
            guard let group, let folded else { continue }
            spellings[folded, default: [:]][group, default: 0] += 1
        }
        var problems: [Diagnostic] = []
        for i in animals.indices {
            guard let group = groups[i], let folded = foldedGroups[i], let all = spellings[folded], all.count > 1 else { continue }
            let usual = Self.preferredSpelling(all)
            guard group != usual else { continue }
            problems.append(.warning(
                "group '\(group)' is written '\(usual)' by \(all[usual]!) other record\(all[usual]! == 1 ? "" : "s"): the collection and the quiz's settings show them as two groups; write '\(usual)'",
                at: animals[i].location(of: "group"), stage: "validate"))
        }
        // A group of one record spelt almost like a group of several (`mamal`): likely a typo,
        // which makes a group of its own (found by an author).
        let counts = spellings.mapValues { $0.values.reduce(0, +) }
        let shared = counts.filter { $0.value > 1 }.keys.sorted()
        for i in animals.indices {
            guard let group = groups[i], let folded = foldedGroups[i], counts[folded] == 1,
                  let near = shared.first(where: { Self.likelyTypo(folded, of: $0) }),
                  let usual = spellings[near].map(Self.preferredSpelling)
            else { continue }
            problems.append(.warning(
                "group '\(group)' is this record's alone, and '\(usual)' is that of \(counts[near]!) others: if it is the same group, write '\(usual)'",
                at: animals[i].location(of: "group"), stage: "validate"))
        }
        return problems
    }

    /// A label in site.yml's `tags` for a tag no record has: misspelt there or in the records
    /// (the pages then show the tag as written), or left from a tag no longer used.
    static func unusedTagLabels(_ animals: [Animal], config: SiteConfig) -> [Diagnostic] {
        guard !config.tags.isEmpty else { return [] }
        let used = Set(animals.lazy.flatMap { $0.tags })
        return config.tags.keys.filter { !used.contains($0) }.sorted().map { tag in
            let near = used.filter { Suggestion.distance($0, tag) <= 2 }.sorted().first
            let hint = near.map { "; did you mean '\($0)'?" } ?? ""
            return .warning(
                "tags: no record has the tag '\(tag)', so this label is never shown\(hint)",
                at: config.location(of: "tags." + tag), stage: "validate")
        }
    }

    /// Whether a lone group `lone` is likely `shared` misspelt: one is the other's plural, or both
    /// are words of 5 letters or more one edit apart (two from 8). Short groups one letter apart
    /// are often different animals (`bat`, `cat`; `owl`, `fowl`; `goat`, `boat`).
    static func likelyTypo(_ lone: String, of shared: String) -> Bool {
        if [lone + "s", lone + "es"].contains(shared) || [shared + "s", shared + "es"].contains(lone) { return true }
        let shortest = min(lone.count, shared.count)
        return shortest >= 5 && Suggestion.distance(lone, shared) <= (shortest >= 8 ? 2 : 1)
    }

    /// Of a group's spellings (each with its count of records): the one in lower case, else the
    /// commonest, else the first in code point order.
    static func preferredSpelling(_ spellings: [String: Int]) -> String {
        // The theme's own group as its label is named (a volunteer's one `bird` beside two `Bird`),
        // else the commonest: a German museum's 19 records of `Säugetier` were each told to write
        // the `säugetier` of one, and its one `säugetier` was not named at all.
        if let theme = spellings.keys.first(where: themeGroups.contains) { return theme }
        func rank(_ s: (key: String, value: Int)) -> (Int, Int) { (s.value, s.key == s.key.lowercased() ? 1 : 0) }
        return spellings.max { rank($0) < rank($1) || (rank($0) == rank($1) && $0.key > $1.key) }!.key
    }

    /// The default theme's groups, whose labels are named in lower case (`quiz.group.bird`).
    public static let themeGroups: Set<String> = ["amphibian", "bird", "fish", "insect", "mammal", "reptile"]

    static func folded(_ group: String) -> String {
        // An ASCII group byte by byte (the same result; asked once per record).
        if group.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: group.utf8.compactMap { byte -> UInt8? in
                switch byte {
                case 0x09...0x0D, 0x20, UInt8(ascii: "-"), UInt8(ascii: "_"): nil
                case 0x41...0x5A: byte + 0x20
                default: byte
                }
            }, as: UTF8.self)
        }
        return group.lowercased().filter { !$0.isWhitespace && $0 != "-" && $0 != "_" }
    }

    /// Too few different names for one question's choices: no quiz round can start (the quiz
    /// says so too). What `bestiary check` adds to the loader's problems.
    public static func quizProblems(_ catalog: Catalog) -> [Diagnostic] {
        let config = catalog.config
        let distinct = Catalog.distinctNames(catalog.animals, languages: config.languages, atLeast: config.quiz.choices)
        guard !catalog.animals.isEmpty, distinct < config.quiz.choices else {
            // A sound round asks only what has a sound (questions.js's drawTargets): with fewer
            // than half a round's questions, each is asked more than twice a round (one alone,
            // every question). Pictures may come from Wikipedia, which loading does not see.
            let sounds = catalog.animals.filter { $0.sound != nil }.count
            let questions = config.quiz.questions
            guard sounds > 0, sounds * 2 < questions else { return [] }
            let each = sounds == 1 ? "asks it \(questions) times in a row" : "asks each of them more than twice"
            return [.warning(
                "only \(sounds) animal\(sounds == 1 ? " has" : "s have") a sound, and a quiz round has \(questions) questions: each sound round \(each); add sounds (sound.file) to more records, or lower quiz.questions in site.yml",
                at: config.location(of: "quiz.questions"), stage: "validate")]
        }
        return [.warning(
            "each quiz question offers \(config.quiz.choices) answers, but the site has \(distinct) animal\(distinct == 1 ? "" : "s") with different names: no round can start until more are added, or until quiz.choices in site.yml is lowered (2 at least)",
            at: config.location(of: "quiz.choices"), stage: "validate")]
    }

    /// Settings still at a placeholder (`bestiary init` writes `https://example.org/…` and
    /// `you@example.org`): a site published with them points its sitemap and its pages' links for
    /// sharing at a domain reserved for examples, and Wikimedia cannot
    /// reach whoever fetches. What `bestiary check` adds; `bestiary fetch` says the second too.
    public static func placeholderProblems(_ config: SiteConfig) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        if let host = URL(string: config.baseURL)?.host, let reserved = exampleDomain(host) {
            problems.append(.warning(
                "base_url '\(config.baseURL)' is on \(reserved), a domain reserved for examples: the sitemap and the pages' links for sharing would lead there; set it to the address the site will be published under",
                at: config.location(of: "base_url"), stage: "validate"))
        }
        if let problem = contactPlaceholder(config.wikipedia.contact) {
            problems.append(.warning(problem, at: config.location(of: "wikipedia.contact"), stage: "validate"))
        }
        return problems
    }

    /// Why `contact` (site.yml's `wikipedia.contact`) reaches nobody, or nil.
    public static func contactPlaceholder(_ contact: String?) -> String? {
        guard let contact = contact?.trimmingCharacters(in: .whitespaces), !contact.isEmpty else { return nil }
        let host = contact.contains("://") ? URL(string: contact)?.host : contact.split(separator: "@").last.map(String.init)
        guard let host, let reserved = exampleDomain(host) else { return nil }
        return "wikipedia.contact '\(contact)' is on \(reserved), a domain reserved for examples: Wikimedia asks every client for a way to reach its user and may block one it cannot reach; put your e-mail address or web site"
    }

    /// The reserved domain (RFC 2606) `host` is on, or nil: example.org, .com and .net and their
    /// subdomains, and the `.example` and `.invalid` top-level domains.
    static func exampleDomain(_ host: String) -> String? {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "."))
        for domain in ["example.org", "example.com", "example.net"] where host == domain || host.hasSuffix("." + domain) {
            return domain
        }
        guard let top = host.split(separator: ".").last, ["example", "invalid"].contains(top) else { return nil }
        return "." + top
    }

    // MARK: Files

    struct MarkdownFile {
        var relativePath: String  // from the site root
        var fullPath: String
        var stem: String  // file name without .md and without .LANG
        var language: String?  // for ID.LANG.md
        var directoryPrefix: String  // "content/animals/" or "content/animals/birds/"
        var stemKey: String { directoryPrefix + stem }
    }

    struct MarkdownFiles {
        var mains: [MarkdownFile] = []
        var translations: [String: [MarkdownFile]] = [:]
        /// Whether the regular files listed are those the build's walk listed (true without one).
        var asWalked = true
    }

    private func markdownFiles(in folder: String, contentReal: String, config: SiteConfig) -> (MarkdownFiles, [Diagnostic]) {
        var result = MarkdownFiles()
        var diagnostics: [Diagnostic] = []
        let directory = contentDirectory + "/" + folder
        guard fileSystem.isDirectory(directory) else { return (result, []) }
        var symlinks: [String] = []
        let files: [String]
        do {
            files = try fileSystem.walkFiles(in: directory) { symlinks.append($0) }
        } catch {
            return (result, [.error("\(error)", at: SourceLocation(path: "content/\(folder)"), stage: "load")])
        }
        // Each file's path from the site root starts so.
        let base = "content/\(folder)/"
        if let listed {
            result.asWalked = files.count == listed.count(below: base) && files.allSatisfy { listed.file(base + $0) != nil }
        }
        // Hidden files and folders, and what editors leave beside a file (`owl.md~`, `#owl.md#`,
        // `.bak`, emacs' lock `.#owl.md`, a link that leads nowhere): passed over, as the preview's
        // watcher passes them over (the lock failed the build while a record was being edited).
        var all = files.filter { !EditorFiles.isUnderLeftover($0) }
        for link in symlinks where !EditorFiles.isUnderLeftover(link) {
            let rel = base + link
            switch ContentPath.problem("\(folder)/\(link)", contentDirectory: contentDirectory, contentRealPath: contentReal, fileSystem: fileSystem) {
            case nil: all.append(link)
            case .missing?, .danglingLink?:
                // Said as for a media file: "points nowhere" hid links that go round (found by a CI maintainer).
                diagnostics.append(.error(
                    "a symbolic link that leads nowhere (what it names is missing, or the links go round); link it to the file again, or put the file itself here",
                    at: SourceLocation(path: rel), stage: "load"))
            case .notAFile?: diagnostics.append(.warning("symbolic link to a folder is not followed", at: SourceLocation(path: rel), stage: "load"))
            case let problem?: diagnostics.append(.error("\(problem)", at: SourceLocation(path: rel), stage: "load"))
            }
        }
        all.sort()
        for file in all {
            // A record's file straight in the folder, its name ASCII with no dot but the one of
            // `.md` (each of 10,000 records, each build): no parts split out, no path searched
            // for a slash; what the general case below makes of it.
            if EditorFiles.isPlainMarkdownName(file.utf8), !file.utf8.dropLast(3).contains(UInt8(ascii: ".")) {
                result.mains.append(MarkdownFile(
                    relativePath: base + file, fullPath: directory + "/" + file, stem: String(file.dropLast(3)), language: nil,
                    directoryPrefix: base))
                continue
            }
            let relative = base + file
            let name = file.split(separator: "/").last.map(String.init) ?? file
            let dirPrefix = base + (file.contains("/") ? String(file[..<file.lastIndex(of: "/")!]) + "/" : "")
            guard name.hasSuffix(".md") else {
                // `owl.MD`, `owl.Md`: a record whose ending is in another case (a Windows or Mac
                // tool's), said so rather than "not a Markdown file" (found by a tester).
                let message = name.lowercased().hasSuffix(".md")
                    ? "ignored: a record's file name ends in '.md', in lower case; rename it to \(name.dropLast(3)).md"
                    : "not a Markdown file (.md); ignored"
                diagnostics.append(.warning(message, at: SourceLocation(path: relative), stage: "load"))
                continue
            }
            // A name whose bytes are not UTF-8 (made on a system with another encoding) is listed
            // with U+FFFD in their place, and no file has that name (unless the name is U+FFFD
            // itself): it was reported as missing.
            if relative.unicodeScalars.contains("\u{FFFD}"), fileSystem.info(directory + "/" + file) == nil {
                diagnostics.append(.error(
                    "the file's name is not UTF-8 text (shown here with \u{FFFD} where it is not), and the build cannot open it by that name; rename it",
                    at: SourceLocation(path: relative), stage: "load"))
                continue
            }
            let parts = name.dropLast(3).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            var entry = MarkdownFile(
                relativePath: relative, fullPath: directory + "/" + file, stem: parts[0], language: nil, directoryPrefix: dirPrefix)
            switch parts.count {
            case 1:
                result.mains.append(entry)
            case 2:
                let lang = parts[1]
                guard config.languages.contains(lang) else {
                    // `cat.DE.md`: the code as site.yml writes it is meant; `pig.fr-CH.md` beside
                    // `languages: [.., fr]`: the listed language (a translator's).
                    let listed = Suggestion.listedLanguage(meant: lang, among: config.languages)
                    var meant = listed.map { " (did you mean \(parts[0]).\($0).md? codes are written as in site.yml)" } ?? ""
                    // That file there already (`about.FR.md` beside `about.fr.md`): renaming would
                    // replace it. Looked for in the listing, by its exact name: a file system that
                    // ignores case (a Mac's) finds `about.FR.md` itself under the other name.
                    let sibling = (file.contains("/") ? String(file[...file.lastIndex(of: "/")!]) : "") + "\(parts[0]).\(listed ?? "").md"
                    if listed != nil, sibling != file, all.contains(sibling) {
                        meant = " (\(parts[0]).\(listed!).md is there already: keep one of the two)"
                    }
                    diagnostics.append(.error(
                        "'\(lang)' is not one of the site's languages (\(config.languages.joined(separator: ", ")))\(meant); a translation is named ID.LANG.md",
                        at: SourceLocation(path: relative), stage: "load"))
                    continue
                }
                if lang == config.defaultLanguage {
                    diagnostics.append(.error(
                        "'\(lang)' is the default language: its text belongs in \(parts[0]).md itself",
                        at: SourceLocation(path: relative), stage: "load"))
                    continue
                }
                entry.language = lang
                result.translations[entry.stemKey, default: []].append(entry)
            default:
                diagnostics.append(.error(
                    "file name has too many dots: records are ID.md, translations ID.LANG.md", at: SourceLocation(path: relative), stage: "load"))
            }
        }
        return (result, diagnostics)
    }

    /// One record file read and parsed (or taken from the in-process memo by its bytes).
    private func parse(_ file: MarkdownFile, config: SiteConfig) -> (Animal?, [Diagnostic]) {
        do {
            let data = try readText(file.fullPath, relative: file.relativePath)
            if let known = memo?.lookup(file.relativePath, data: data, config: config) { return known }
            let source = try SourceText.decode(data, path: file.relativePath)
            let result = Animal.parse(source, fileID: file.stem, config: config)
            memo?.store(file.relativePath, data: data, config: config, result: result)
            return result
        } catch let error as DiagnosticError {
            return (nil, error.diagnostics)
        } catch {
            return (nil, [.error("\(error)", at: SourceLocation(path: file.relativePath), stage: "load")])
        }
    }

    private func readText(_ fullPath: String, relative: String) throws -> Data {
        let info = fileSystem.infoFollowingLinks(fullPath)
        // A pipe would block the build until something writes to it (a folder fails by itself).
        if let info, info.kind != .file, info.kind != .directory {
            throw DiagnosticError(.error(
                "not a regular file (a pipe, a device or a socket); put a text file here", at: SourceLocation(path: relative), stage: "load"))
        }
        if let info, info.size > Self.maxRecordBytes {
            throw DiagnosticError(.error(
                "file is \(info.size >> 10) KiB; records and pages are limited to \(Self.maxRecordBytes >> 10) KiB",
                at: SourceLocation(path: relative), stage: "load"))
        }
        do {
            return try fileSystem.read(fullPath)
        } catch let error as FileSystemError {
            throw DiagnosticError(.error("cannot read the file: \(error.reason)", at: SourceLocation(path: relative), stage: "load"))
        }
    }

    /// Whether `file`, just read, has other metadata than the build's walk found (or the walk
    /// did not find it: a file made since; not a symbolic link, which the walk never lists as a
    /// file); never without a walk. One `lstat` each, for the records parsed and every
    /// translation (which are always read).
    private func changedSinceWalk(_ file: MarkdownFile) -> Bool {
        guard let listed else { return false }
        let now = fileSystem.info(file.fullPath)
        guard let walked = listed.file(file.relativePath) else { return now?.kind != .symlink }
        return now != walked
    }

    private func translationBody(_ file: MarkdownFile, config: SiteConfig, bag: inout DiagnosticBag) -> MarkdownBody? {
        do {
            let source = try SourceText.decode(try readText(file.fullPath, relative: file.relativePath), path: file.relativePath)
            if source.text.hasPrefix("---\n") {
                // Front matter with nothing in it (blank lines, comments) is left over, not misplaced.
                let document = try? FrontMatterDocument.split(source)
                // The first line with a field, where the author looks (else the opening ---).
                let firstField = document?.yaml?.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { line in
                    let text = line.trimmingCharacters(in: .whitespaces)
                    return !text.isEmpty && !text.hasPrefix("#")
                }
                let line = firstField.map { $0 + (document?.yamlFirstLine ?? 2) } ?? 1
                bag.error(
                    firstField == nil
                        ? "a translation holds only Markdown text: remove its empty front matter (the --- lines at the top)"
                        : "a translation holds only Markdown text; put fields such as name and description in \(file.stem).md",
                    at: SourceLocation(path: file.relativePath, line: line, column: 1), stage: "load")
                return nil
            }
            let body = MarkdownBody(markdown: source.text, location: SourceLocation(path: file.relativePath, line: 1, column: 1))
            bag.append(contentsOf: source.problems + body.problems())
            return body.isBlank ? nil : body
        } catch let error as DiagnosticError {
            bag.append(contentsOf: error.diagnostics)
        } catch {
            bag.error("\(error)", at: SourceLocation(path: file.relativePath), stage: "load")
        }
        return nil
    }

    // MARK: Media

    struct MediaProblem: Error {
        var message: String
    }

    private func checkMedia(_ path: String, contentReal: String, suggestions: SuggestionBudget) -> Swift.Result<MediaFile, MediaProblem> {
        let full = contentDirectory + "/" + path
        let info: FileInfo
        // A regular file the walk reached through real folders is inside content/ (``ListedFiles``).
        if ContentPath.lexicalProblem(path) == nil, let walked = listed?.file("content/" + path) {
            info = walked
        } else {
            if let problem = ContentPath.problem(path, contentDirectory: contentDirectory, contentRealPath: contentReal, fileSystem: fileSystem) {
                // `content/images/cat.webp`, a path from the site's root (found by a new user).
                if problem == .missing, path.hasPrefix("content/"), fileSystem.info(contentDirectory + "/" + path.dropFirst("content/".count))?.kind == .file {
                    return .failure(MediaProblem(message: "\(problem); did you mean '\(path.dropFirst("content/".count))'? (paths are relative to content/)"))
                }
                guard problem == .missing,
                    let suggested = ContentPath.suggestion(for: path, contentDirectory: contentDirectory, fileSystem: fileSystem, budget: suggestions, anywhere: true)
                else { return .failure(MediaProblem(message: "\(problem)")) }
                return .failure(MediaProblem(message: "\(problem); \(ContentPath.didYouMean(suggested, for: path))"))
            }
            guard let followed = fileSystem.infoFollowingLinks(full) else { return .failure(MediaProblem(message: "no such file")) }
            info = followed
        }
        // A pipe would block the build until something writes to it.
        if info.kind != .file { return .failure(MediaProblem(message: "not a regular file (a pipe, a device or a socket, or a folder)")) }
        if info.size == 0 { return .failure(MediaProblem(message: "file is empty")) }
        if let format = knownFormat?(full, info), format != .svg {
            return .success(MediaFile(path: path, format: format, size: info.size, modificationTime: info.modificationTime))
        }
        let header: Data
        do {
            header = try fileSystem.readPrefix(full, count: MediaSniffer.headerLength)
        } catch {
            return .failure(MediaProblem(message: "cannot read it: \(error)"))
        }
        guard let format = MediaSniffer.sniff(header) else {
            if let what = MediaSniffer.unsupported(header) { return .failure(MediaProblem(message: "it is \(what)")) }
            return .failure(MediaProblem(message: "its bytes are not a supported sound or picture (mp3, ogg, opus, m4a, aac, wav, jpg, png, webp, gif, svg)"))
        }
        if format == .svg {
            guard let data = try? fileSystem.read(full) else { return .failure(MediaProblem(message: "cannot read it")) }
            if let problem = SVGInspector.problem(in: data) {
                return .failure(MediaProblem(message: "\(problem); only plain drawings are accepted"))
            }
        }
        return .success(MediaFile(path: path, format: format, size: info.size, modificationTime: info.modificationTime))
    }
}

/// Records parsed by earlier loads in this process, by path: a record whose bytes and site
/// configuration are the same as last time is not parsed again. Thread-safe.
///
/// The configuration is compared with `==`, which takes a text in another Unicode form as the
/// same text (bytes are compared for the record itself). That is enough: parsing a record reads
/// only the site's languages, which are ASCII codes (``LanguageCode/isValid(_:)``); a change of
/// any other key makes it parse again anyway.
public final class ParseMemo: @unchecked Sendable {
    struct Entry {
        var data: Data
        var config: SiteConfig
        var result: (Animal?, [Diagnostic])
    }

    private let lock = NSLock()
    private var entries: [String: Entry] = [:]

    public init() {}

    func lookup(_ path: String, data: Data, config: SiteConfig) -> (Animal?, [Diagnostic])? {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = entries[path], entry.data == data, entry.config == config else { return nil }
        return entry.result
    }

    func store(_ path: String, data: Data, config: SiteConfig, result: (Animal?, [Diagnostic])) {
        lock.lock()
        defer { lock.unlock() }
        entries[path] = Entry(data: data, config: config, result: result)
    }

    /// Forgets every record.
    public func reset() {
        keep([])
    }

    /// Forgets records that are gone.
    func keep(_ paths: Set<String>) {
        lock.lock()
        defer { lock.unlock() }
        entries = entries.filter { paths.contains($0.key) }
    }
}
