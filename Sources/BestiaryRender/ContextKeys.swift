import BestiaryContent
import BestiaryDiagnostics

/// The names Bestiary's page contexts hold, at any depth (docs/theming.md, "Context keys").
///
/// Mustache renders a name it finds in no context as nothing, the same as an optional value that
/// is absent, so a misspelt `{{scientfic}}` in a theme would just leave the page without it. A
/// name no context of any page ever holds can only be such a mistake: the theme check warns about
/// it where the tag is. `ContextKeysTests` builds a site with every kind of page and value and
/// checks this list against what the contexts really hold, both ways.
enum ContextKeys {
    static let all: Set<String> = [
        // Every page.
        "lang", "dir", "title", "page_title", "site_title", "description", "noindex", "page_kind", "root", "lang_root",
        "home_href", "quiz_href", "collection_href", "sightings_href", "settings_href", "canonical", "alternates", "hreflang",
        "href", "nav", "label", "label_lang", "current", "has_languages", "languages", "code", "asset", "manifest_url", "theme_color", "sw_url", "site_id",
        "catalog_url", "languages_attr", "build_date", "strings_json", "t", "generator",
        // Cards (and the animal page's `animal`, which holds everything of a card).
        "id", "name", "name_lang", "name_dir", "name_is_fallback", "group", "group_label", "difficulty", "has_sound",
        "scientific", "thumb", "thumb_focus", "search", "image_credit", "sound_credit", "text_credit",
        // The animal page.
        "animal", "names", "language", "difficulty_label", "habitat", "habitat_lang", "habitat_dir", "habitat_is_fallback",
        "conservation", "tags", "has_tags", "hint", "text", "image", "src", "srcset", "sizes", "width", "height", "alt", "focus",
        "from_wikipedia", "alt_lang", "alt_dir", "alt_is_fallback", "credit", "by", "license", "license_url", "source", "sound", "type", "summary", "is_fallback", "url",
        "content_html", "body_lang", "body_dir", "body_is_fallback", "body_language", "similar", "has_similar", "log_href",
        // Home, lists, settings.
        "modes", "mode", "available", "unavailable_text", "stats", "animals", "with_sound", "with_image", "askable", "count", "count_text",
        "first_animals", "more_animals", "more_count", "has_more", "more_text", "page_size",
        "groups", "option_groups", "checklist_text", "language_options", "has_language_choice", "has_groups", "difficulties",
        "value",
        // The 404 page.
        "others", "home", "skip", "nav_label", "credits", "made_with",
    ]

    /// Names only the Markdown templates' contexts hold (`markdown/animal.md`, `markdown/page.md`).
    static let markdownOnly: Set<String> = ["body"]

    /// One warning per template file and unknown name, at its first tag: names that are in no
    /// context (`all`), and `{{t.…}}` texts that no table of the theme's `i18n/` has.
    /// `checkingTexts`: whether `t.…` names are checked (not while a table could not be read).
    static func unknownNames(in templates: Templates, strings: UIStrings, checkingTexts: Bool = true) -> [Diagnostic] {
        let known = all.union(markdownOnly)
        let texts = Set(strings.tables.values.flatMap(\.keys))
        var seen = Set<String>()
        var problems: [Diagnostic] = []
        func isText(_ key: String) -> Bool { texts.contains(key) || texts.contains { $0.hasPrefix(key + ".") } }
        for lookup in templates.lookups {
            let parts = lookup.name.split(separator: ".").map(String.init)
            // Inside `{{#t.nav}}` (or `{{#t}}…{{#nav}}`), a name may be a text under that prefix.
            var prefixes: [String] = []
            for section in lookup.sections {
                if section == "t" || section.hasPrefix("t.") {
                    prefixes.append(String(section.dropFirst(2)))
                } else {
                    prefixes += prefixes.map { $0.isEmpty ? section : $0 + "." + section }
                }
            }
            if parts.first != "t", prefixes.contains(where: { isText($0.isEmpty ? lookup.name : $0 + "." + lookup.name) }) { continue }
            let message: String
            if parts.first == "t" {
                guard checkingTexts else { continue }
                let text = parts.dropFirst().joined(separator: ".")
                if text.isEmpty || texts.contains(text) || texts.contains(where: { $0.hasPrefix(text + ".") }) { continue }
                let hint = Suggestion.closest(to: text, among: texts.sorted()).map { "; did you mean 't.\($0)'?" } ?? ""
                message = "'{{\(lookup.name)}}' names no interface text of the theme's i18n/ tables, so it renders as nothing\(hint)"
            } else {
                guard let unknown = parts.first(where: { !known.contains($0) }) else { continue }
                let hint = Suggestion.closest(to: unknown, among: known.sorted()).map { "; did you mean '\($0)'?" } ?? ""
                message = "'\(unknown)' (in '{{\(lookup.name)}}') is not a value Bestiary gives templates, so it renders as nothing\(hint) (docs/theming.md lists the values)"
            }
            guard seen.insert(lookup.location.path + "\u{0}" + lookup.name).inserted else { continue }
            problems.append(.warning(message, at: lookup.location, stage: "render"))
        }
        return problems
    }
}
