import BestiaryDiagnostics
import Foundation
import Yams

extension SiteConfig {
    static let keys = ["title", "base_url", "languages", "wikipedia", "quiz", "packs", "tags", "app"]
    static let appKeys = ["theme_color", "background_color", "short_name"]
    static let wikipediaKeys = ["url", "contact", "commons_url"]
    static let quizKeys = ["questions", "choices"]
    static let packKeys = ["id", "keep_deltas", "public_keys", "expires_days"]

    /// Parses site.yml; returns nil (with diagnostics) when the site cannot be built from it.
    public static func parse(_ source: SourceText) -> (SiteConfig?, [Diagnostic]) {
        let parsed = parseChecked(source)
        return (parsed.config, parsed.diagnostics)
    }

    /// What parsing site.yml gave: the configuration, or, when it has errors, its languages if
    /// they are sound (the records are checked against them meanwhile).
    struct Parsed {
        var config: SiteConfig?
        var diagnostics: [Diagnostic]
        var languages: [String] = []
        /// Where each key is (with sound languages: the records' checks name `languages`' line).
        var keyLocations = SiteConfig.KeyLocations()
    }

    static func parseChecked(_ source: SourceText) -> Parsed {
        var parsed = parseFields(source)
        if !source.problems.isEmpty { parsed = Parsed(config: nil, diagnostics: parsed.diagnostics) }
        parsed.diagnostics = source.problems + parsed.diagnostics
        return parsed
    }

