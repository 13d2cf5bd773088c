import Foundation
import BestiaryDiagnostics
import Yams

extension Animal {
    static let keys = [
        "id", "name", "scientific", "group", "difficulty", "tags", "wikipedia", "description", "hint", "habitat",
        "conservation", "sound", "image",
    ]
    static let soundKeys = ["file", "url", "credit", "license", "source"]
    static let imageKeys = ["file", "url", "credit", "license", "source", "focus", "alt"]

    /// Parses one record file. Media files are only checked lexically here; the catalog loader
    /// checks that they exist and are what they claim. Pure: no file system access.
    ///
    /// A name on two lines (a spreadsheet cell's Alt+Enter, imported as it was): the page's title,
    /// its heading, the cards, the quiz's answers and the packs carried the break (a volunteer's).
    static func warnOfLineBreak(in text: String, what: String, at node: Node, reader: YAMLReader) {
        guard text.contains(where: \.isNewline) else { return }
        let one = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
        reader.warning("\(what) is on more than one line (a line break in a spreadsheet's cell?); pages, cards, the quiz and the packs show the break: write it on one line ('\(one)')", at: node)
    }

    /// Returns a record whenever it has an id and a name, even alongside errors, so that one run
    /// reports every problem; callers must not build from a result with errors.
    ///
    /// - Parameter fileID: the id the file name gives (`red-fox` for `red-fox.md`).
    public static func parse(_ source: SourceText, fileID: String, config: SiteConfig) -> (Animal?, [Diagnostic]) {
        let (animal, diagnostics) = parseFields(source, fileID: fileID, config: config)
        return (animal, source.problems + diagnostics)
    }

