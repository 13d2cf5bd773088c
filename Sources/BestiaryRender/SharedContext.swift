import BestiaryContent
import BestiaryMarkdown
import BestiaryStorage
import Foundation
import Mustache

/// Builds the Mustache context of each page. Per-language data (strings, navigation labels) is
/// computed once and shared, read-only, by the threads rendering pages.
///
/// The keys every page has are documented in docs/theming.md.
final class SharedContext: @unchecked Sendable {
    let renderer: SiteRenderer
    let catalogPath: String
    let flatStrings: [String: [String: String]]
    let nestedStrings: [String: [String: Any]]
    let stringsJSON: [String: String]
    let buildDay: String
    let groupsByLanguage: [String: [[String: Any]]]
    /// Each group's members by difficulty, sorted by id: computed once, so finding an animal's
    /// similar ones is a binary search, never a pass over the catalogue.
    let groupLevels: [String: GroupLevels]
    /// Each language's animals (indices into the catalogue) sorted by name as people of that
    /// language sort names, ties by id: the collection and the sightings list both show them so.
    let byName: [String: [Int]]

    var input: RenderInput { renderer.input }
    var config: SiteConfig { renderer.config }
    var paths: SitePaths { renderer.paths }

    init(renderer: SiteRenderer, catalogPath: String) {
        self.renderer = renderer
        self.catalogPath = catalogPath
        var flat: [String: [String: String]] = [:]
        var nested: [String: [String: Any]] = [:]
        var json: [String: String] = [:]
        for lang in renderer.config.languages {
            let table = renderer.input.strings.table(for: lang)
            flat[lang] = table
            nested[lang] = UIStrings.nested(table)
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
        var groups: [String: [[String: Any]]] = [:]
        let counts = Dictionary(grouping: renderer.input.catalog.animals.compactMap(\.group), by: { $0 }).mapValues(\.count)
        for lang in renderer.config.languages {
            groups[lang] = counts.keys.sorted().map { g in
                ["name": g, "label": flat[lang]?["quiz.group.\(g)"] ?? g, "count": counts[g]!] as [String: Any]
            }
        }
        groupsByLanguage = groups
        groupLevels = Self.groupLevels(renderer.input.catalog.animals)
        byName = Dictionary(uniqueKeysWithValues: Parallel.map(renderer.config.languages, minimumChunk: 1) { lang in
            (lang, Self.sortedByName(renderer.input.catalog.animals, lang, fallback: renderer.config.fallback(for: lang)))
        })
    }

    static func sortedByName(_ animals: [Animal], _ lang: String, fallback: [String]) -> [Int] {
        let collator = Locale(identifier: lang)
        let names = animals.map { $0.name.resolve(lang, fallback: fallback)?.text ?? $0.id }
        return animals.indices.sorted { i, j in
            let order = names[i].compare(names[j], options: [.caseInsensitive, .diacriticInsensitive], range: nil, locale: collator)
            return order == .orderedSame ? animals[i].id < animals[j].id : order == .orderedAscending
        }
    }

    /// Each group's members per difficulty, sorted by id.
    struct GroupLevels {
        /// Difficulties present, ascending.
        var levels: [Int]
        /// Difficulty → member indices sorted by id, and their ids (for the binary search).
        var members: [Int: (indices: [Int], ids: [String])]
    }

    static func groupLevels(_ animals: [Animal]) -> [String: GroupLevels] {
        var members: [String: [Int]] = [:]
        for (i, a) in animals.enumerated() { if let g = a.group { members[g, default: []].append(i) } }
        return members.mapValues { indices in
            let byDifficulty = Dictionary(grouping: indices) { animals[$0].difficulty ?? 1 }
                .mapValues { level in
                    let sorted = level.sorted { animals[$0].id < animals[$1].id }
                    return (sorted, sorted.map { animals[$0].id })
                }
            return GroupLevels(levels: byDifficulty.keys.sorted(), members: byDifficulty)
        }
    }

    /// Up to `keep` others of the animal's group: its own difficulty first, then the levels
    /// nearest it (the easier one first on a tie); within a level, the animals nearest its id in
    /// id order, after and before it in turn, wrapping around. Each animal gets its own
    /// neighbours, so a card shows on a handful of pages, never on every page of a big group.
    static func similar(to animal: Animal, in group: GroupLevels, keep: Int) -> [Int] {
        let own = animal.difficulty ?? 1
        var result: [Int] = []
        for level in group.levels.sorted(by: { (abs($0 - own), $0) < (abs($1 - own), $1) }) {
            guard let (indices, ids) = group.members[level] else { continue }
            // Where the animal's id is (or would be) in this level.
            var low = 0, high = ids.count
            while low < high {
                let mid = (low + high) / 2
                if ids[mid] < animal.id { low = mid + 1 } else { high = mid }
            }
            let selfAt = low < ids.count && ids[low] == animal.id ? low : nil
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
        flatStrings[lang]?["quiz.group.\(group)"] ?? group
    }

    // MARK: Common keys

    /// Page kinds whose scripts load the quiz catalogue (home-page.js, quiz-page.js, settings-page.js).
    static let pagesReadingTheCatalog: Set<String> = ["home", "quiz", "settings"]

    func base(_ lang: String, directory: String, title: String?, kind: String, alternates key: String?) -> [String: Any] {
        let root = SitePaths.rootRelative(from: directory)
        let langRoot = SitePaths.relative(from: directory, to: paths.home(lang))
        let siteTitle = config.title.resolve(lang, fallback: config.fallback(for: lang))?.text ?? ""
        var context: [String: Any] = [
            "lang": lang,
            "dir": Languages.direction(lang),
            "site_title": siteTitle,
            "title": title.map { "\($0) – \(siteTitle)" } ?? siteTitle,
            "page_title": title ?? siteTitle,
            "page_kind": kind,
            "root": root,
            "lang_root": langRoot,
            "canonical": input.baseURL + directory,
            "t": nestedStrings[lang] ?? [:],
            "site_id": input.siteID,
            // Only the pages whose scripts read the catalogue name it: its name carries a content
            // hash, and an edit to one animal must not change every other animal's page.
            "catalog_url": Self.pagesReadingTheCatalog.contains(kind) ? catalogPath : "",
            "languages_attr": config.languages.joined(separator: " "),
            "build_date": buildDay,
            "generator": "Bestiary",
            "manifest_url": root + "manifest.webmanifest",
            "asset": MustacheLambda { logical in
                let name = logical.trimmingCharacters(in: .whitespacesAndNewlines)
                return self.input.assets.urls[name].map { root + $0 } ?? "#missing-asset:\(name)"
            },
            "nav": navigation(lang, directory: directory, current: kind),
            "home_href": SitePaths.relative(from: directory, to: paths.home(lang)),
            "quiz_href": SitePaths.relative(from: directory, to: paths.quiz(lang)),
            "collection_href": SitePaths.relative(from: directory, to: paths.collection(lang)),
            "sightings_href": SitePaths.relative(from: directory, to: paths.sightings(lang)),
            "settings_href": SitePaths.relative(from: directory, to: paths.settings(lang)),
            "sw_url": root + "sw.js",
            "has_languages": config.languages.count > 1,
        ]
        // Language switcher and hreflang alternates: the same page in every language.
        var switcher: [[String: Any]] = []
        var alternates: [[String: Any]] = []
        if let key {
            for other in config.languages {
                let dir = directoryFor(key: key, language: other)
                switcher.append([
                    "code": other, "label": Languages.endonym(other), "href": SitePaths.relative(from: directory, to: dir),
                    "current": other == lang,
                ])
                alternates.append(["hreflang": other, "href": input.baseURL + dir])
            }
            alternates.append(["hreflang": "x-default", "href": input.baseURL + directoryFor(key: key, language: config.defaultLanguage)])
        }
        context["languages"] = switcher
        context["alternates"] = alternates
        return context
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

    func navigation(_ lang: String, directory: String, current: String) -> [[String: Any]] {
        var items: [[String: Any]] = [
            ["label": t(lang, "nav.home"), "href": SitePaths.relative(from: directory, to: paths.home(lang)), "current": current == "home"],
            ["label": t(lang, "nav.quiz"), "href": SitePaths.relative(from: directory, to: paths.quiz(lang)), "current": current == "quiz"],
            [
                "label": t(lang, "nav.collection"), "href": SitePaths.relative(from: directory, to: paths.collection(lang)),
                "current": current == "collection",
            ],
        ]
        items.append([
            "label": t(lang, "nav.sightings"), "href": SitePaths.relative(from: directory, to: paths.sightings(lang)),
            "current": current == "sightings",
        ])
        for page in input.catalog.pages {
            let title = page.title.resolve(lang, fallback: config.fallback(for: lang))?.text ?? page.slug
            items.append([
                "label": title, "href": SitePaths.relative(from: directory, to: paths.page(page.slug, lang)),
                "current": current == "page:" + page.slug,
            ])
        }
        items.append([
            "label": t(lang, "nav.settings"), "href": SitePaths.relative(from: directory, to: paths.settings(lang)),
            "current": current == "settings",
        ])
        return items
    }

    // MARK: Animal

    func animalSummary(_ animal: Animal, _ lang: String, directory: String) -> [String: Any] {
        let view = AnimalView(animal: animal, language: lang, input: input)
        let name = view.name
        var item: [String: Any] = [
            "id": animal.id,
            "name": name.text,
            "name_lang": name.language,
            "name_is_fallback": name.language != lang,
            "href": SitePaths.relative(from: directory, to: paths.animal(animal.id, lang)),
            "has_sound": animal.sound != nil,
            "difficulty": animal.difficulty ?? 1,
            "search": searchText(animal, lang),
        ]
        if let g = animal.group {
            item["group"] = g
            item["group_label"] = groupLabel(g, lang)
        }
        if let s = animal.scientific { item["scientific"] = s }
        if let image = view.image {
            item["thumb"] = image.external ? image.src : SitePaths.relative(from: directory, to: (image.srcset.first?.path ?? image.src))
            item["thumb_focus"] = image.focus ?? "50% 50%"
        }
        return item
    }

    /// Every name in every language plus the scientific one and the group's name, lower-cased,
    /// accents kept (the collection's search folds accents in the browser).
    func searchText(_ animal: Animal, _ lang: String) -> String {
        var words = animal.name.languages.compactMap { animal.name[$0] }
        if let s = animal.scientific { words.append(s) }
        if let g = animal.group { words.append(groupLabel(g, lang)) }
        return words.joined(separator: " ").lowercased()
    }

    func animal(_ animal: Animal, _ lang: String, directory: String) -> [String: Any] {
        let view = AnimalView(animal: animal, language: lang, input: input)
        let name = view.name
        var context = base(lang, directory: directory, title: name.text, kind: "animal", alternates: "animal:" + animal.id)
        var a = animalSummary(animal, lang, directory: directory)
        a["names"] = config.languages.compactMap { l -> [String: Any]? in
            guard let n = animal.name[l] else { return nil }
            return ["lang": l, "language": Languages.endonym(l), "name": n, "dir": Languages.direction(l)]
        }
        if let d = animal.difficulty { a["difficulty"] = d; a["difficulty_label"] = t(lang, "animal.difficulty\(d)") }
        if let habitat = animal.habitat.resolve(lang, fallback: config.fallback(for: lang)) { a["habitat"] = habitat.text }
        if let conservation = animal.conservation { a["conservation"] = conservation }
        a["tags"] = animal.tags
        a["has_tags"] = !animal.tags.isEmpty
        if let hint = animal.hint.resolve(lang, fallback: config.fallback(for: lang)) {
            a["hint"] = ["text": hint.text, "lang": hint.language]
        }
        if let image = view.image {
            var i: [String: Any] = [
                "src": image.external ? image.src : SitePaths.relative(from: directory, to: image.src),
                "alt": image.alt, "focus": image.focus ?? "50% 50%", "from_wikipedia": image.fromWikipedia,
            ]
            if let w = image.width, let h = image.height { i["width"] = w; i["height"] = h }
            if image.srcset.count > 1 {
                i["srcset"] = image.srcset.map { "\(SitePaths.relative(from: directory, to: $0.path)) \($0.width ?? 0)w" }.joined(separator: ", ")
                i["sizes"] = "(min-width: 60em) 40em, 100vw"
            }
            i["credit"] = credit(image.credit, image.license, image.licenseURL, image.source)
            a["image"] = i
        }
        if let sound = view.sound {
            a["sound"] = [
                "src": sound.external ? sound.src : SitePaths.relative(from: directory, to: sound.src),
                "type": sound.type,
                "credit": credit(sound.credit, sound.license, nil, sound.source),
            ]
        }
        if let summary = view.summary {
            a["summary"] = [
                "text": summary.text, "lang": summary.language, "dir": Languages.direction(summary.language),
                "is_fallback": summary.language != lang, "language": Languages.name(summary.language, in: lang),
                "title": summary.title, "url": summary.articleURL, "license": summary.license, "license_url": summary.licenseURL,
            ]
        } else if let description = animal.description.resolve(lang, fallback: config.fallback(for: lang)) {
            a["description"] = [
                "text": description.text, "lang": description.language, "is_fallback": description.language != lang,
                "language": Languages.name(description.language, in: lang),
            ]
        }
        if let text = view.shortText { context["description"] = String(text.text.prefix(200)) }
        // The Markdown part of the page: the theme's markdown/animal.md with the record's body.
        var markdownContext = a
        if let body = view.body {
            markdownContext["body"] = body.markdown
            a["body_lang"] = body.language
            a["body_is_fallback"] = body.language != lang
        }
        markdownContext["t"] = nestedStrings[lang] ?? [:]
        a["content_html"] = input.templates.renderMarkdown("markdown/animal", markdownContext)
        let similarAnimals = similar(animal, lang, directory: directory)
        a["similar"] = similarAnimals
        a["has_similar"] = !similarAnimals.isEmpty
        a["log_href"] = SitePaths.relative(from: directory, to: paths.sightings(lang)) + "?animal=" + animal.id
        context["animal"] = a
        return context
    }

    /// A credit line's parts; nil when there is nothing to credit.
    func credit(_ who: String?, _ license: String?, _ licenseURL: String?, _ source: String?) -> [String: Any]? {
        if who == nil && license == nil && source == nil { return nil }
        var c: [String: Any] = [:]
        if let who { c["by"] = who }
        if let license { c["license"] = license }
        if let licenseURL { c["license_url"] = licenseURL }
        if let source { c["source"] = source }
        return c
    }

    /// Up to six others of the same group (``similar(to:in:keep:)``).
    func similar(_ animal: Animal, _ lang: String, directory: String) -> [[String: Any]] {
        similarIndices(animal).map { animalSummary(input.catalog.animals[$0], lang, directory: directory) }
    }

    /// The similar animals' indices into the catalogue.
    func similarIndices(_ animal: Animal) -> [Int] {
        guard let group = animal.group.flatMap({ groupLevels[$0] }) else { return [] }
        return Self.similar(to: animal, in: group, keep: 6)
    }

    // MARK: Lists and shells

    func home(_ lang: String, directory: String) -> [String: Any] {
        var context = base(lang, directory: directory, title: nil, kind: "home", alternates: "home")
        let animals = input.catalog.animals
        let withSound = animals.filter { $0.sound != nil }.count
        let withImage = animals.filter { AnimalView(animal: $0, language: lang, input: input).image != nil }.count
        let quiz = SitePaths.relative(from: directory, to: paths.quiz(lang))
        context["stats"] = ["animals": animals.count, "with_sound": withSound, "with_image": withImage]
        context["modes"] = [
            ["mode": "sound", "href": quiz + "?mode=sound", "label": t(lang, "home.sound.title"), "text": t(lang, "home.sound.text"), "available": withSound > 0],
            ["mode": "image", "href": quiz + "?mode=image", "label": t(lang, "home.image.title"), "text": t(lang, "home.image.text"), "available": withImage > 0],
            ["mode": "daily", "href": quiz + "?mode=daily", "label": t(lang, "home.daily.title"), "text": t(lang, "home.daily.text"), "available": !animals.isEmpty],
            ["mode": "learn", "href": quiz + "?mode=learn", "label": t(lang, "home.learn.title"), "text": t(lang, "home.learn.text"), "available": !animals.isEmpty],
        ]
        context["strings_json"] = stringsJSON[lang] ?? "{}"
        return context
    }

    func collection(_ lang: String, directory: String) -> [String: Any] {
        var context = base(lang, directory: directory, title: t(lang, "nav.collection"), kind: "collection", alternates: "collection")
        let items = animalsByName(lang, directory: directory)
        context["animals"] = items
        context["count"] = items.count
        context["count_text"] = plural(lang, "collection.countAll", items.count)
        context["groups"] = groupsByLanguage[lang] ?? []
        context["strings_json"] = stringsJSON[lang] ?? "{}"
        return context
    }

    func quiz(_ lang: String, directory: String) -> [String: Any] {
        var context = base(lang, directory: directory, title: t(lang, "nav.quiz"), kind: "quiz", alternates: "quiz")
        // The quiz app's UI strings; other pages render their text on the server.
        context["strings_json"] = stringsJSON[lang] ?? "{}"
        return context
    }

    /// A string with a `{count}`, in the form for `count` (`KEY.one` or `KEY.other`; the browser
    /// refines it with the language's plural rules where the page updates it).
    func plural(_ lang: String, _ key: String, _ count: Int) -> String {
        let form = count == 1 ? flatStrings[lang]?[key + ".one"] : nil
        let text = form ?? flatStrings[lang]?[key + ".other"] ?? flatStrings[lang]?[key] ?? key
        return text.replacingOccurrences(of: "{count}", with: String(count))
    }

    /// Every animal's name in `lang`, sorted as people of that language sort names.
    func animalsByName(_ lang: String, directory: String) -> [[String: Any]] {
        (byName[lang] ?? []).map { animalSummary(input.catalog.animals[$0], lang, directory: directory) }
    }

    /// The sightings log: a form to log a sighting (animals grouped and sorted by name), the lists
    /// per outing and the species checklist, which the page's script fills from the browser's storage.
    func sightings(_ lang: String, directory: String) -> [String: Any] {
        var context = base(lang, directory: directory, title: t(lang, "nav.sightings"), kind: "sightings", alternates: "sightings")
        let animals = animalsByName(lang, directory: directory)
        var byGroup: [String: [[String: Any]]] = [:]
        for animal in animals { byGroup[(animal["group"] as? String) ?? "", default: []].append(animal) }
        var optionGroups: [[String: Any]] = []
        for group in groupsByLanguage[lang] ?? [] {
            guard let name = group["name"] as? String, let members = byGroup[name] else { continue }
            optionGroups.append(["label": (group["label"] as? String) ?? name, "animals": members])
        }
        if let ungrouped = byGroup[""], !ungrouped.isEmpty {
            optionGroups.append(["label": t(lang, "sightings.otherGroup"), "animals": ungrouped])
        }
        context["option_groups"] = optionGroups
        context["animals"] = animals
        context["count"] = animals.count
        context["checklist_text"] = plural(lang, "sightings.checklistCount", 0).replacingOccurrences(of: "{total}", with: String(animals.count))
        context["strings_json"] = stringsJSON[lang] ?? "{}"
        return context
    }

    /// Settings: language, feedback, theme, read-aloud voice, quiz filters, offline use and the
    /// learner's data (export, import, reset). Rendered as a form the page's script wires up.
    func settings(_ lang: String, directory: String) -> [String: Any] {
        var context = base(lang, directory: directory, title: t(lang, "nav.settings"), kind: "settings", alternates: "settings")
        context["language_options"] = config.languages.map { other -> [String: Any] in
            [
                "code": other, "label": Languages.endonym(other), "current": other == lang,
                "href": SitePaths.relative(from: directory, to: paths.settings(other)),
            ]
        }
        context["has_language_choice"] = config.languages.count > 1
        context["groups"] = groupsByLanguage[lang] ?? []
        context["has_groups"] = (groupsByLanguage[lang] ?? []).count > 1
        context["difficulties"] = [1, 2, 3].map { ["value": $0, "label": t(lang, "quiz.difficulty.\($0)")] as [String: Any] }
        context["strings_json"] = stringsJSON[lang] ?? "{}"
        return context
    }

    /// The page the service worker shows instead of one that is not saved for offline use.
    func offline(_ lang: String, directory: String) -> [String: Any] {
        var context = base(lang, directory: directory, title: t(lang, "offline.title"), kind: "offline", alternates: "offline")
        context["noindex"] = true
        return context
    }

    func credits(_ lang: String, directory: String) -> [String: Any] {
        var context = base(lang, directory: directory, title: t(lang, "credits.title"), kind: "credits", alternates: "credits")
        var rows: [[String: Any]] = []
        for animal in input.catalog.animals {
            let view = AnimalView(animal: animal, language: lang, input: input)
            var row = animalSummary(animal, lang, directory: directory)
            if let image = view.image { row["image_credit"] = credit(image.credit, image.license, image.licenseURL, image.source) }
            if let sound = view.sound { row["sound_credit"] = credit(sound.credit, sound.license, nil, sound.source) }
            if let s = view.summary { row["text_credit"] = ["title": s.title, "url": s.articleURL, "license": s.license, "license_url": s.licenseURL] }
            rows.append(row)
        }
        context["animals"] = rows
        return context
    }

    func page(_ page: ContentPage, _ lang: String, directory: String) -> [String: Any] {
        let fallback = config.fallback(for: lang)
        let title = page.title.resolve(lang, fallback: fallback)?.text ?? page.slug
        var context = base(lang, directory: directory, title: title, kind: "page:" + page.slug, alternates: "page:" + page.slug)
        var markdownContext: [String: Any] = ["title": title, "t": nestedStrings[lang] ?? [:]]
        for l in fallback {
            if let body = page.bodies[l] {
                markdownContext["body"] = body.markdown
                context["body_lang"] = l
                context["body_is_fallback"] = l != lang
                break
            }
        }
        context["content_html"] = input.templates.renderMarkdown("markdown/page", markdownContext)
        return context
    }

    func notFound() -> [String: Any] {
        let lang = config.defaultLanguage
        var context = base(lang, directory: "", title: t(lang, "notfound.title"), kind: "404", alternates: nil)
        // The 404 page is served at any depth: links must not be relative to it.
        let rootPath = URL(string: input.baseURL)?.path ?? "/"
        context["root"] = rootPath.hasSuffix("/") ? rootPath : rootPath + "/"
        context["lang_root"] = context["root"]
        context["manifest_url"] = (context["root"] as! String) + "manifest.webmanifest"
        let root = context["root"] as! String
        context["sw_url"] = root + "sw.js"
        context["home_href"] = root + paths.home(lang)
        context["quiz_href"] = root + paths.quiz(lang)
        context["collection_href"] = root + paths.collection(lang)
        context["sightings_href"] = root + paths.sightings(lang)
        context["settings_href"] = root + paths.settings(lang)
        context["asset"] = MustacheLambda { logical in
            let name = logical.trimmingCharacters(in: .whitespacesAndNewlines)
            return self.input.assets.urls[name].map { root + $0 } ?? "#missing-asset:\(name)"
        }
        context["nav"] = navigation(lang, directory: "", current: "404").map { item -> [String: Any] in
            var i = item
            if let href = i["href"] as? String { i["href"] = root + (href == "./" ? "" : href) }
            return i
        }
        context["languages"] = config.languages.map { l -> [String: Any] in
            ["code": l, "label": Languages.endonym(l), "href": root + paths.home(l), "current": l == lang]
        }
        return context
    }
}