    private static func parseFields(_ source: SourceText) -> Parsed {
        let reader = YAMLReader(path: source.path, firstLine: 1)
        guard let root = reader.parse(source.text) else {
            if reader.diagnostics.isEmpty {
                reader.report("site.yml is empty; it needs at least title, base_url and languages", line: 1, column: 1)
            }
            return Parsed(config: nil, diagnostics: reader.diagnostics)
        }
        guard let f = reader.fields(root, allowed: keys, what: "site.yml") else { return Parsed(config: nil, diagnostics: reader.diagnostics) }
        var positions: [String: SourceLocation] = [:]
        func note(_ fields: [String: (key: Node, value: Node)], under prefix: String = "") {
            for (key, field) in fields { positions[prefix + key] = reader.location(field.key) }
        }
        note(f)

        // Languages first: every localized value is checked against them.
        var languages: [String] = []
        let errorsBefore = reader.diagnostics.count { $0.severity == .error }
        if let node = f["languages"]?.value, let list = reader.stringList(node, what: "languages") {
            var seen = Set<String>()
            // Each entry's own place, not the list's `[` (found by an author).
            let items: [Node] = if case .sequence(let seq) = node { Array(seq) } else { [node] }
            for (lang, item) in zip(list, items) {
                if !LanguageCode.isValid(lang) {
                    // `languages: en, de`: one text, not a list (found by a new user).
                    let parts = lang.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
                    let hint = LanguageCode.suggestion(for: lang).map { " (did you mean '\($0)'?)" }
                        ?? (parts.count > 1 && parts.allSatisfy(LanguageCode.isValid) ? "; write a list: languages: [\(parts.joined(separator: ", "))]" : "")
                    reader.error("'\(lang)' is not a language code like en, de or pt-BR\(hint)", at: item)
                } else if !seen.insert(lang).inserted {
                    reader.error("language '\(lang)' is listed twice", at: item)
                } else {
                    for doubt in LanguageCode.doubts(about: lang) { reader.warning(doubt, at: item) }
                    languages.append(lang)
                }
            }
            if list.isEmpty { reader.error("languages must list at least one language, like [en]", at: node) }
        } else if f["languages"] == nil {
            reader.error("site.yml needs 'languages', e.g. languages: [de, en] (the first is the default)", at: root)
        }
        let soundLanguages = reader.diagnostics.count { $0.severity == .error } == errorsBefore ? languages : []
        let defaultLanguage = languages.first ?? "en"

        var title = LocalizedText([:])
        if let node = f["title"]?.value {
            title = reader.localized(node, what: "title", defaultLanguage: defaultLanguage, languages: languages.isEmpty ? nil : languages) ?? title
            if !languages.isEmpty, title.values[defaultLanguage] == nil, !title.isEmpty {
                reader.error("title needs a text in the default language '\(defaultLanguage)'", at: node)
            }
        } else {
            reader.error("site.yml needs a 'title'", at: root)
        }

        var baseURL = ""
        if let node = f["base_url"]?.value, let url = reader.string(node, what: "base_url") {
            if let problem = URLCheck.problem(baseURL: url) {
                reader.error("base_url \(problem)", at: node)
            } else {
                baseURL = url.hasSuffix("/") ? url : url + "/"
            }
        } else if f["base_url"] == nil {
            reader.error("site.yml needs 'base_url', the absolute URL the site is deployed under", at: root)
        }

        var wikipedia = WikipediaSettings()
        if let node = f["wikipedia"]?.value, !YAMLReader.isNull(node),
            let w = reader.fields(node, allowed: wikipediaKeys, what: "wikipedia")
        {
            note(w, under: "wikipedia.")
            if let n = w["url"]?.value, let url = reader.string(n, what: "wikipedia.url") {
                if let problem = URLCheck.problem(absoluteHTTP: url.replacingOccurrences(of: "{lang}", with: "en")) {
                    reader.error("wikipedia.url \(problem)", at: n)
                } else {
                    wikipedia.url = url.hasSuffix("/") ? String(url.dropLast()) : url
                }
            }
            if let n = w["contact"]?.value { wikipedia.contact = reader.string(n, what: "wikipedia.contact") }
            if let n = w["commons_url"]?.value, let url = reader.string(n, what: "wikipedia.commons_url") {
                if let problem = URLCheck.problem(absoluteHTTP: url) {
                    reader.error("wikipedia.commons_url \(problem)", at: n)
                } else {
                    wikipedia.commonsURL = url
                }
            }
        }

        var quiz = QuizSettings()
        if let node = f["quiz"]?.value, !YAMLReader.isNull(node), let q = reader.fields(node, allowed: quizKeys, what: "quiz") {
            note(q, under: "quiz.")
            if let n = q["questions"]?.value, let v = reader.int(n, what: "quiz.questions", range: 1...200) { quiz.questions = v }
            if let n = q["choices"]?.value, let v = reader.int(n, what: "quiz.choices", range: 2...10) { quiz.choices = v }
        }

        var packs: PackSettings? = nil
        if let node = f["packs"]?.value, !YAMLReader.isNull(node), let p = reader.fields(node, allowed: packKeys, what: "packs") {
            note(p, under: "packs.")
            var settings = PackSettings(id: "")
            if let n = p["id"]?.value, let id = reader.string(n, what: "packs.id") {
                if Animal.isValidID(id) { settings.id = id } else {
                    reader.error("packs.id must be 1–64 characters of a-z, 0-9, '_' and '-'", at: n)
                }
            } else if p["id"] == nil {
                reader.error("packs needs an 'id', e.g. packs: {id: my-quiz}", at: node)
            }
            if let n = p["keep_deltas"]?.value, let v = reader.int(n, what: "packs.keep_deltas", range: 0...1000) { settings.keepDeltas = v }
            if let n = p["expires_days"]?.value, let v = reader.int(n, what: "packs.expires_days", range: 1...3650) { settings.expiresDays = v }
            if let n = p["public_keys"]?.value, let keys = reader.stringList(n, what: "packs.public_keys") {
                for key in keys where Data(base64Encoded: key)?.count != 32 {
                    reader.error("packs.public_keys: '\(key)' is not a base64 Ed25519 public key (32 bytes); `bestiary keys generate` prints one", at: n)
                }
                settings.publicKeys = keys
            }
            packs = settings
        }

        // Labels of the records' tags, per language: the tag as a record writes it (its key)
        // and the text each language's pages show for it.
        var tags: [String: LocalizedText] = [:]
        if let node = f["tags"]?.value, !YAMLReader.isNull(node) {
            if case .mapping(let mapping) = node {
                for (key, value) in mapping {
                    guard let tag = reader.string(key, what: "a key of tags") else { continue }
                    guard tags[tag] == nil, positions["tags." + tag] == nil else {
                        reader.error("tags: '\(tag)' is labelled twice", at: key)
                        continue
                    }
                    positions["tags." + tag] = reader.location(key)
                    let label = reader.localized(value, what: "tags.\(tag)", defaultLanguage: defaultLanguage, languages: languages.isEmpty ? nil : languages)
                    tags[tag] = label ?? LocalizedText([:])
                }
            } else {
                reader.error("tags must map each tag to its label, like tags: {north-america: {de: Nordamerika, en: North America}}", at: node)
            }
        }

        var app = AppSettings()
        if let node = f["app"]?.value, !YAMLReader.isNull(node), let a = reader.fields(node, allowed: appKeys, what: "app") {
            note(a, under: "app.")
            for (key, field) in a.sorted(by: { $0.key < $1.key }) {
                if key == "short_name" {
                    guard let name = reader.localized(field.value, what: "app.short_name", defaultLanguage: defaultLanguage, languages: languages.isEmpty ? nil : languages)
                    else { continue }
                    app.shortName = name
                    // Phones show about 12 characters under an icon and cut the rest.
                    for language in name.languages where name.values[language]!.count > AppSettings.shortNameLength {
                        reader.warning(
                            "app.short_name '\(name.values[language]!)' has \(name.values[language]!.count) characters: a phone's home screen shows about \(AppSettings.shortNameLength) under the icon and cuts the rest",
                            at: field.value)
                    }
                    continue
                }
                guard let colour = Self.colour(field.value, what: "app.\(key)", reader: reader) else { continue }
                if key == "theme_color" { app.themeColor = colour } else { app.backgroundColor = colour }
            }
        }

        // `languages: [de, eng]` over texts in `en`: the code is the mistake, not each text. Its
        // doubt becomes the one error, instead of an error for each text and the cause among
        // them as a warning (a user's site.yml and records gave 120 errors).
        var diagnostics = reader.diagnostics
        let misspelt = ContentLoader.misspeltLanguages(languages)
        if !misspelt.isEmpty {
            var texts: [String: Int] = [:]
            diagnostics.removeAll { d in
                guard d.severity == .error, let lang = ContentLoader.unlistedLanguage(in: d), misspelt[lang] != nil else { return false }
                texts[lang, default: 0] += 1
                return true
            }
            diagnostics = diagnostics.map { d in
                guard d.severity == .warning, let (meant, _) = misspelt.first(where: { d.message.hasPrefix("'\($0.value)' ") }),
                    let count = texts[meant]
                else { return d }
                return .error("\(d.message) (site.yml's texts are written in '\(meant)' already: \(count))", at: d.location, stage: d.stage)
            }
        }
        if diagnostics.contains(where: { $0.severity == .error }) {
            return Parsed(config: nil, diagnostics: diagnostics, languages: soundLanguages, keyLocations: SiteConfig.KeyLocations(positions))
        }
        var config = SiteConfig(
            title: title, baseURL: baseURL, languages: languages, wikipedia: wikipedia, quiz: quiz, packs: packs,
            location: SourceLocation(path: source.path, line: 1, column: 1))
        config.tags = tags
        config.app = app
        config.keyLocations = SiteConfig.KeyLocations(positions)
        return Parsed(config: config, diagnostics: diagnostics, languages: languages)
    }
}