    private static func parseFields(_ source: SourceText, fileID: String, config: SiteConfig) -> (Animal?, [Diagnostic]) {
        let document: FrontMatterDocument
        do {
            document = try FrontMatterDocument.split(source)
        } catch {
            return (nil, error.diagnostics)
        }
        guard let yaml = document.yaml else {
            // `dog-fr.md`, meant as the body of dog.md in French (a translator's).
            let translation = config.languages.dropFirst().first { fileID.hasSuffix("-" + $0.lowercased()) || fileID.hasSuffix("_" + $0.lowercased()) }.map {
                let record = fileID.dropLast($0.count + 1)
                return "; if it is the body of \(record).md in '\($0)', name it \(record).\($0).md"
            } ?? ""
            return (nil, [.error(
                "a record starts with front matter: a line '---', fields such as 'name: {en: …}', and another '---'\(translation)",
                at: SourceLocation(path: source.path, line: 1, column: 1), stage: "load")])
        }
        let reader = YAMLReader(path: source.path, firstLine: document.yamlFirstLine)
        guard let root = reader.parse(yaml) else {
            if reader.diagnostics.isEmpty {
                reader.report("front matter is empty; a record needs at least a name", line: 1, column: 1)
            }
            return (nil, reader.diagnostics)
        }
        // A sound's or picture's key at the record's level, when the record has that sound or
        // picture: it was meant under it.
        var present: Set<String> = []
        if case .mapping(let mapping) = root {
            for key in mapping.keys { if case .scalar(let s) = key, ["sound", "image"].contains(s.string) { present.insert(s.string) } }
        }
        var mediaKeys: [String: String] = [:]
        for key in imageKeys {
            let owners = ["sound", "image"].filter { present.contains($0) && ($0 == "image" || soundKeys.contains(key)) }
            if !owners.isEmpty { mediaKeys[key] = owners.joined(separator: " or ") }
        }
        guard let f = reader.fields(root, allowed: keys, what: "the record", nested: mediaKeys) else { return (nil, reader.diagnostics) }
        let languages = config.languages
        let defaultLanguage = config.defaultLanguage
        var locations: [String: SourceLocation] = [:]
        for (key, pair) in f { locations[key] = reader.location(pair.key) }

        var id = fileID
        if let node = f["id"]?.value, let value = reader.string(node, what: "id") {
            id = value
            if !isValidID(value) {
                reader.error("id '\(value)' must be 1–64 characters of a-z, 0-9, '_' and '-' (it is the key apps sync by)", at: node)
            }
        } else if f["id"] == nil, !isValidID(fileID) {
            let suggestion = suggestedID(fileID)
            reader.report(
                "the file name gives the id '\(SourceLocation.oneLine(fileID))', which is not 1–64 characters of a-z, 0-9, '_' and '-'; rename the file\(isValidID(suggestion) ? " (\(suggestion).md, say)" : "") or set 'id:'",
                line: 1 - document.yamlFirstLine + 1, column: 1)
        }

        var name = LocalizedText([:])
        if let node = f["name"]?.value {
            if let value = reader.localized(node, what: "name", defaultLanguage: defaultLanguage, languages: languages) {
                name = value
                if value.values[defaultLanguage] == nil {
                    reader.error("name needs the default language '\(defaultLanguage)' (the first in site.yml's languages)", at: node)
                }
                // `{ar: ماعز،, en: Goat}` (an Arabic comma kept where a ',' was missing) or `en: Goat,`:
                // the cards, the quiz's answers and the search showed the comma (a teacher's).
                for (language, text) in value.values.sorted(by: { $0.key < $1.key }) {
                    Self.warnOfLineBreak(in: text, what: "name.\(language)", at: node[language] ?? node, reader: reader)
                    guard let last = text.last, last == "," || PastedText.otherCommas[last] != nil else { continue }
                    let called = PastedText.otherCommas[last].map { ", \($0)" } ?? ""
                    let braces = called.isEmpty ? "" : " (the languages in { } are separated by ',')"
                    reader.warning(
                        "name.\(language) '\(text)' ends with '\(last)'\(called): a name does not, so take it out\(braces)", at: node[language] ?? node)
                }
            }
        } else {
            reader.error("the record needs a 'name', e.g. name: {\(defaultLanguage): …}", at: root)
        }

        let scientific = f["scientific"].flatMap { YAMLReader.isNull($0.value) ? nil : reader.string($0.value, what: "scientific") }
        if let scientific, let node = f["scientific"]?.value { Self.warnOfLineBreak(in: scientific, what: "scientific", at: node, reader: reader) }
        let group = f["group"].flatMap { YAMLReader.isNull($0.value) ? nil : reader.string($0.value, what: "group") }
        let difficulty = f["difficulty"].flatMap {
            YAMLReader.isNull($0.value) ? nil : reader.int($0.value, what: "difficulty", range: 1...3)
        }
        var tags: [String] = []
        if let node = f["tags"]?.value, !YAMLReader.isNull(node) {
            tags = reader.stringList(node, what: "tags") ?? []
            // `tags: garden, forest` is one tag, "garden, forest", and matched no filter (a
            // volunteer's); `add` and `import` refuse the same value.
            // In quotes, one tag is meant (`tags: "Europe, North"`).
            if case .scalar(let scalar) = node, scalar.style == .plain, let tag = tags.first, tag.contains(",") {
                let meant = tag.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                reader.error(
                    "tags: '\(tag)' would be one tag; for \(meant.count) tags, write tags: [\(meant.joined(separator: ", "))] (for one, in quotes: tags: [\"\(tag)\"])",
                    at: node)
                tags = []
            }
        }

        var wikipedia: [String: String] = [:]
        if let node = f["wikipedia"]?.value, !YAMLReader.isNull(node) {
            if case .mapping(let mapping) = node {
                for (key, value) in mapping {
                    guard case .scalar(let k) = key, languages.contains(k.string) else {
                        let meant = Suggestion.languageCase(key.string ?? "", among: languages)
                        reader.error(
                            "wikipedia: '\(key.string ?? "?")' is not one of the site's languages (\(languages.joined(separator: ", ")))\(meant)",
                            at: key)
                        continue
                    }
                    guard let title = reader.string(value, what: "wikipedia.\(k.string)") else { continue }
                    // An article's address pasted where its title belongs: fetched as a title, it
                    // was "not in the cache" until `fetch` found no such article.
                    if let advice = PastedText.wikipediaAddressAdvice(title, key: "wikipedia.\(k.string)", language: k.string) {
                        reader.error(advice, at: value)
                        continue
                    }
                    if title.contains("\n") || title.contains("#") || title.contains("[") || title.contains("]")
                        || title.contains("{") || title.contains("}") || title.contains("|") || title.contains("<")
                    {
                        reader.error("wikipedia.\(k.string): '\(title)' cannot be a Wikipedia title (no # [ ] { } | < or line breaks)", at: value)
                        continue
                    }
                    wikipedia[k.string] = title
                    locations["wikipedia.\(k.string)"] = reader.location(value)
                }
            } else if case .scalar(let title) = node, let article = PastedText.wikipediaArticle(title.string) {
                // An article's address: its language and title are in it, so the one fix is said
                // (the advice below, followed, met the address's own error: a volunteer's).
                let language = config.languages.first { LanguageCode.wikipediaCode($0) == article.language }
                reader.error(
                    "wikipedia must map languages to article titles; '\(title.string)' is the address of the '\(article.language)' article "
                        + (language.map { "'\(article.title)': write wikipedia: {\($0): \(YAMLScalar.plainOrQuoted(article.title, flow: true))}" }
                            ?? "'\(article.title)', in a language the site does not have (languages in content/site.yml); write the title of an article in one it has, like wikipedia: {\(defaultLanguage): Title}"),
                    at: node)
            } else if case .scalar(let title) = node {
                // One title names an article of one language's Wikipedia: say which to write.
                reader.error("wikipedia must map languages to article titles; write wikipedia: {\(defaultLanguage): \(YAMLScalar.plainOrQuoted(title.string, flow: true))}", at: node)
            } else {
                reader.error("wikipedia must map languages to article titles, like {de: Rotfuchs, en: Red fox}", at: node)
            }
        }

        func localizedOptional(_ key: String) -> LocalizedText {
            guard let node = f[key]?.value, !YAMLReader.isNull(node) else { return LocalizedText([:]) }
            return reader.localized(node, what: key, defaultLanguage: defaultLanguage, languages: languages) ?? LocalizedText([:])
        }
        let description = localizedOptional("description")
        let hint = localizedOptional("hint")
        let habitat = localizedOptional("habitat")
        let conservation = f["conservation"].flatMap {
            YAMLReader.isNull($0.value) ? nil : reader.string($0.value, what: "conservation")
        }

        let sound = f["sound"].flatMap { pair in
            YAMLReader.isNull(pair.value) ? nil : parseMedia(pair.value, kind: .sound, reader: reader, config: config)
        }
        // `image: {focus: …, alt: …}` without `file` or `url` crops and describes the Wikipedia
        // lead image instead of naming a picture.
        var leadImageFocus: String?
        var leadImageAlt = LocalizedText([:])
        var image: MediaReference?
        if let pair = f["image"], !YAMLReader.isNull(pair.value) {
            if case .mapping(let m) = pair.value, !m.isEmpty, m.keys.allSatisfy({ key in
                if case .scalar(let k) = key { return k.string == "focus" || k.string == "alt" }
                return false
            }) {
                for (key, value) in m {
                    if case .scalar(let k) = key, k.string == "focus" {
                        leadImageFocus = parseFocus(value, reader: reader)
                    } else {
                        leadImageAlt = reader.localized(
                            value, what: "image.alt", defaultLanguage: config.defaultLanguage, languages: config.languages) ?? leadImageAlt
                    }
                }
                // Not when `wikipedia:` is there but wrong: its error says what to mend.
                if f["wikipedia"].map({ YAMLReader.isNull($0.value) }) ?? true {
                    reader.warning(
                        "image: focus and alt are for the Wikipedia picture, but the record names no Wikipedia article, so they are not used; "
                            + "add wikipedia: {\(config.defaultLanguage): TITLE}, or give a picture of the record's own with image.file or image.url",
                        at: pair.value)
                }
            } else {
                image = parseMedia(pair.value, kind: .image, reader: reader, config: config)
            }
        }

        var bodies: [String: MarkdownBody] = [:]
        let body = MarkdownBody(
            markdown: document.body, location: SourceLocation(path: source.path, line: document.bodyFirstLine, column: 1))
        if !body.isBlank { bodies[defaultLanguage] = body }

        // With errors, still return what could be read, so later checks (media, unique ids) run
        // too and one `check` reports everything; the diagnostics keep the build from using it.
        if name.isEmpty || !isValidID(id) { return (nil, reader.diagnostics) }
        let animal = Animal(
            id: id, name: name, scientific: scientific, group: group, difficulty: difficulty, tags: tags,
            wikipedia: wikipedia, description: description, hint: hint, sound: sound, image: image, bodies: bodies,
            sourcePath: source.path, fieldLocations: locations, habitat: habitat, conservation: conservation,
            leadImageFocus: leadImageFocus, leadImageAlt: leadImageAlt)
        return (animal, reader.diagnostics + body.problems())
    }

