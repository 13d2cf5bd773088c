import BestiaryDiagnostics

/// What a translator has left to do: per language, the records, pages, tag labels and site title
/// that have no text in it, which their pages in that language show in another (docs/content.md,
/// "Language fallback"). `bestiary check` says it as one note per language: nothing told a
/// translator adding French what was still German (found by one), nor a teacher who made French
/// the default language what was left in German.
public enum TranslationCheck {
    /// `summarised(id, language)`: whether the animal's page in that language shows a Wikipedia
    /// summary, in place of the record's description (which is then not called missing).
    /// `listing`: how many records and pages each note names before "…"; nil names every one
    /// (`check --all-warnings`, and JSON, whose reader is a script).
    public static func notes(
        of catalog: Catalog, listing: Int? = 3, summarised: (String, String) -> Bool = { _, _ in false }
    ) -> [Diagnostic] {
        let config = catalog.config
        let defaultLanguage = config.defaultLanguage
        var notes: [Diagnostic] = []
        for language in config.languages {
            let isDefault = language == defaultLanguage
            // The languages the pages show instead, as they choose them (LocalizedText.resolve).
            let order = config.fallback(for: language)
            var shownIn: Set<String> = []
            func shown(from present: some Sequence<String>) {
                let present = Set(present)
                if let first = order.first(where: present.contains) ?? present.sorted().first { shownIn.insert(first) }
            }
            // Each record's texts that some language has and this one lacks.
            var records: [(String, [String])] = []
            for animal in catalog.animals {
                var missing: [String] = []
                // The name in the default language is required (an error without it). The picture's
                // alt text is shown as another language's too (a translator's, never listed).
                let description = summarised(animal.id, language) ? LocalizedText([:]) : animal.description
                for (key, text) in [
                    ("name", isDefault ? LocalizedText([:]) : animal.name), ("description", description), ("hint", animal.hint),
                    ("habitat", animal.habitat), ("alt", animal.image?.alt ?? animal.leadImageAlt),
                ]
                where !text.values.isEmpty && text.values[language] == nil {
                    missing.append(key)
                    shown(from: text.values.keys)
                }
                // A body only in ID.LANG.md (the default language's ID.md has none, as after the
                // default language changed and the old bodies were moved) is missing in it too.
                if animal.bodies[language] == nil, animal.bodies.values.contains(where: { !$0.isBlank }) {
                    missing.append("body")
                    shown(from: animal.bodies.filter { !$0.value.isBlank }.keys)
                }
                if !missing.isEmpty { records.append((animal.id, missing)) }
            }
            var pages: [(String, [String])] = []
            for page in catalog.pages {
                var missing: [String] = []
                if !isDefault, page.title.values[language] == nil {
                    missing.append("title")
                    shown(from: page.title.values.keys)
                }
                if page.bodies[language] == nil, page.bodies.values.contains(where: { !$0.isBlank }) {
                    missing.append("body")
                    shown(from: page.bodies.filter { !$0.value.isBlank }.keys)
                }
                if !missing.isEmpty { pages.append((page.slug, missing)) }
            }
            let tags = config.tags.filter { !$0.value.values.isEmpty && $0.value.values[language] == nil }.keys.sorted()
            // A title in the default language alone (`title: Animal quiz`, as `init` writes it) is
            // the site's name in every language.
            for tag in tags { shown(from: config.tags[tag]?.languages ?? []) }
            let title = config.title.values[language] == nil && Set(config.title.values.keys) != [defaultLanguage]
            if title { shown(from: config.title.values.keys) }
            guard !records.isEmpty || !pages.isEmpty || !tags.isEmpty || title else { continue }
            func listed(_ items: [(String, [String])]) -> String {
                let limit = listing ?? items.count
                return items.prefix(limit).map { "\($0.0): \($0.1.joined(separator: ", "))" }.joined(separator: "; ")
                    + (items.count > limit ? "; … \(items.count - limit) more" : "")
            }
            var parts: [String] = []
            if !records.isEmpty { parts.append("\(records.count) of \(catalog.animals.count) records (\(listed(records)))") }
            if !pages.isEmpty { parts.append("\(pages.count) of \(catalog.pages.count) pages (\(listed(pages)))") }
            let tagLimit = listing.map { max($0, 5) } ?? tags.count
            if !tags.isEmpty { parts.append("\(tags.count) tag label\(tags.count == 1 ? "" : "s") (\(tags.prefix(tagLimit).joined(separator: ", "))\(tags.count > tagLimit ? ", …" : ""))") }
            if title { parts.append("the site's title") }
            let instead = order.filter(shownIn.contains).map { "'\($0)'" }
            let cut = tags.count > tagLimit || listing.map { records.count > $0 || pages.count > $0 } == true
            notes.append(.note(
                "not yet in '\(language)'\(isDefault ? " (the default language)" : ""): \(parts.joined(separator: ", ")); its pages in '\(language)' show those texts in \(instead.isEmpty ? "another language" : instead.joined(separator: " or "))"
                    + (cut ? " (--all-warnings lists every one)" : ""),
                at: config.location(of: "languages"), stage: "validate"))
        }
        // Tags with no label at all: on a site in several languages, each language's pages show
        // them as written (a teacher's Arabic pages showed `forest` and `europe`).
        let labelled = Set(config.tags.keys)
        let unlabelled = Set(catalog.animals.flatMap(\.tags)).subtracting(labelled).sorted()
        if config.languages.count > 1, let first = unlabelled.first {
            let limit = listing.map { max($0, 5) } ?? unlabelled.count
            let named = unlabelled.prefix(limit).joined(separator: ", ") + (unlabelled.count > limit ? ", … \(unlabelled.count - limit) more (--all-warnings lists every one)" : "")
            let example = config.languages.map { "\($0): …" }.joined(separator: ", ")
            notes.append(.note(
                "\(unlabelled.count) tag\(unlabelled.count == 1 ? "" : "s") with no label in site.yml's tags, which every language's pages show as written: \(named); label them there (tags: {\(first): {\(example)}})",
                at: config.location(of: "tags"), stage: "validate"))
        }
        return notes
    }
}
