import BestiaryContent
import BestiaryDiagnostics
import BestiaryMarkdown
import BestiaryStorage
import BestiaryTemplate
import Foundation

/// Builds the Mustache context of each page, as ``TemplateValue``s. Per-language data (strings,
/// navigation labels) is computed once and shared, read-only, by the threads rendering pages.
///
/// The keys every page has are documented in docs/theming.md.
final class SharedContext: @unchecked Sendable {
    let renderer: SiteRenderer
    /// Set once, before any page is rendered (``SiteRenderer/render(reusing:streamingAnimalPagesTo:)``
    /// names the catalogue while the context is made).
    var catalogPath: String
    /// Each animal's input digest (``PageDigests``), when pages are rendered for a build in a new
    /// process: set once, before any page is rendered. With them, the lists of every animal are
    /// keyed lists, whose cards the next build copies from the page's file (``FragmentTable``).
    var animalDigests: [String]?
    let flatStrings: [String: [String: String]]
    /// Language → the strings nested by their dots (`t.nav.quiz`), converted once per language.
    let nestedStrings: [String: TemplateValue]
    let stringsJSON: [String: String]
    let buildDay: String
    let groupsByLanguage: [String: [[String: TemplateValue]]]
    /// Each group's members by difficulty, sorted by id: computed once, so finding an animal's
    /// similar ones is a binary search, never a pass over the catalogue.
    let groupLevels: [String: GroupLevels]
    /// Each language's animals (indices into the catalogue) sorted by name as people of that
    /// language sort names, ties by id: the collection and the sightings list both show them so.
    let byName: [String: [Int]]
    /// Each language's order by name under the digest of what it is sorted from
    /// (``nameOrderKey(_:_:fallback:)``), for the next build to reuse (``PageReuse/nameOrders``).
    let nameOrders: [String: [Int]]
    /// The quiz modes the catalogue can play (the home page offers only these).
    let quizModes: QuizModes
    /// The home page's counts (``HomeStats``), made once for every language.
    let homeStats: HomeStats
    /// Language → each animal's card parts, when made up front (``makeCards()``): set once,
    /// before any page is rendered.
    private(set) var cardParts: [String: [CardParts]]?

    var input: RenderInput { renderer.input }
    var config: SiteConfig { renderer.config }
    var paths: SitePaths { renderer.paths }

    /// `knownOrders`: orders by name an earlier build made, under the digest of their inputs.
    init(renderer: SiteRenderer, catalogPath: String, knownOrders: [String: [Int]] = [:]) {
        self.renderer = renderer
        self.catalogPath = catalogPath
        var flat: [String: [String: String]] = [:]
        var nested: [String: TemplateValue] = [:]
        var json: [String: String] = [:]
        for lang in renderer.config.languages {
            let table = renderer.input.strings.table(for: lang)
            flat[lang] = table
            nested[lang] = TemplateValue(any: UIStrings.nested(table))
            json[lang] = JSONText.encode(table)
        }
        flatStrings = flat
        nestedStrings = nested
        stringsJSON = json
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        buildDay = formatter.string(from: renderer.input.buildDate)
        var groups: [String: [[String: TemplateValue]]] = [:]
        let counts = Dictionary(grouping: renderer.input.catalog.animals.compactMap { $0.group }, by: { $0 }).mapValues(\.count)
        for lang in renderer.config.languages {
            // In the order of their labels in the language, as the collection sorts by group
            // (by key, the filters read Oiseaux, Mammifères, Reptiles: a translator's).
            let locale = Locale(identifier: lang)
            let labelled = counts.keys.map { ($0, Self.groupLabel($0, strings: flat[lang])) }.sorted { a, b in
                let order = a.1.compare(b.1, options: [.caseInsensitive], locale: locale)
                return order == .orderedSame ? a.0 < b.0 : order == .orderedAscending
            }
            groups[lang] = labelled.map { g, label in
                ["name": .string(g), "label": .string(label), "count": .int(counts[g]!)]
            }
        }
        groupsByLanguage = groups
        groupLevels = Self.groupLevels(renderer.input.catalog.animals)
        quizModes = QuizModes(input: renderer.input)
        homeStats = HomeStats(input: renderer.input)
        // Sorting 10,000 names as a language sorts them takes half a second: an order made from
        // the very same names and ids (by the same binary) is taken as it is.
        let animals = renderer.input.catalog.animals
        let languages = renderer.config.languages
        let keys = Parallel.map(languages, chunk: 1) { lang in Self.nameOrderKey(animals, lang, fallback: renderer.config.fallback(for: lang)) }
        var known: [String: [Int]] = [:]
        for (lang, key) in zip(languages, keys) {
            if let order = knownOrders[key], Self.isPermutation(order, of: animals.count) { known[lang] = order }
        }
        // The others sorted in halves (a language's names sort at their own speed: one language
        // alone kept a core busy for 0.2 s while the other waited), the halves then merged, each
        // language's names and collator made once for both.
        let toSort = languages.filter { known[$0] == nil }
        let orders = Parallel.map(toSort, chunk: 1) { lang in NameOrder(animals, lang, fallback: renderer.config.fallback(for: lang)) }
        let half = animals.count / 2
        let sortedHalves = Parallel.map(Array(0..<2 * orders.count), chunk: 1) { k in
            orders[k / 2].sorted(k % 2 == 0 ? 0..<half : half..<animals.count)
        }
        let sorted = Parallel.map(Array(languages.enumerated()), chunk: 1) { i, lang -> (String, String, [Int]) in
            if let order = known[lang] { return (lang, keys[i], order) }
            let at = toSort.firstIndex(of: lang)!
            return (lang, keys[i], orders[at].merged(sortedHalves[2 * at], sortedHalves[2 * at + 1]))
        }
        byName = Dictionary(uniqueKeysWithValues: sorted.map { ($0.0, $0.2) })
        nameOrders = Dictionary(sorted.map { ($0.1, $0.2) }) { first, _ in first }
    }