extension SiteConfig {
    /// A colour as the manifest and `<meta name="theme-color">` take it: `#rgb` or `#rrggbb`,
    /// given as `#rrggbb` in lower case. In YAML a `#` after a space starts a comment, so an
    /// unquoted `theme_color: #2f6b4f` is empty: said so.
    static func colour(_ node: Node, what: String, reader: YAMLReader) -> String? {
        if YAMLReader.isNull(node) {
            reader.error("\(what) is empty: in YAML a # starts a comment, so write the colour in quotes (\(what.split(separator: ".").last!): \"#2f6b4f\")", at: node)
            return nil
        }
        guard case .scalar(let scalar) = node else {
            reader.error("\(what) must be a colour written #rrggbb (or #rgb), such as \"#2f6b4f\", in quotes; not a list or a mapping", at: node)
            return nil
        }
        let text = scalar.string.trimmingCharacters(in: .whitespaces).lowercased()
        let digits = text.dropFirst()
        guard text.hasPrefix("#"), digits.count == 3 || digits.count == 6, digits.allSatisfy(\.isHexDigit) else {
            reader.error("\(what) must be a colour written #rrggbb (or #rgb), such as \"#2f6b4f\", in quotes; not '\(scalar.string)'", at: node)
            return nil
        }
        return "#" + (digits.count == 3 ? digits.map { "\($0)\($0)" }.joined() : String(digits))
    }
}

