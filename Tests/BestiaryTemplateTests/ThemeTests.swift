import BestiaryTemplate
import BestiaryTestSupport
import Foundation
import Testing

/// Every template of the default theme (`templates/`), rendered by swift-mustache and by
/// BestiaryTemplate with page-like contexts: the outputs must be the same bytes.
struct ThemeTests {
    /// `templates/layouts`, `partials` and `markdown`, named as Bestiary names them
    /// (`layouts.animal`), Markdown ones with the pragma Bestiary puts in front.
    static func theme() throws -> [String: String] {
        let root = Fixtures.repositoryRoot + "/templates"
        var templates: [String: String] = [:]
        for folder in ["layouts", "partials", "markdown"] {
            for file in try FileManager.default.contentsOfDirectory(atPath: root + "/" + folder) {
                let text = try String(contentsOfFile: "\(root)/\(folder)/\(file)", encoding: .utf8)
                let name = folder + "." + (file as NSString).deletingPathExtension
                templates[name] = folder == "markdown" ? "{{% CONTENT_TYPE: MARKDOWN }}" + text : text
            }
        }
        return templates
    }

    /// `"nav.quiz": "Quiz"` → `["nav": ["quiz": "Quiz"]]`, as Bestiary nests the theme's strings.
    static func strings() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.repositoryRoot + "/templates/i18n/en.json"))
        let flat = try JSONSerialization.jsonObject(with: data) as! [String: String]
        var root: [String: Any] = [:]
        func insert(_ dict: inout [String: Any], _ path: ArraySlice<Substring>, _ value: String) {
            guard let first = path.first.map(String.init) else { return }
            if path.count == 1 { dict[first] = value; return }
            var child = dict[first] as? [String: Any] ?? [:]
            insert(&child, path.dropFirst(), value)
            dict[first] = child
        }
        for (key, value) in flat { insert(&root, key.split(separator: ".")[...], value) }
        return root
    }

    static func card(_ id: String, _ name: String, thumb: Bool, group: String?) -> [String: Any] {
        var card: [String: Any] = [
            "id": id, "name": name, "name_lang": "en", "name_is_fallback": id == "fox", "href": "../\(id)/",
            "has_sound": thumb, "difficulty": 2, "search": name.lowercased() + " vulpes",
        ]
        if let group { card["group"] = group; card["group_label"] = group.capitalized + " & <co>" }
        if thumb { card["thumb"] = "../../media/\(id).webp"; card["thumb_focus"] = "50% 30%" }
        return card
    }

    /// A page context with every key a page can have (full) or only the ones every page has.
    static func context(full: Bool) throws -> [String: Any] {
        let cards = full ? [card("fox", "Fox \"Reynard\"", thumb: true, group: "mammal"), card("owl", "Owl's", thumb: false, group: nil)] : []
        let credit: [String: Any] = ["by": "Ann <a>", "license": "CC BY-SA 4.0", "license_url": "https://x/?a=1&b=2", "source": "https://s/"]
        var animal = card("fox", "Fox", thumb: true, group: "mammal")
        animal["names"] = [["lang": "de", "language": "Deutsch", "name": "Fuchs", "dir": "ltr"], ["lang": "ar", "language": "العربية", "name": "ثعلب", "dir": "rtl"]]
        animal["difficulty_label"] = "Medium"
        animal["tags"] = full ? ["forest", "night & day"] : [String]()
        animal["has_tags"] = full
        animal["similar"] = cards
        animal["has_similar"] = full
        animal["log_href"] = "../../sightings/?animal=fox"
        animal["content_html"] = "<h2>Facts</h2>\n<ul>\n<li>x</li>\n</ul>\n"
        if full {
            animal["hint"] = ["text": "Red & bushy", "lang": "en"]
            animal["image"] = [
                "src": "../../media/a.webp", "alt": "A \"fox\"", "focus": "50% 50%", "from_wikipedia": true, "width": 640, "height": 480,
                "srcset": "a.webp 320w, b.webp 640w", "sizes": "(min-width: 60em) 40em, 100vw", "credit": credit,
            ]
            animal["sound"] = ["src": "../../media/s.ogg", "type": "audio/ogg", "credit": ["license": "CC0"]]
            animal["summary"] = [
                "text": "The red fox <Vulpes vulpes> is…", "lang": "de", "dir": "ltr", "is_fallback": true, "language": "German",
                "title": "Rotfuchs", "url": "https://de.wikipedia.org/wiki/Rotfuchs", "license": "CC BY-SA 4.0", "license_url": "https://cc/",
            ]
            animal["habitat"] = "Forests *and* fields"
            animal["conservation"] = "LC"
            animal["body"] = "Some **Markdown** body.\n\n- a\n- b\n"
            animal["body_lang"] = "de"
            animal["body_is_fallback"] = true
        } else {
            animal["description"] = ["text": "A small fox.", "lang": "en", "is_fallback": false, "language": "English"]
        }
        let nav: [[String: Any]] = [["label": "Home", "href": "../../", "current": false], ["label": "Quiz & more", "href": "../../quiz/", "current": true]]
        var context: [String: Any] = [
            "lang": "en", "dir": "ltr", "site_title": "Bestiary <test>", "title": "Fox – Bestiary", "page_title": "Fox",
            "page_kind": "animal", "root": "../../", "lang_root": "../../", "canonical": "https://example.org/animals/fox/",
            "t": try strings(), "site_id": "example", "catalog_url": full ? "catalog.abc.json" : "", "languages_attr": "en de",
            "build_date": "2026-01-01", "generator": "Bestiary", "manifest_url": "../../manifest.webmanifest",
            "asset": Reference.Lambda { "../../assets/" + $0.trimmingCharacters(in: .whitespacesAndNewlines) },
            "nav": nav, "home_href": "../../", "quiz_href": "../../quiz/", "collection_href": "../../collection/",
            "sightings_href": "../../sightings/", "settings_href": "../../settings/", "sw_url": "../../sw.js",
            "has_languages": full, "languages": full ? [["code": "de", "label": "Deutsch", "href": "../../de/", "current": false]] : [[String: Any]](),
            "alternates": [["hreflang": "de", "href": "https://example.org/de/"], ["hreflang": "x-default", "href": "https://example.org/"]],
            "animal": animal, "animals": full ? cards.map { $0.merging(["image_credit": credit, "text_credit": credit]) { a, _ in a } } : [],
            "count": cards.count, "count_text": "\(cards.count) animals", "groups": [["name": "mammal", "label": "Mammals", "count": 1]],
            "option_groups": [["label": "Mammals", "animals": cards]], "checklist_text": "0 of 2",
            "language_options": [["code": "en", "label": "English", "current": true, "href": "./"]], "has_language_choice": full,
            "has_groups": full, "difficulties": [["value": 1, "label": "Easy"], ["value": 2, "label": "Medium"]],
            "stats": ["animals": 2, "with_sound": 1, "with_image": 0],
            "modes": [["mode": "sound", "href": "quiz/?mode=sound", "label": "Sounds", "text": "Listen", "available": true], ["mode": "image", "href": "quiz/?mode=image", "label": "Pictures", "text": "Look", "available": false, "unavailable_text": "No pictures yet"]],
            "content_html": "<p>Page</p>\n", "body": "# Title\n\nText with <b>html</b>.\n",
        ]
        if full {
            context["description"] = "A \"short\" text & more"
            context["noindex"] = true
            context["strings_json"] = "{\"a\":\"<b>\"}"
            context["body_lang"] = "de"
            context["body_is_fallback"] = true
        }
        return context
    }

    @Test(arguments: [true, false])
    func everyThemeTemplateRendersTheSameBytes(full: Bool) throws {
        let templates = try Self.theme()
        #expect(templates.count >= 15)
        let context = try Self.context(full: full)
        // Markdown templates get the animal's own keys, as Bestiary renders them.
        var markdown = context["animal"] as! [String: Any]
        markdown["t"] = context["t"]
        markdown["title"] = "A <page>"
        for name in templates.keys.sorted() {
            for c in name.hasPrefix("markdown.") ? [context, markdown] : [context] {
                let theirs = try #require(Reference.theirs(templates, name, c))
                let ours = try Reference.ours(templates, name, c)
                #expect(ours == theirs, "\(name)")
                #expect(!theirs.isEmpty)
            }
        }
    }
}