    /// Whether `order` holds each index below `count` once (a kept order from a damaged record
    /// is sorted anew, never used to index the catalogue).
    static func isPermutation(_ order: [Int], of count: Int) -> Bool {
        guard order.count == count else { return false }
        var seen = [Bool](repeating: false, count: count)
        for i in order {
            guard i >= 0, i < count, !seen[i] else { return false }
            seen[i] = true
        }
        return true
    }

    /// The digest of everything ``NameOrder`` sorts by: the language, its
    /// fallbacks, and every animal's id and name in that language, in catalogue order.
    static func nameOrderKey(_ animals: [Animal], _ lang: String, fallback: [String]) -> String {
        var parts = ["names by \(lang)", fallback.joined(separator: " ")]
        parts.reserveCapacity(2 + 2 * animals.count)
        for animal in animals {
            parts.append(animal.id)
            parts.append(animal.name.resolve(lang, fallback: fallback)?.text ?? animal.id)
        }
        return StableDigest.combine(parts)
    }

    /// Whether one animal's name comes before another's as people of a language sort names
    /// (case and accents aside), ties by id.
    struct NameOrder {
        let animals: [Animal]
        let names: [String]
        let collator: Locale

        init(_ animals: [Animal], _ lang: String, fallback: [String]) {
            self.animals = animals
            names = animals.map { $0.name.resolve(lang, fallback: fallback)?.text ?? $0.id }
            collator = Locale(identifier: lang)
        }

        func callAsFunction(_ i: Int, _ j: Int) -> Bool {
            let order = names[i].compare(names[j], options: [.caseInsensitive, .diacriticInsensitive], range: nil, locale: collator)
            return order == .orderedSame ? animals[i].id < animals[j].id : order == .orderedAscending
        }

        /// The indices in `range` (all by default) in this order (ids are unique: the order is
        /// total, so any sort gives it).
        func sorted(_ range: Range<Int>? = nil) -> [Int] {
            Array(range ?? animals.indices).sorted(by: callAsFunction)
        }

        /// Two parts of the catalogue, each in this order (``sorted(_:)``), as one.
        func merged(_ a: [Int], _ b: [Int]) -> [Int] { .merging(a, b, by: callAsFunction) }
    }

    /// Each group's members per difficulty, sorted by id.
    struct GroupLevels {
        /// Difficulties present, ascending.
        var levels: [Int]
        /// Difficulty → member indices sorted by id, and their ids (for the binary search).
        var members: [Int: (indices: [Int], ids: [String])]
    }

    static func groupLevels(_ animals: [Animal]) -> [String: GroupLevels] {
        groupLevels(animals.count, id: { animals[$0].id }, group: { animals[$0].group }, difficulty: { animals[$0].difficulty })
    }

    /// The group levels of `count` animals, each read by its index (what similar animals are
    /// chosen by: ``AffectedOutputs/Placement``, or an ``Animal``).
    static func groupLevels(
        _ count: Int, id: (Int) -> String, group: (Int) -> String?, difficulty: (Int) -> Int?
    ) -> [String: GroupLevels] {
        var members: [String: [Int]] = [:]
        for i in 0..<count { if let g = group(i) { members[g, default: []].append(i) } }
        return members.mapValues { indices in
            let byDifficulty = Dictionary(grouping: indices) { difficulty($0) ?? 1 }
                .mapValues { level in
                    let sorted = level.sorted { id($0) < id($1) }
                    return (sorted, sorted.map(id))
                }
            return GroupLevels(levels: byDifficulty.keys.sorted(), members: byDifficulty)
        }
    }

    /// Up to `keep` others of the animal's group: its own difficulty first, then the levels
    /// nearest it (the easier one first on a tie); within a level, the animals nearest its id in
    /// id order, after and before it in turn, wrapping around. Each animal gets its own
    /// neighbours, so a card shows on a handful of pages, never on every page of a big group.
    static func similar(to animal: Animal, in group: GroupLevels, keep: Int) -> [Int] {
        similar(id: animal.id, difficulty: animal.difficulty, in: group, keep: keep)
    }

    /// ``similar(to:in:keep:)`` of the animal `id` at `difficulty`: all it reads of one.
    static func similar(id: String, difficulty: Int?, in group: GroupLevels, keep: Int) -> [Int] {
        let own = difficulty ?? 1
        var result: [Int] = []
        for level in group.levels.sorted(by: { (abs($0 - own), $0) < (abs($1 - own), $1) }) {
            guard let (indices, ids) = group.members[level] else { continue }
            // Where the animal's id is (or would be) in this level.
            var low = 0, high = ids.count
            while low < high {
                let mid = (low + high) / 2
                if ids[mid] < id { low = mid + 1 } else { high = mid }
            }
            let selfAt = low < ids.count && ids[low] == id ? low : nil
            let others = indices.count - (selfAt == nil ? 0 : 1)
            var taken = 0
            var step = 0
            // Steps after (k = 0, 1, …) and before (k = -1, -2, …) the position, alternating.
            while taken < others && result.count < keep {
                let offset = step % 2 == 0 ? step / 2 + (selfAt == nil ? 0 : 1) : -(step / 2 + 1)
                step += 1
                let at = ((low + offset) % indices.count + indices.count) % indices.count
                if at == selfAt || result.contains(indices[at]) { continue }
                result.append(indices[at])
                taken += 1
            }
            if result.count >= keep { break }
        }
        return result
    }