    static func parseMedia(_ node: Node, kind: MediaKind, reader: YAMLReader, config: SiteConfig) -> MediaReference? {
        let key = kind.rawValue
        // `sound: sounds/cat.ogg`, the likeliest mistake: say what to write.
        if case .scalar(let s) = node, !s.string.isEmpty {
            // `sound:` then `  file sounds/cat.ogg` on the next line: a key without its colon, read
            // as the text of `sound` (it was told to write `{file: file sounds/cat.ogg}`).
            let words = s.string.split(separator: " ", maxSplits: 1)
            if words.count == 2, (kind == .sound ? soundKeys : imageKeys).contains(String(words[0])) {
                reader.error("'\(s.string)' under \(key) has no ':' after its key; write '\(words[0]): \(words[1])'", at: node)
                return nil
            }
            let field = s.string.hasPrefix("https://") || s.string.hasPrefix("http://") ? "url" : "file"
            reader.error("\(key) must be a mapping of keys to values; write \(key): {\(field): \(YAMLScalar.plainOrQuoted(s.string, flow: true))}", at: node)
            return nil
        }
        guard let f = reader.fields(node, allowed: kind == .sound ? soundKeys : imageKeys, what: key) else { return nil }
        var location = reader.location(node)
        var source: MediaReference.Source?
        var format: MediaFormat?
        let extensions = kind == .sound ? MediaFormat.soundExtensions : MediaFormat.imageExtensions
        switch (f["file"]?.value, f["url"]?.value) {
        case (let file?, nil):
            guard let path = reader.string(file, what: "\(key).file") else { return nil }
            if let problem = ContentPath.lexicalProblem(path) {
                reader.error("\(key).file '\(path)': \(problem)", at: file)
                return nil
            }
            let ext = ContentPath.mediaExtension(path)
            guard let first = MediaFormat.candidates(forExtension: ext).first, first.kind == kind else {
                // A picture named as the sound (or the other way round): said so, not "unsupported".
                let other = MediaFormat.candidates(forExtension: ext).first.map { $0.kind == .sound ? "sound" : "image" }
                let what = ext.isEmpty ? "the file name has no type"
                    : other.map { "'.\(ext)' is \($0 == "sound" ? "a sound" : "a picture"), not \(kind == .sound ? "a sound" : "a picture") (it goes under \($0):)" }
                    ?? "unsupported \(key) type '.\(ext)'"
                let types = extensions.map { "." + $0 }.joined(separator: ", ")
                reader.error(
                    "\(key).file '\(path)': \(what); \(other == nil ? "use one of" : "\(kind == .sound ? "a sound" : "a picture") is one of") \(types)",
                    at: file)
                return nil
            }
            source = .file(path)
            format = first
            location = reader.location(file)
        case (nil, let url?):
            guard let value = reader.string(url, what: "\(key).url") else { return nil }
            if let problem = URLCheck.problem(absoluteHTTP: value) {
                reader.error("\(key).url \(problem)", at: url)
                return nil
            }
            let path = value.split(separator: "?").first.map(String.init) ?? value
            let ext = path.split(separator: "/").last.flatMap { $0.split(separator: ".").count > 1 ? $0.split(separator: ".").last : nil }
                .map { $0.lowercased() } ?? ""
            guard let first = MediaFormat.candidates(forExtension: ext).first, first.kind == kind else {
                reader.error(
                    "\(key).url: cannot tell the \(key) type of '\(value)'; the URL must end in \(extensions.map { "." + $0 }.joined(separator: ", "))",
                    at: url)
                return nil
            }
            source = .url(value)
            format = first
            location = reader.location(url)
        case (_?, _?):
            reader.error("\(key) has both 'file' and 'url'; give exactly one", at: node)
            return nil
        case (nil, nil):
            let cropHint = kind == .image ? " (or only 'focus: …' and 'alt: …' to crop and describe the Wikipedia picture)" : ""
            reader.error("\(key) needs 'file: \(kind == .sound ? "sounds/…" : "images/…")' (under content/) or 'url: https://…'\(cropHint)", at: node)
            return nil
        }
        let credit = f["credit"].flatMap { reader.string($0.value, what: "\(key).credit") }
        let license = f["license"].flatMap { reader.string($0.value, what: "\(key).license") }
        var sourceURL: String?
        if let n = f["source"]?.value, let value = reader.string(n, what: "\(key).source") {
            if let problem = URLCheck.problem(absoluteHTTP: value) {
                reader.error("\(key).source \(problem)", at: n)
            } else {
                sourceURL = value
            }
        }
        let focus = f["focus"].flatMap { parseFocus($0.value, reader: reader) }
        var alt = LocalizedText([:])
        if let n = f["alt"]?.value {
            alt = reader.localized(n, what: "image.alt", defaultLanguage: config.defaultLanguage, languages: config.languages) ?? alt
        }
        guard let source, let format else { return nil }
        return MediaReference(
            kind: kind, source: source, format: format, credit: credit, license: license, sourceURL: sourceURL,
            focus: focus, alt: alt, location: location)
    }
}