/// Small URL checks shared by the loaders.
public enum URLCheck {
    /// nil when `string` is an absolute http(s) URL with a host; else what is wrong with it.
    public static func problem(absoluteHTTP string: String) -> String? {
        // `example.org/birds/` or `127.0.0.1:8000/birds/`: a host without its scheme (a museum's).
        let meant = !string.contains("://") && string.first.map { $0.isLetter || $0.isNumber } == true && string.contains(".")
            ? "; did you mean 'https://\(string)'?" : ""
        guard let url = URL(string: string), let scheme = url.scheme?.lowercased() else {
            return "'\(string)' must be an absolute URL starting with https:// (or http://)\(meant)"
        }
        guard scheme == "https" || scheme == "http" else {
            return "'\(string)' must start with https:// (or http://)\(meant)"
        }
        guard let host = url.host, !host.isEmpty else { return "'\(string)' has no host name" }
        if string.contains(" ") { return "'\(string)' contains a space; encode it as %20" }
        return nil
    }

    /// nil when `string` can be the URL a site is deployed under: an absolute http(s) URL whose
    /// pages' URLs are it followed by their paths (no query, no fragment).
    public static func problem(baseURL string: String) -> String? {
        if let problem = problem(absoluteHTTP: string) { return problem }
        // Pages name their files by its path as it is written (`/quiz/assets/…`), in HTML: a
        // quote in it ended an attribute of the 404 page, whose links are absolute (a museum's).
        // Letters of other scripts are fine (a browser encodes them, and so does the 404 page's path).
        if let bad = string.unicodeScalars.first(where: { $0.isASCII ? !uriCharacters.contains($0) : $0.properties.isWhitespace || $0.properties.generalCategory == .format }) {
            let encoded = String(Character(bad)).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let shown = bad.properties.isWhitespace || bad.value < 0x20 ? "U+\(String(format: "%04X", bad.value))\(bad == " " ? " (a space)" : "")" : "'\(bad)'"
            return "'\(string)' holds \(shown), which a URL cannot hold as it is; write it percent-encoded (\(encoded))"
        }
        if string.contains("?") || string.contains("#") {
            return "'\(string)' has a query (?…) or a fragment (#…); page URLs are made by adding paths to it, so give the folder alone"
        }
        if let url = URL(string: string), url.user != nil || url.password != nil {
            return "'\(string)' holds a user name or password (…@): the sitemap publishes the address; give it without them"
        }
        let path = URLComponents(string: string)?.percentEncodedPath ?? ""
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        if segments.dropLast().contains(where: \.isEmpty) { return "'\(string)' has an empty folder name (//) in its path; write one /" }
        if segments.contains(where: { $0 == "." || $0 == ".." }) { return "'\(string)' has '.' or '..' in its path; write the folder it leads to" }
        if let last = segments.last, last.lowercased().hasSuffix(".html") || last.lowercased().hasSuffix(".htm") {
            return "'\(string)' names a page (\(last)); give the folder it is in"
        }
        return nil
    }

    /// What RFC 3986 lets a URL hold as it is: letters, digits, `-._~`, the delimiters and `%`.
    static let uriCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:/?#[]@!$&'()*+,;=%")
}