    func t(_ lang: String, _ key: String) -> String {
        flatStrings[lang]?[key] ?? key
    }

    /// The theme's name for a group (`quiz.group.bird`), else the group as written.
    func groupLabel(_ group: String, _ lang: String) -> String {
        Self.groupLabel(group, strings: flatStrings[lang])
    }

    /// The theme's name for a group, else the group as written with its first letter capitalised,
    /// as the theme's labels are (`pet` stood in lower case beside "Birds"; a teacher's). The
    /// quiz's `groupName` (quiz-view.js) says the same.
    static func groupLabel(_ group: String, strings: [String: String]?) -> String {
        strings?["quiz.group.\(group)"] ?? group.prefix(1).uppercased() + group.dropFirst()
    }

    // MARK: Common keys

    /// Page kinds whose scripts load the quiz catalogue (home-page.js, quiz-page.js, settings-page.js).
    static let pagesReadingTheCatalog: Set<String> = ["home", "quiz", "settings"]

    func base(_ lang: String, directory: String, title: String?, kind: String, alternates key: String?) -> [String: TemplateValue] {
        let root = SitePaths.rootRelative(from: directory)
        let langRoot = SitePaths.relative(from: directory, to: paths.home(lang))
        let siteTitle = config.title.resolve(lang, fallback: config.fallback(for: lang))?.text ?? ""
        var context: [String: TemplateValue] = [
            "lang": .string(lang),
            "dir": .string(Languages.direction(lang)),
            "site_title": .string(siteTitle),
            "title": .string(title.map { "\($0) – \(siteTitle)" } ?? siteTitle),
            "page_title": .string(title ?? siteTitle),
            "page_kind": .string(kind),
            "root": .string(root),
            "lang_root": .string(langRoot),
            "canonical": .string(input.baseURL + directory),
            "t": nestedStrings[lang] ?? [:],
            "site_id": .string(input.siteID),
            // Only the pages whose scripts read the catalogue name it: its name carries a content
            // hash, and an edit to one animal must not change every other animal's page.
            "catalog_url": .string(Self.pagesReadingTheCatalog.contains(kind) ? catalogPath : ""),
            "languages_attr": .string(config.languages.joined(separator: " ")),
            "build_date": .string(buildDay),
            "generator": "Bestiary",
            "manifest_url": .string(root + WebManifest.path(lang, paths: paths)),
            "theme_color": .string(config.app.themeColor),
            "asset": asset(root: root),
            "nav": .list(navigation(lang, directory: directory, current: kind).map(TemplateValue.object)),
            "home_href": .string(SitePaths.relative(from: directory, to: paths.home(lang))),
            "quiz_href": .string(SitePaths.relative(from: directory, to: paths.quiz(lang))),
            "collection_href": .string(SitePaths.relative(from: directory, to: paths.collection(lang))),
            "sightings_href": .string(SitePaths.relative(from: directory, to: paths.sightings(lang))),
            "settings_href": .string(SitePaths.relative(from: directory, to: paths.settings(lang))),
            "sw_url": .string(root + "sw.js"),
            "has_languages": .bool(config.languages.count > 1),
        ]
        // Language switcher and hreflang alternates: the same page in every language.
        var switcher: [TemplateValue] = []
        var alternates: [TemplateValue] = []
        if let key {
            for other in config.languages {
                let dir = directoryFor(key: key, language: other)
                switcher.append([
                    "code": .string(other), "label": .string(Languages.endonym(other)),
                    "href": .string(SitePaths.relative(from: directory, to: dir)), "current": .bool(other == lang),
                ])
                alternates.append(["hreflang": .string(other), "href": .string(input.baseURL + dir)])
            }
            alternates.append([
                "hreflang": "x-default", "href": .string(input.baseURL + directoryFor(key: key, language: config.defaultLanguage)),
            ])
        }
        context["languages"] = .list(switcher)
        context["alternates"] = .list(alternates)
        return context
    }

    /// `{{#asset}}css/site.css{{/asset}}`: the hashed file's URL, relative to the page by `root`.
    func asset(root: String) -> TemplateValue {
        .lambda(
            TemplateLambda { logical in
                let name = Self.trimmed(logical)
                return self.input.assets.urls[name].map { root + $0 } ?? "#missing-asset:\(name)"
            })
    }