extension Animal {
    static func parseFocus(_ node: Node, reader: YAMLReader) -> String? {
        guard let value = reader.string(node, what: "image.focus") else { return nil }
        guard CSSPosition.isValid(value) else {
            reader.error("image.focus '\(value)' must be a CSS position like \"50% 20%\", \"center top\" or \"10px 40%\"", at: node)
            return nil
        }
        return value
    }
}

/// CSS `object-position` values we accept: one or two of a keyword, a percentage or a length.
enum CSSPosition {
    static func isValid(_ value: String) -> Bool {
        let parts = value.split(separator: " ", omittingEmptySubsequences: true)
        guard (1...2).contains(parts.count) else { return false }
        return parts.allSatisfy { part in
            if ["left", "center", "right", "top", "bottom"].contains(part) { return true }
            var number = Substring(part)
            if number.hasSuffix("%") { number = number.dropLast() } else if number.hasSuffix("px") || number.hasSuffix("em") {
                number = number.dropLast(2)
            } else if number != "0" {
                return false
            }
            return !number.isEmpty && Double(number) != nil
        }
    }
}

extension Animal {
    /// Letters that `folding(.diacriticInsensitive)` leaves alone or would fold badly.
    static let idTransliterations: [Character: String] = [
        "ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "å": "a", "ł": "l", "đ": "d",
        "ð": "d", "þ": "th", "ı": "i",
    ]

    /// `Schwarzspecht 2` → `schwarzspecht-2`, `Rötelmaus` → `roetelmaus`, `Amsel_männlich` →
    /// `amsel_maennlich`. Runs of other characters become one `-`; the result is trimmed of `-` and
    /// cut to 64 characters. Empty when nothing usable is left (a key in a non-Latin script).
    public static func suggestedID(_ key: String) -> String {
        var out = ""
        for ch in key.lowercased() {
            if let t = idTransliterations[ch] {
                out += t
                continue
            }
            let folded = String(ch).folding(options: [.diacriticInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
            for scalar in folded.unicodeScalars {
                let c = Character(scalar)
                if ("a"..."z").contains(c) || ("0"..."9").contains(c) || c == "_" || c == "-" {
                    out.append(c)
                } else if out.last != "-" {
                    out.append("-")
                }
            }
        }
        var id = Substring(out)
        while id.contains("--") { id = Substring(id.replacingOccurrences(of: "--", with: "-")) }
        id = id.drop { $0 == "-" }
        while id.last == "-" { id.removeLast() }
        if id.count > 64 {
            id = id.prefix(64)
            while id.last == "-" { id.removeLast() }
        }
        return String(id)
    }
}