    /// `text` without leading and trailing white space. A name that starts and ends with a
    /// visible ASCII character (every `{{#asset}}` of the theme, on every page) is returned as it
    /// is: Foundation's trimming was half of the asset lambda's time.
    static func trimmed(_ text: String) -> String {
        let visible = { (byte: UInt8?) in byte.map { $0 > 0x20 && $0 < 0x7F } ?? false }
        if visible(text.utf8.first) && visible(text.utf8.last) { return text }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func directoryFor(key: String, language: String) -> String {
        if key == "home" { return paths.home(language) }
        if key == "quiz" { return paths.quiz(language) }
        if key == "collection" { return paths.collection(language) }
        if key == "credits" { return paths.credits(language) }
        if key == "sightings" { return paths.sightings(language) }
        if key == "settings" { return paths.settings(language) }
        if key == "offline" { return paths.offline(language) }
        if key.hasPrefix("page:") { return paths.page(String(key.dropFirst(5)), language) }
        if key.hasPrefix("animal:") { return paths.animal(String(key.dropFirst(7)), language) }
        return paths.home(language)
    }

    func navigation(_ lang: String, directory: String, current: String) -> [[String: TemplateValue]] {
        // `label_lang`: the language of a page title shown in another (its fallback), for screen
        // readers; null otherwise, so that `{{#label_lang}}` never takes the page's own `lang`.
        func item(_ label: String, _ target: String, _ kind: String, language: String? = nil) -> [String: TemplateValue] {
            [
                "label": .string(label), "href": .string(SitePaths.relative(from: directory, to: target)), "current": .bool(current == kind),
                "label_lang": language.map { .string($0) } ?? .null,
            ]
        }
        var items = [
            item(t(lang, "nav.home"), paths.home(lang), "home"),
            item(t(lang, "nav.quiz"), paths.quiz(lang), "quiz"),
            item(t(lang, "nav.collection"), paths.collection(lang), "collection"),
            item(t(lang, "nav.sightings"), paths.sightings(lang), "sightings"),
        ]
        for page in input.catalog.pages {
            let resolved = page.title.resolve(lang, fallback: config.fallback(for: lang))
            let language = resolved.flatMap { $0.language == lang ? nil : $0.language }
            items.append(item(resolved?.text ?? page.slug, paths.page(page.slug, lang), "page:" + page.slug, language: language))
        }
        items.append(item(t(lang, "nav.settings"), paths.settings(lang), "settings"))
        return items
    }

    // MARK: Animal

    /// Animal `index`'s card in language `lang`, for a page in `directory`.
    func animalSummary(_ index: Int, _ lang: String, directory: String) -> [String: TemplateValue] {
        let parts = cardParts?[lang]?[index] ?? CardParts(self, input.catalog.animals[index], lang)
        var item = parts.values
        item["href"] = .string(SitePaths.relative(from: directory, to: parts.href))
        item["thumb"] = parts.thumb.map { .string(parts.thumbIsExternal ? $0 : SitePaths.relative(from: directory, to: $0)) } ?? .null
        return item
    }

    /// What an animal's card holds in one language whatever page shows it: every value but the
    /// two links, which are relative to the page, and their targets.
    struct CardParts: Sendable {
        var values: [String: TemplateValue]
        /// The animal page's directory and the thumbnail (relative to the output) or its URL.
        var href: String
        var thumb: String?
        var thumbIsExternal = false

        init(_ shared: SharedContext, _ animal: Animal, _ lang: String) {
            let view = AnimalView(animal: animal, language: lang, input: shared.input)
            let name = view.name
            var item: [String: TemplateValue] = [
                "id": .string(animal.id),
                "name": .string(name.text),
                "name_lang": .string(name.language),
                "name_dir": .string(Languages.direction(name.language)),
                "name_is_fallback": .bool(name.language != lang),
                "has_sound": .bool(animal.sound != nil),
                "difficulty": .int(animal.difficulty ?? 1),
                "search": .string(shared.searchText(animal, lang)),
            ]
            item.reserveCapacity(item.count + 6)
            // A value a card lacks is null, not left out: a card shown inside another animal's
            // context (its similar animals) would otherwise take that animal's (its picture).
            item["group"] = animal.group.map(TemplateValue.string) ?? .null
            item["group_label"] = animal.group.map { .string(shared.groupLabel($0, lang)) } ?? .null
            item["scientific"] = animal.scientific.map(TemplateValue.string) ?? .null
            href = shared.paths.animal(animal.id, lang)
            item["thumb_focus"] = .null
            if let image = view.image {
                thumb = image.external ? image.src : (image.srcset.first?.path ?? image.src)
                thumbIsExternal = image.external
                item["thumb_focus"] = .string(image.focus ?? "50% 50%")
            }
            values = item
        }
    }

    /// Makes every animal's ``CardParts`` in every language at once, for a build that renders
    /// every page: a card is shown on its animal's page, on up to six others as a similar
    /// animal, and in the lists, and was made anew each time (1.3 of a full build's 10 CPU-s).
    /// A build that renders a few pages makes the few cards it shows.
    func makeCards() {
        let animals = input.catalog.animals
        var made: [String: [CardParts]] = [:]
        for lang in config.languages {
            made[lang] = Parallel.map(Array(animals.indices), chunk: 256) { CardParts(self, animals[$0], lang) }
        }
        cardParts = made
    }

    /// Every name in every language plus the scientific one and the group's name, lower-cased,
    /// accents kept (the collection's search folds accents in the browser).
    func searchText(_ animal: Animal, _ lang: String) -> String {
        var words = animal.name.languages.compactMap { animal.name[$0] }
        if let s = animal.scientific { words.append(s) }
        if let g = animal.group { words.append(groupLabel(g, lang)) }
        return Self.lowercased(words.joined(separator: " "))
    }

    /// `text.lowercased()`, by bytes when the text is ASCII (most names; a card is made for
    /// every animal on many pages, and Unicode case mapping was a tenth of its cost).
    static func lowercased(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes -> String? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return String(unsafeUninitializedCapacity: bytes.count) { out in
                for (i, b) in bytes.enumerated() { out[i] = b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
                return bytes.count
            }
        } ?? text.lowercased()
    }

    func animal(_ index: Int, _ lang: String, directory: String) -> [String: TemplateValue] {
        let animal = input.catalog.animals[index]
        let view = AnimalView(animal: animal, language: lang, input: input)
        let name = view.name
        var context = base(lang, directory: directory, title: name.text, kind: "animal", alternates: "animal:" + animal.id)
        var a = animalSummary(index, lang, directory: directory)
        a["names"] = .list(
            config.languages.compactMap { l -> TemplateValue? in
                guard let n = animal.name[l] else { return nil }
                return [
                    "lang": .string(l), "language": .string(Languages.endonym(l)), "name": .string(n), "dir": .string(Languages.direction(l)),
                ]
            })
        if let d = animal.difficulty {
            a["difficulty"] = .int(d)
            a["difficulty_label"] = .string(t(lang, "animal.difficulty\(d)"))
        }
        if let habitat = animal.habitat.resolve(lang, fallback: config.fallback(for: lang)) {
            a["habitat"] = .string(habitat.text)
            a["habitat_lang"] = .string(habitat.language)
            a["habitat_dir"] = .string(Languages.direction(habitat.language))
            a["habitat_is_fallback"] = .bool(habitat.language != lang)
        }
        if let conservation = animal.conservation { a["conservation"] = .string(conservation) }
        a["tags"] = .list(animal.tags.map { .string(config.tagLabel($0, language: lang)) })
        a["has_tags"] = .bool(!animal.tags.isEmpty)
        if let hint = animal.hint.resolve(lang, fallback: config.fallback(for: lang)) {
            a["hint"] = ["text": .string(hint.text), "lang": .string(hint.language), "dir": .string(Languages.direction(hint.language))]
        }
        if let image = view.image {
            var i: [String: TemplateValue] = [
                "src": .string(image.external ? image.src : SitePaths.relative(from: directory, to: image.src)),
                "alt": .string(image.alt), "focus": .string(image.focus ?? "50% 50%"), "from_wikipedia": .bool(image.fromWikipedia),
                "alt_lang": .string(image.altLanguage), "alt_dir": .string(Languages.direction(image.altLanguage)),
                "alt_is_fallback": .bool(image.altLanguage != lang),
            ]
            if let w = image.width, let h = image.height {
                i["width"] = .int(w)
                i["height"] = .int(h)
            }
            if image.srcset.count > 1 {
                i["srcset"] = .string(
                    image.srcset.map { "\(SitePaths.relative(from: directory, to: $0.path)) \($0.width ?? 0)w" }.joined(separator: ", "))
                i["sizes"] = "(min-width: 60em) 40em, 100vw"
            }
            i["credit"] = credit(image.credit, image.license, image.licenseURL, image.source) ?? .null
            a["image"] = .object(i)
        }
        if let sound = view.sound {
            a["sound"] = [
                "src": .string(sound.external ? sound.src : SitePaths.relative(from: directory, to: sound.src)),
                "type": .string(sound.type),
                // Nothing to credit: null, so the page says animal.noCredit (with swift-mustache a
                // nil here opened {{#credit}} and left an empty credit line).
                "credit": credit(sound.credit, sound.license, nil, sound.source) ?? .null,
            ]
        }
        // The page's root has a `description` (the meta description): the animal's own is null
        // when absent, so that `{{#description}}` inside the animal never takes the root's.
        a["description"] = .null
        if let summary = view.textSummary {
            a["summary"] = [
                "text": .string(summary.text), "lang": .string(summary.language), "dir": .string(Languages.direction(summary.language)),
                "is_fallback": .bool(summary.language != lang), "language": .string(Languages.name(summary.language, in: lang)),
                "title": .string(summary.title), "url": .string(summary.articleURL), "license": .string(summary.license),
                "license_url": .string(summary.licenseURL),
            ]
        } else if let description = animal.description.resolve(lang, fallback: config.fallback(for: lang)) {
            a["description"] = [
                "text": .string(description.text), "lang": .string(description.language), "dir": .string(Languages.direction(description.language)),
                "is_fallback": .bool(description.language != lang),
                "language": .string(Languages.name(description.language, in: lang)),
            ]
        }
        if let text = view.shortText { context["description"] = .string(String(text.text.prefix(200))) }
        // The Markdown part of the page: the theme's markdown/animal.md with the record's body (the
        // facts are in the layout, so each fact and name can carry its own language).
        var markdownContext = a
        if let body = view.body {
            markdownContext["body"] = .string(body.markdown)
            a["body_lang"] = .string(body.language)
            a["body_dir"] = .string(Languages.direction(body.language))
            a["body_is_fallback"] = .bool(body.language != lang)
            a["body_language"] = .string(Languages.name(body.language, in: lang))
        }
        markdownContext["t"] = nestedStrings[lang] ?? [:]
        a["content_html"] = .string(input.templates.renderMarkdown("markdown/animal", markdownContext, language: view.body?.language ?? lang))
        let similarAnimals = similar(animal, lang, directory: directory)
        a["similar"] = .list(similarAnimals.map(TemplateValue.object))
        a["has_similar"] = .bool(!similarAnimals.isEmpty)
        a["log_href"] = .string(SitePaths.relative(from: directory, to: paths.sightings(lang)) + "?animal=" + animal.id)
        context["animal"] = .object(a)
        return context
    }

    /// A credit line's parts; nil when there is nothing to credit.
    func credit(_ who: String?, _ license: String?, _ licenseURL: String?, _ source: String?) -> TemplateValue? {
        if who == nil && license == nil && source == nil { return nil }
        var c: [String: TemplateValue] = [:]
        if let who { c["by"] = .string(who) }
        if let license { c["license"] = .string(license) }
        if let licenseURL { c["license_url"] = .string(licenseURL) }
        if let source { c["source"] = .string(source) }
        return .object(c)
    }

    /// Up to six others of the same group (``similar(to:in:keep:)``).
    func similar(_ animal: Animal, _ lang: String, directory: String) -> [[String: TemplateValue]] {
        similarIndices(animal).map { animalSummary($0, lang, directory: directory) }
    }

    /// The similar animals' indices into the catalogue.
    func similarIndices(_ animal: Animal) -> [Int] {
        guard let group = animal.group.flatMap({ groupLevels[$0] }) else { return [] }
        return Self.similar(to: animal, in: group, keep: Self.similarCount)
    }

    /// How many similar animals an animal's page shows.
    static let similarCount = 6

    // MARK: Lists and shells

    func home(_ lang: String, directory: String) -> [String: TemplateValue] {
        var context = base(lang, directory: directory, title: nil, kind: "home", alternates: "home")
        let quiz = SitePaths.relative(from: directory, to: paths.quiz(lang))
        context["stats"] = [
            "animals": .int(homeStats.animals), "with_sound": .int(homeStats.withSound),
            "with_image": .int(homeStats.withImage[lang] ?? 0), "askable": .int(homeStats.askable),
        ]
        // Only what the quiz can play: a mode it would refuse says why instead of linking to it.
        context["modes"] = .list(QuizModes.all.map { mode in
            let available = quizModes.playable(mode)
            var m: [String: TemplateValue] = [
                "mode": .string(mode), "href": .string(quiz + "?mode=" + mode), "label": .string(t(lang, "home.\(mode).title")),
                "text": .string(t(lang, "home.\(mode).text")), "available": .bool(available),
            ]
            if !available { m["unavailable_text"] = .string(t(lang, quizModes.enoughNames ? "home.unavailable" : "home.tooFew")) }
            return .object(m)
        })
        context["strings_json"] = .string(stringsJSON[lang] ?? "{}")
        return context
    }

    /// How many cards the collection (and rows the sightings checklist and the credits) shows at
    /// first, and adds each time the learner asks for more.
    static let listPageSize = 500

    /// A list of animals a page at a time: the first page goes in the list and the rest in an inert
    /// `<template>` that the page's script takes them from (a browser took about 10 s to lay out
    /// 10,000 live cards, 3–4 s for the checklist's 10,000 rows and 12 s for the credits').
    func pages(of order: [Int], _ lang: String, _ item: @escaping @Sendable (Int) -> TemplateValue) -> [String: TemplateValue] {
        let firstPage = min(order.count, Self.listPageSize)
        return [
            "first_animals": animalItems(Array(order[..<firstPage]), item),
            "more_animals": animalItems(Array(order[firstPage...]), item),
            "more_count": .int(order.count - firstPage),
            "has_more": .bool(firstPage < order.count),
            "more_text": .string(plural(lang, "collection.noscriptMore", order.count - firstPage)),
            "page_size": .int(Self.listPageSize),
        ]
    }

    func collection(_ lang: String, directory: String) -> [String: TemplateValue] {
        var context = base(lang, directory: directory, title: t(lang, "nav.collection"), kind: "collection", alternates: "collection")
        let order = byName[lang] ?? []
        let card = { @Sendable (i: Int) -> TemplateValue in .object(self.animalSummary(i, lang, directory: directory)) }
        // Every card, for a theme's collection.html copied before the list was cut in pages.
        context["animals"] = animalItems(order, card)
        context.merge(pages(of: order, lang, card), uniquingKeysWith: { _, page in page })
        context["count"] = .int(order.count)
        context["count_text"] = .string(plural(lang, "collection.countAll", order.count))
        context["groups"] = .list((groupsByLanguage[lang] ?? []).map(TemplateValue.object))
        context["strings_json"] = .string(stringsJSON[lang] ?? "{}")
        return context
    }

    func quiz(_ lang: String, directory: String) -> [String: TemplateValue] {
        var context = base(lang, directory: directory, title: t(lang, "nav.quiz"), kind: "quiz", alternates: "quiz")
        // The quiz app's UI strings; other pages render their text on the server.
        context["strings_json"] = .string(stringsJSON[lang] ?? "{}")
        return context
    }

    /// A string with a `{count}`, in the language's form for `count` (`KEY.one`, `KEY.few` …, as
    /// the page's script chooses it where it updates the count: ``PluralRules``), else `KEY.other`.
    func plural(_ lang: String, _ key: String, _ count: Int) -> String {
        let strings = flatStrings[lang]
        let text = strings?[key + "." + PluralRules.category(count, lang)] ?? strings?[key + ".other"] ?? strings?[key] ?? key
        return text.replacingOccurrences(of: "{count}", with: String(count))
    }

    /// The animals at `indices` (into the catalogue), each made by `item`: a keyed list by each
    /// animal's input digest when there are digests (``animalDigests``), else a plain list.
    func animalItems(_ indices: [Int], _ item: @escaping @Sendable (Int) -> TemplateValue) -> TemplateValue {
        guard let digests = animalDigests else { return .list(indices.map(item)) }
        return .keyed(KeyedList(keys: indices.map { digests[$0] }) { item(indices[$0]) })
    }

    /// The sightings log: a form to log a sighting (animals grouped and sorted by name), the lists
    /// per outing and the species checklist, which the page's script fills from the browser's storage.
    func sightings(_ lang: String, directory: String) -> [String: TemplateValue] {
        var context = base(lang, directory: directory, title: t(lang, "nav.sightings"), kind: "sightings", alternates: "sightings")
        let order = byName[lang] ?? []
        let animals = input.catalog.animals
        let summary = { @Sendable (i: Int) -> TemplateValue in .object(self.animalSummary(i, lang, directory: directory)) }
        var byGroup: [String: [Int]] = [:]
        for i in order { byGroup[animals[i].group ?? "", default: []].append(i) }
        var optionGroups: [TemplateValue] = []
        for group in groupsByLanguage[lang] ?? [] {
            guard let name = group["name"]?.string, let members = byGroup[name] else { continue }
            optionGroups.append(["label": .string(group["label"]?.string ?? name), "animals": animalItems(members, summary)])
        }
        if let ungrouped = byGroup[""], !ungrouped.isEmpty {
            optionGroups.append(["label": .string(t(lang, "sightings.otherGroup")), "animals": animalItems(ungrouped, summary)])
        }
        context["option_groups"] = .list(optionGroups)
        // Every row, for a theme's sightings.html copied before the checklist was cut in pages.
        context["animals"] = animalItems(order, summary)
        context.merge(pages(of: order, lang, summary), uniquingKeysWith: { _, page in page })
        context["count"] = .int(order.count)
        context["checklist_text"] = .string(
            plural(lang, "sightings.checklistCount", 0).replacingOccurrences(of: "{total}", with: String(order.count)))
        context["strings_json"] = .string(stringsJSON[lang] ?? "{}")
        return context
    }

    /// Settings: language, feedback, theme, read-aloud voice, quiz filters, offline use and the
    /// learner's data (export, import, reset). Rendered as a form the page's script wires up.
    func settings(_ lang: String, directory: String) -> [String: TemplateValue] {
        var context = base(lang, directory: directory, title: t(lang, "nav.settings"), kind: "settings", alternates: "settings")
        context["language_options"] = .list(
            config.languages.map { other in
                [
                    "code": .string(other), "label": .string(Languages.endonym(other)), "current": .bool(other == lang),
                    "href": .string(SitePaths.relative(from: directory, to: paths.settings(other))),
                ]
            })
        context["has_language_choice"] = .bool(config.languages.count > 1)
        context["groups"] = .list((groupsByLanguage[lang] ?? []).map(TemplateValue.object))
        context["has_groups"] = .bool((groupsByLanguage[lang] ?? []).count > 1)
        context["difficulties"] = .list([1, 2, 3].map { ["value": .int($0), "label": .string(t(lang, "quiz.difficulty.\($0)"))] })
        context["strings_json"] = .string(stringsJSON[lang] ?? "{}")
        return context
    }

    /// The page the service worker shows instead of one that is not saved for offline use.
    func offline(_ lang: String, directory: String) -> [String: TemplateValue] {
        var context = base(lang, directory: directory, title: t(lang, "offline.title"), kind: "offline", alternates: "offline")
        context["noindex"] = true
        return context
    }

    func credits(_ lang: String, directory: String) -> [String: TemplateValue] {
        var context = base(lang, directory: directory, title: t(lang, "credits.title"), kind: "credits", alternates: "credits")
        let animals = input.catalog.animals
        let row = { @Sendable (i: Int) -> TemplateValue in
            let view = AnimalView(animal: animals[i], language: lang, input: self.input)
            var row = self.animalSummary(i, lang, directory: directory)
            if let image = view.image { row["image_credit"] = self.credit(image.credit, image.license, image.licenseURL, image.source) }
            if let sound = view.sound { row["sound_credit"] = self.credit(sound.credit, sound.license, nil, sound.source) }
            if let s = view.textSummary {
                row["text_credit"] = [
                    "title": .string(s.title), "url": .string(s.articleURL), "license": .string(s.license), "license_url": .string(s.licenseURL),
                ]
            }
            return .object(row)
        }
        // Every row, for a theme's credits.html copied before the table was cut in pages.
        context["animals"] = animalItems(Array(animals.indices), row)
        context.merge(pages(of: Array(animals.indices), lang, row), uniquingKeysWith: { _, page in page })
        context["strings_json"] = .string(stringsJSON[lang] ?? "{}")
        return context
    }

    func page(_ page: ContentPage, _ lang: String, directory: String) -> [String: TemplateValue] {
        let fallback = config.fallback(for: lang)
        let resolvedTitle = page.title.resolve(lang, fallback: fallback)
        let title = resolvedTitle?.text ?? page.slug
        var context = base(lang, directory: directory, title: title, kind: "page:" + page.slug, alternates: "page:" + page.slug)
        var markdownContext: [String: TemplateValue] = ["title": .string(title), "t": nestedStrings[lang] ?? [:]]
        var bodyLanguage = lang
        for l in fallback {
            if let body = page.bodies[l] {
                markdownContext["body"] = .string(body.markdown)
                bodyLanguage = l
                context["body_lang"] = .string(l)
                context["body_dir"] = .string(Languages.direction(l))
                context["body_is_fallback"] = .bool(l != lang)
                context["body_language"] = .string(Languages.name(l, in: lang))
                break
            }
        }
        var html = input.templates.renderMarkdown("markdown/page", markdownContext, language: bodyLanguage)
        // The title in another language than the body it heads (an Arabic title over the German
        // text it falls back to): the heading says its own, inside the body's `lang` and `dir`
        // the layout puts on the page's text.
        let titleLanguage = resolvedTitle?.language ?? bodyLanguage
        if titleLanguage != bodyLanguage, html.hasPrefix("<h1>") {
            html = "<h1 lang=\"\(titleLanguage)\" dir=\"\(Languages.direction(titleLanguage))\">" + html.dropFirst("<h1>".count)
        }
        context["content_html"] = .string(html)
        return context
    }

    func notFound() -> [String: TemplateValue] {
        let lang = config.defaultLanguage
        var context = base(lang, directory: "", title: t(lang, "notfound.title"), kind: "404", alternates: nil)
        // The 404 page is served at any depth: links must not be relative to it.
        // As written: `URL.path` decoded it (`a%2Fb` became `a/b`, `%22` a quote in the HTML).
        let rootPath = URLComponents(string: input.baseURL)?.percentEncodedPath ?? "/"
        let root = rootPath.hasSuffix("/") ? rootPath : rootPath + "/"
        context["root"] = .string(root)
        context["lang_root"] = .string(root)
        context["manifest_url"] = .string(root + "manifest.webmanifest")
        context["sw_url"] = .string(root + "sw.js")
        context["home_href"] = .string(root + paths.home(lang))
        context["quiz_href"] = .string(root + paths.quiz(lang))
        context["collection_href"] = .string(root + paths.collection(lang))
        context["sightings_href"] = .string(root + paths.sightings(lang))
        context["settings_href"] = .string(root + paths.settings(lang))
        context["asset"] = asset(root: root)
        func nav(_ l: String) -> TemplateValue {
            .list(
                navigation(l, directory: "", current: "404").map { item in
                    var i = item
                    if let href = i["href"]?.string { i["href"] = .string(root + (href == "./" ? "" : href)) }
                    return .object(i)
                })
        }
        context["nav"] = nav(lang)
        context["languages"] = .list(
            config.languages.map { l in
                [
                    "code": .string(l), "label": .string(Languages.endonym(l)), "href": .string(root + paths.home(l)),
                    "current": .bool(l == lang),
                ]
            })
        // One file answers for every language (static hosts serve only the root's 404.html): the
        // message in each other language too, with a link to that language's home page, and the
        // site's title and menu in it (not-found-page.js puts them first under that language's folder).
        context["others"] = .list(
            // Not a language the theme has no texts for: English again, labelled as that language.
            config.languages.filter { $0 != lang && input.strings.hasTexts(for: $0) }.map { l in
                [
                    "lang": .string(l), "dir": .string(Languages.direction(l)), "title": .string(t(l, "notfound.title")),
                    "text": .string(t(l, "notfound.text")), "home": .string(t(l, "notfound.home")), "href": .string(root + paths.home(l)),
                    "site_title": .string(config.title.resolve(l, fallback: config.fallback(for: l))?.text ?? ""), "nav": nav(l),
                    "skip": .string(t(l, "nav.skip")), "nav_label": .string(t(l, "nav.label")),
                    "credits": .string(t(l, "nav.credits")), "made_with": .string(t(l, "site.madeWith")),
                ]
            })
        return context
    }
}

/// What the home page counts: the animals, those with a sound, those with a picture in each
/// language, and those a round can ask (a sound, or the catalogue's picture, which is the default
/// language's, as the quiz's: the home page counts the learner's known ones out of these). Made in
/// one pass, on every core, for every language at once: each home page counting them over the
/// 10,000 animals took about 50 ms of each preview rebuild of the bench corpus.
struct HomeStats: Sendable, Equatable {
    var animals = 0
    var withSound = 0
    var withImage: [String: Int] = [:]
    var askable = 0

    init(animals: Int = 0, withSound: Int = 0, withImage: [String: Int] = [:], askable: Int = 0) {
        self.animals = animals
        self.withSound = withSound
        self.withImage = withImage
        self.askable = askable
    }

    init(input: RenderInput) {
        self.init(
            input.catalog.animals, languages: input.catalog.config.languages, defaultLanguage: input.catalog.config.defaultLanguage,
            hasSound: input.hasSound, hasImage: input.hasImage)
    }

    /// `hasImage`: whether the animal's page in a language shows a picture (its own, or its
    /// summary's there).
    init(
        _ animals: [Animal], languages: [String], defaultLanguage: String, hasSound: @Sendable (Animal) -> Bool,
        hasImage: @Sendable (Animal, String) -> Bool
    ) {
        let runs = Array(stride(from: 0, to: animals.count, by: 512))
        let parts = Parallel.map(runs, chunk: 1) { first -> (sound: Int, image: [Int], askable: Int) in
            var sound = 0, askable = 0
            var image = [Int](repeating: 0, count: languages.count)
            for animal in animals[first..<min(animals.count, first + 512)] {
                let sounds = hasSound(animal)
                if sounds { sound += 1 }
                var defaultImage: Bool?
                for (i, lang) in languages.enumerated() {
                    let has = hasImage(animal, lang)
                    if has { image[i] += 1 }
                    if lang == defaultLanguage { defaultImage = has }
                }
                if sounds || (defaultImage ?? hasImage(animal, defaultLanguage)) { askable += 1 }
            }
            return (sound, image, askable)
        }
        self.animals = animals.count
        var images = [Int](repeating: 0, count: languages.count)
        for part in parts {
            withSound += part.sound
            askable += part.askable
            for i in images.indices { images[i] += part.image[i] }
        }
        // (A language named twice is counted once.)
        for (lang, count) in zip(languages, images) { withImage[lang] = count }
    }
}

extension UIStrings {
    /// For `bestiary check`, on a site in several languages: per language, the records' groups the
    /// theme has no name for, which every language's pages show as written (a teacher's Arabic
    /// pages showed "Pet" and "Farm", and `check` said nothing).
    public func unnamedGroups(of catalog: Catalog) -> [Diagnostic] {
        let config = catalog.config
        guard config.languages.count > 1 else { return [] }
        let groups = Set(catalog.animals.compactMap(\.group)).sorted()
        return config.languages.compactMap { lang in
            let table = table(for: lang)
            let unnamed = groups.filter { table["quiz.group.\($0)"] == nil }
            guard let first = unnamed.first else { return nil }
            let shown = unnamed.map { "\($0) ('\(SharedContext.groupLabel($0, strings: nil))')" }.joined(separator: ", ")
            return .note(
                "groups with no name in '\(lang)', which its pages show as written: \(shown); name them in templates/i18n/\(lang).json (\"quiz.group.\(first)\": \"…\")",
                at: config.location(of: "languages"), stage: "render")
        }
    }
}
