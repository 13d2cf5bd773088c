import BestiaryContent
import BestiaryDiagnostics
import BestiaryStorage
import BestiaryTheme
import Foundation

/// The theme as the render stage uses it: its files, templates compiled, interface texts and
/// assets, each checked. `bestiary check` checks the theme this way too, so what would stop a
/// build is found before it.
public struct PreparedTheme: Sendable {
    public let theme: Theme
    public let templates: Templates
    public let strings: UIStrings
    public let assets: AssetPipeline
    /// What does not stop a build (a language the interface has no texts for).
    public let warnings: [Diagnostic]

    /// Every error of the templates, the texts and the assets at once (not only the first part's).
    /// `languages`: the site's, for the texts each needs; `config`: site.yml, where they are named.
    /// `listingAll`: the texts a language lacks named every one (`check --all-warnings`, JSON: a
    /// translator's to-do list), not by the parts of the interface they are in.
    public static func load(
        root: String, fileSystem: any FileSystem, languages: [String], config: SourceLocation?, listingAll: Bool = false
    ) throws(DiagnosticError) -> PreparedTheme {
        try prepare(try Theme.load(root: root, fileSystem: fileSystem), languages: languages, config: config, listingAll: listingAll)
    }

    /// ``load(root:fileSystem:languages:config:listingAll:)`` of a theme already read.
    static func prepare(_ theme: Theme, languages: [String], config: SourceLocation?, listingAll: Bool = false) throws(DiagnosticError) -> PreparedTheme {
        var bag = DiagnosticBag()
        var templates: Templates?, assets: AssetPipeline?
        do { templates = try Templates.compile(theme) } catch { bag.append(contentsOf: error.diagnostics) }
        var (strings, stringProblems) = UIStrings.read(theme)
        bag.append(contentsOf: stringProblems)
        do { assets = try AssetPipeline.build(theme) } catch { bag.append(contentsOf: error.diagnostics) }
        if let assets { bag.append(contentsOf: unknownAssets(in: theme, assets: assets)) }
        let assetWarnings = (assets?.warnings ?? []) + (assets.map { unhashedAssetLinks(in: theme, assets: $0) } ?? [])
        guard let templates, let assets, !bag.hasErrors else {
            // What would only be warned about is said with the errors (a key misspelt beside a
            // value that is no text in the same file): a translator fixing the one error saw the
            // file's other mistakes only in the next round. Also beside a template that does not
            // compile (a stray file, a texts file's mistakes were said only once it did), but for
            // what only compiled templates tell (the names and texts they use).
            bag.append(contentsOf: warnings(theme, templates, &strings, languages: languages, config: config, listingAll: listingAll) + assetWarnings)
            try bag.throwIfErrors()
            preconditionFailure("a part of the theme failed without an error")
        }
        let warnings = warnings(theme, templates, &strings, languages: languages, config: config, listingAll: listingAll) + assetWarnings
        // (An empty layout is one: its pages would be empty files.)
        if warnings.contains(where: { $0.severity == .error }) { throw DiagnosticError(DiagnosticBag(warnings).sorted) }
        return PreparedTheme(theme: theme, templates: templates, strings: strings, assets: assets, warnings: warnings)
    }

    /// What does not stop a build: texts a language lacks or does not use, names no template
    /// value has, theme files no build reads, links that lead nowhere. Notes in `strings` the
    /// texts shown as their key where missing. Without `templates` (one did not compile), what
    /// needs them (the names and texts they use) is left out.
    private static func warnings(
        _ theme: Theme, _ templates: Templates?, _ strings: inout UIStrings, languages: [String], config: SourceLocation?, listingAll: Bool
    ) -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        // `fr-CA.json` beside `languages: [fr-ca]`: file names are matched as written, so its
        // texts were never shown, silently when a `fr.json` served instead (found by a translator).
        for language in languages {
            for other in strings.tables.keys.sorted() where other != language && other.lowercased() == language.lowercased() {
                warnings.append(.warning(
                    // `FR` is no language code to write in languages (a translator was told to).
                    "templates/i18n/\(other).json is not used: site.yml's languages names '\(language)', and file names are matched as written; \(LanguageCode.isValid(other) ? "write '\(other)' in languages, or " : "")rename the file to i18n/\(language).json",
                    at: theme.files["i18n/\(other).json"].map { SourceLocation(path: $0.origin) } ?? config, stage: "render"))
            }
        }
        // `English.json`, `german.json`: a name no language code is, never used (its texts were
        // parsed and checked, and no page showed them: a designer's find).
        for path in theme.paths(under: "i18n/") where path.hasSuffix(".json") {
            let name = String(path.dropFirst("i18n/".count).dropLast(".json".count))
            // (`FR.json`, `fr_fr.json`: a code written otherwise, which the warnings here say.)
            let written = name.lowercased().replacingOccurrences(of: "_", with: "-")
            guard !name.contains("/"), let file = theme.files[path] else { continue }
            // `sp.json`: a code no language has, written for one (a translator's `sp` for `es`).
            if LanguageCode.isValid(written), !languages.contains(name), let meant = LanguageCode.unknownTwoLetter(written) {
                warnings.append(.warning(
                    "templates/i18n/\(name).json is not used: '\(name)' is no language code (ISO 639-1 has no '\(written.prefix(2))')\(meant.isEmpty ? "" : "; rename it to i18n/\(meant).json")",
                    at: SourceLocation(path: file.origin), stage: "render"))
                continue
            }
            guard !LanguageCode.isValid(written) else { continue }
            let advice = Self.languageCode(named: name).map { "; rename it to i18n/\($0).json" } ?? " (i18n/de.json, i18n/pt-BR.json)"
            warnings.append(.warning(
                "templates/i18n/\(name).json is not used: '\(name)' is no language code, and each page's texts are found by its language's code\(advice)",
                at: SourceLocation(path: file.origin), stage: "render"))
        }
        // A file that is there but could not be read is its own error, not "no interface texts".
        for language in languages where !strings.hasTexts(for: language) && theme.files["i18n/\(language).json"] == nil {
            // `ES.json` for `es`: said above, as a file to rename (not "used only for 'ES'" too).
            guard !strings.tables.keys.contains(where: { $0 != language && $0.lowercased() == language.lowercased() }) else { continue }
            // A file for a variant of a bare language (`fr-FR.json`, `fr_fr.json` for `fr`) is only
            // ever used for pages in that variant. (For a variant, `zh-Hant`, another variant's
            // file, `zh-Hans`, is no advice: it is written for other readers.)
            func base(_ tag: String) -> String { UIStrings.baseLanguage(tag.lowercased().replacingOccurrences(of: "_", with: "-")) }
            let bare = base(language) == language.lowercased()
            let variants = bare ? strings.tables.keys.filter { $0 != "en" && base($0) == base(language) }.sorted() : []
            let advice = variants.first.map {
                "; templates/i18n/\($0).json is used only for pages in '\($0)': rename it to i18n/\(language).json"
            } ?? "; copy the default theme's i18n/en.json there and translate it"
            warnings.append(.warning(
                "the theme has no interface texts in '\(language)' (templates/i18n/\(language).json), so its pages show menus, buttons and the quiz in English\(advice)",
                at: config, stage: "render"))
        }
        // A site's i18n file that could not be read is its own error; the warnings that compare
        // the tables would only blame the texts it holds (missing in English, named by no table).
        let textsRead = strings.unreadable.isEmpty
        if textsRead { warnings += missingTexts(strings, theme: theme, languages: languages, listingAll: listingAll) }
        // The texts the templates name: from the compiled templates, or read from their text when
        // one did not compile (a texts file's own mistakes are said beside that error).
        let usedTexts = templates.map { Set($0.lookups.compactMap { $0.name.hasPrefix("t.") ? String($0.name.dropFirst(2)) : nil }) }
            ?? textNamesWritten(in: theme)
        if textsRead { warnings += UIStrings.translationProblems(strings, theme: theme, used: usedTexts, languages: languages) }
        if let templates {
            warnings += ContextKeys.unknownNames(in: templates, strings: strings, checkingTexts: textsRead)
            warnings += templates.unknownBlocks
            // A theme's own text (one a translation has, English not) that a page names but its
            // language lacks shows as its key, as that warning says. (A name no table has at all is
            // another warning's, ContextKeys': it renders as nothing.)
            let english = strings.tables["en"] ?? [:]
            let own = Set(strings.tables.filter { $0.key != "en" }.values.flatMap(\.keys)).filter { english[$0] == nil }
            strings.keysShownWhenMissing = usedTexts.intersection(own)
        }
        warnings += unusedFiles(in: theme)
        // (The list of earlier files is read only for a site with files of its own: 4 % of a small
        // site's rebuild went into reading it.)
        if theme.files.values.contains(where: \.isOverride) { warnings += earlierCopies(in: theme) }
        warnings += ModuleExports.missingNames(in: theme)
        warnings += bodyHooksProblems(in: theme)
        warnings += escapedMarkup(in: theme)
        if let problem = ServiceWorker.markerProblem(in: theme) { warnings.append(problem) }
        warnings += theme.linkProblems
        return warnings
    }

    /// The texts (`{{t.NAME}}`, `{{#t.NAME}}` …) the theme's layouts, partials and Markdown
    /// templates name, read from their text: what the compiled templates' lookups tell, for a
    /// theme one of whose templates does not compile.
    static func textNamesWritten(in theme: Theme) -> Set<String> {
        var names = Set<String>()
        for (path, file) in theme.files where path.hasPrefix("layouts/") || path.hasPrefix("partials/") || path.hasPrefix("markdown/") {
            let bytes = Array(file.data)
            var i = 0
            while i + 1 < bytes.count {
                guard bytes[i] == UInt8(ascii: "{"), bytes[i + 1] == UInt8(ascii: "{") else { i += 1; continue }
                var j = i + 2
                while j < bytes.count, bytes[j] == UInt8(ascii: " ") || "#^/&{".utf8.contains(bytes[j]) { j += 1 }
                if j + 1 < bytes.count, bytes[j] == UInt8(ascii: "t"), bytes[j + 1] == UInt8(ascii: ".") {
                    var k = j + 2
                    while k < bytes.count, bytes[k] < 0x80, Character(UnicodeScalar(bytes[k])).isLetter || Character(UnicodeScalar(bytes[k])).isNumber || "._-".utf8.contains(bytes[k]) { k += 1 }
                    if k > j + 2 { names.insert(String(decoding: bytes[(j + 2)..<k], as: UTF8.self)) }
                }
                i = j
            }
        }
        return names
    }

    /// A site's files under `templates/` that no build reads (`layout/animal.html`,
    /// `partials/card.htm`): a theme author's change that silently does nothing. Hidden files and
    /// a README or licence at the top are left alone.
    static func unusedFiles(in theme: Theme) -> [Diagnostic] {
        let known = Theme.builtIn.files.keys.sorted()
        let themeFolders: Set<Substring> = ["layouts", "partials", "markdown", "assets", "i18n", "service-worker"]
        var problems: [Diagnostic] = []
        var otherFolders: [Substring: (count: Int, first: Theme.File)] = [:]
        for (path, file) in theme.files.sorted(by: { $0.key < $1.key }) where file.isOverride {
            let parts = path.split(separator: "/")
            if parts.contains(where: { $0.hasPrefix(".") }) { continue }
            // Notes beside the theme (README, a licence, a changelog, package.json, a screenshot).
            if parts.count == 1, !parts[0].hasSuffix(".html") { continue }
            // A folder no theme has (node_modules, docs): once, not per file.
            if parts.count > 1, !themeFolders.contains(parts[0]) {
                otherFolders[parts[0], default: (0, file)].count += 1
                continue
            }
            let used = ((path.hasPrefix("layouts/") || path.hasPrefix("partials/")) && path.hasSuffix(".html"))
                || (path.hasPrefix("markdown/") && path.hasSuffix(".md")) || path.hasPrefix("assets/")
                || (path.hasPrefix("i18n/") && path.hasSuffix(".json") && parts.count == 2) || path == "service-worker/sw.js"
            if used { continue }
            // `i18n/fr.jsn` means fr's texts, not the closest built-in file (`i18n/de.json`).
            let translation = parts.count == 2 && parts[0] == "i18n" ? parts[1].split(separator: ".").first.map { "i18n/\($0).json" } : nil
            let hint = (translation ?? Suggestion.closest(to: path, among: known)).map { "; did you mean templates/\($0)?" } ?? ""
            problems.append(.warning(
                "templates/\(path) is not where a theme's files go, so no build reads it (layouts/*.html, partials/*.html, markdown/*.md, assets/…, i18n/LANG.json, service-worker/sw.js)\(hint)",
                at: SourceLocation(path: file.origin), stage: "render"))
        }
        for (folder, found) in otherFolders.sorted(by: { $0.key < $1.key }) {
            let hint = Suggestion.closest(to: String(folder), among: themeFolders.map(String.init).sorted()).map { "; did you mean templates/\($0)/?" } ?? ""
            problems.append(.warning(
                "templates/\(folder)/ is not a folder of a theme, so no build reads its \(found.count) file\(found.count == 1 ? "" : "s") (layouts/, partials/, markdown/, assets/, i18n/, service-worker/)\(hint)",
                at: SourceLocation(path: "templates/\(folder)"), stage: "render"))
        }
        return problems
    }

    /// A site's `layouts/base.html` whose `<body>` lost attributes the default theme's has
    /// (`data-catalog`, `data-root` …), which the web app's scripts read: the quiz said the list
    /// of animals could not be loaded, pointing at the network (found by a theme designer).
    /// Likewise a site's layout that does not extend `layouts.base` (its own `<html>`), and a
    /// layout left empty, whose pages were empty files without a word (found by another).
    static func bodyHooksProblems(in theme: Theme) -> [Diagnostic] {
        guard let builtIn = DefaultTheme.files["layouts/base.html"].map({ String(decoding: $0, as: UTF8.self) }),
            let open = builtIn.range(of: "<body"), let close = builtIn[open.upperBound...].range(of: ">")
        else { return [] }
        var required: [String] = []
        var rest = builtIn[open.upperBound..<close.lowerBound]
        while let start = rest.range(of: "data-") {
            let name = rest[start.lowerBound...].prefix { $0.isLetter || $0 == "-" }
            if !required.contains(String(name)) { required.append(String(name)) }
            rest = rest[name.endIndex...]
        }
        // The quiz names the daily's shared result by the title when there is one, else "Bestiary".
        let optional: Set<String> = ["data-site-title"]
        var problems: [Diagnostic] = []
        for path in theme.paths(under: "layouts/") where path.hasSuffix(".html") {
            guard let file = theme.files[path], file.isOverride else { continue }
            let text = String(decoding: file.data, as: UTF8.self)
            // An error: a build published 48 empty pages, and the open preview went blank without
            // a word (a designer's); now the preview keeps the last pages and shows why.
            if text.allSatisfy(\.isWhitespace) {
                problems.append(.error(
                    "this layout is empty, so every page it makes would be an empty file; write it, or delete it to use the default theme's",
                    at: SourceLocation(path: file.origin), stage: "render"))
                continue
            }
            let isBase = path == "layouts/base.html"
            if !isBase, extendsBase(text, in: theme) { continue }
            let missing = required.filter { !optional.contains($0) && !text.contains($0 + "=") }
            guard !missing.isEmpty else { continue }
            let what = isBase ? "the page's <body> lacks" : "this layout does not extend layouts.base ({{<layouts.base}} … {{/layouts.base}}), and its <body> lacks"
            let fix = isBase ? "keep the default theme's <body> attributes" : "start it with {{<layouts.base}} and fill its blocks, as the default theme's layouts do, or keep the default theme's <body> attributes"
            problems.append(.warning(
                "\(what) \(missing.joined(separator: ", ")), which the web app's scripts read (the quiz and the collection cannot load the animals without them); \(fix) (docs/theming.md, \"Your own look\")",
                at: SourceLocation(path: file.origin), stage: "render"))
        }
        return problems
    }

    /// A site's theme files that are an earlier Bestiary's default, never changed since
    /// (``DefaultTheme/earlierDigests``): `init` copies the whole theme, and a copied file wins
    /// over the built-in one, so after an upgrade the site kept that version's files, and bugs,
    /// without a word (found by a theme designer). One warning, naming the first five.
    static func earlierCopies(in theme: Theme, earlier: [String: Set<String>] = DefaultTheme.earlierDigests) -> [Diagnostic] {
        let stale = theme.files.filter { path, file in
            guard file.isOverride, let digests = earlier[path], DefaultTheme.files[path] != file.data else { return false }
            return digests.contains(Hashing.sha256Hex(file.data))
        }.sorted { $0.key < $1.key }
        guard let first = stale.first else { return [] }
        let fix = "run `bestiary init --update-theme` in the site to replace \(stale.count == 1 ? "it" : "them") with this version's (it keeps every file you changed), or delete \(stale.count == 1 ? "it" : "them")"
        if stale.count == 1 {
            return [.warning(
                "templates/\(first.key) is the default theme's file as an earlier Bestiary made it, never changed since: it keeps the site on that version's file, without what changed in it; \(fix)",
                at: SourceLocation(path: first.value.origin), stage: "render")]
        }
        let named = stale.prefix(5).map(\.key).joined(separator: ", ") + (stale.count > 5 ? ", …" : "")
        return [.warning(
            "\(stale.count) files in templates/ are the default theme's as an earlier Bestiary made them, never changed since (\(named)): they keep the site on that version's files, without what changed in them; \(fix)",
            at: SourceLocation(path: "templates"), stage: "render")]
    }

    /// Whether a layout's text extends `layouts.base`, itself or through layouts that do
    /// (`{{<layouts.museum}}`, whose museum.html starts with `{{<layouts.base}}`).
    static func extendsBase(_ text: String, in theme: Theme) -> Bool {
        guard let pattern = try? NSRegularExpression(pattern: #"\{\{<\s*layouts\.([A-Za-z0-9_.-]+)\s*\}\}"#) else { return false }
        var pending = [text], seen = Set<String>()
        while let next = pending.popLast() {
            for match in pattern.matches(in: next, range: NSRange(next.startIndex..., in: next)) {
                guard let range = Range(match.range(at: 1), in: next) else { continue }
                let name = String(next[range])
                if name == "base" { return true }
                guard seen.insert(name).inserted, let parent = theme.files["layouts/\(name).html"] else { continue }
                pending.append(String(decoding: parent.data, as: UTF8.self))
            }
        }
        return false
    }

    /// `{{content_html}}` (two braces) in a site's layout: the page's text shown as its tags,
    /// `&lt;p&gt;…`, without a word (a designer's find); likewise `{{strings_json}}`, which the
    /// scripts then cannot read. Said at the tag, with the three braces it needs.
    static func escapedMarkup(in theme: Theme) -> [Diagnostic] {
        guard let pattern = try? NSRegularExpression(pattern: #"(?<!\{)\{\{\s*(content_html|strings_json)\s*\}\}(?!\})"#) else { return [] }
        var problems: [Diagnostic] = []
        for path in theme.files.keys.sorted()
        where (path.hasPrefix("layouts/") || path.hasPrefix("partials/")) && path.hasSuffix(".html") {
            guard let file = theme.files[path], file.isOverride else { continue }
            let text = String(decoding: file.data, as: UTF8.self)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let range = Range(match.range, in: text), let name = Range(match.range(at: 1), in: text).map({ String(text[$0]) }) else { continue }
                let before = text[..<range.lowerBound]
                let (line, column) = SourceLocation.position(after: before)
                let harm = name == "content_html" ? "the page shows the text's markup as text (<p>, <a href=…>)" : "the scripts cannot read the texts it holds"
                problems.append(.warning(
                    "'{{\(name)}}' escapes the HTML it holds, so \(harm); write '{{{\(name)}}}' (three braces), as the default theme does",
                    at: SourceLocation(path: file.origin, line: line, column: column), stage: "render"))
            }
        }
        return problems
    }

    /// The two-letter code of the language named `name` in English or in itself (`English`,
    /// `german`, `Deutsch`, `Espanol`, `eng`: ``LanguageCode/meant(byName:)``, else by ICU's
    /// names); nil when none is.
    static func languageCode(named name: String) -> String? {
        if let code = LanguageCode.meant(byName: name) { return code }
        let wanted = name.lowercased()
        let english = Locale(identifier: "en")
        return Locale.LanguageCode.isoLanguageCodes.map(\.identifier).filter { $0.count == 2 }.first { code in
            [english.localizedString(forLanguageCode: code), Locale(identifier: code).localizedString(forLanguageCode: code)]
                .contains { $0?.lowercased() == wanted }
        }
    }

    /// Languages whose table lacks some of the English texts: those show in English on its pages
    /// (a copy of an older `i18n/LANG.json`, a key left out), under `<html lang="LANG">`. One
    /// warning per language, at the file that translates it (the language's own, else its base's).
    static func missingTexts(_ strings: UIStrings, theme: Theme, languages: [String], listingAll: Bool = false) -> [Diagnostic] {
        guard let english = strings.tables["en"] else { return [] }
        var problems: [Diagnostic] = []
        for language in languages {
            let base = UIStrings.baseLanguage(language)
            guard base != "en", strings.hasTexts(for: language) else { continue }
            let own = strings.tables[language] ?? [:], inherited = strings.tables[base] ?? [:]
            let missing = english.keys.filter { own[$0] == nil && inherited[$0] == nil }.sorted()
            guard !missing.isEmpty else { continue }
            let file = theme.files["i18n/\(language).json"] ?? theme.files["i18n/\(base).json"]
            // A translator's to-do: the parts of the interface they are in, most first (the first
            // five keys, alphabetically, were achievements, the least seen), or the keys when few.
            let byPart = Dictionary(grouping: missing, by: { String($0.prefix { $0 != "." }) }).mapValues(\.count)
            let shown = missing.count <= 5 || listingAll
                ? missing.joined(separator: ", ")
                : byPart.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(6).map { "\($0.key).*: \($0.value)" }.joined(separator: ", ")
                    + (byPart.count > 6 ? ", …" : "")
            // Where the English of each is: the site's own texts are in its i18n/en.json, not the
            // default theme's (a designer's `museum.note` was sent there).
            let builtIn = UIStrings.builtInTable("i18n/en.json")
            let siteOwn = missing.filter { builtIn[$0] == nil }.count
            let defaults = "the default theme's i18n/en.json (`bestiary init DIR` writes it to DIR/templates/i18n/en.json)"
            let from = siteOwn == 0 ? defaults
                : siteOwn == missing.count ? "your templates/i18n/en.json"
                : "your templates/i18n/en.json (\(siteOwn) of them) and \(defaults)"
            // A plural form the language lacks beside its `.other` shows that (UIStrings.table).
            let forms = missing.filter { UIStrings.pluralForm(of: $0, in: own.merging(inherited) { mine, _ in mine }) != nil }.count
            let shownAs = forms == 0 ? "so those show in English on its pages"
                : forms == missing.count ? "so those plural forms show the language's `.other` form"
                : "so those show in English on its pages (the \(forms) plural forms among them, the language's `.other` form)"
            problems.append(.warning(
                "the interface texts in '\(language)' lack \(missing.count) of the theme's \(english.count) English texts (\(shown)), \(shownAs); add them, translated, from \(from)",
                at: file.map { SourceLocation(path: $0.origin) }, stage: "render"))
        }
        return problems
    }

    /// `{{root}}assets/img/paper.png` in a template: the theme's file by the address it has not (the
    /// output names it by its content), a broken picture on every page without a word (a
    /// designer's). `{{#asset}}img/paper.png{{/asset}}` names it as the output has it.
    static func unhashedAssetLinks(in theme: Theme, assets: AssetPipeline) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        for path in theme.files.keys.sorted()
        where ((path.hasPrefix("layouts/") || path.hasPrefix("partials/")) && path.hasSuffix(".html")) {
            guard let file = theme.files[path], file.isOverride else { continue }
            let text = String(decoding: file.data, as: UTF8.self)
            for marker in ["{{root}}assets/", "{{lang_root}}assets/", "{{ root }}assets/", "\"/assets/"] {
                var rest = text[...]
                while let found = rest.range(of: marker) {
                    rest = rest[found.upperBound...]
                    let logical = String(rest.prefix { !"\"' ?#)>".contains($0) })
                    guard assets.urls[logical] != nil else { continue }
                    let (line, column) = SourceLocation.position(after: text[..<found.lowerBound])
                    problems.append(.warning(
                        "'\(marker.drop { $0 == "\"" })\(logical)' names templates/assets/\(logical) by an address the site does not have: the build names theme files by their content; write {{#asset}}\(logical){{/asset}}",
                        at: SourceLocation(path: file.origin, line: line, column: column + (marker.hasPrefix("\"") ? 1 : 0)), stage: "render"))
                }
            }
        }
        return problems
    }

    /// `{{#asset}}NAME{{/asset}}` tags whose NAME is not a file of the theme's `assets/` (a page
    /// would link `#missing-asset:NAME`). A NAME made by a tag inside it is not known before render.
    static func unknownAssets(in theme: Theme, assets: AssetPipeline) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        // The files ``Templates/compile(_:)`` reads, no others (a theme's README may quote a tag).
        for path in theme.files.keys.sorted()
        where ((path.hasPrefix("layouts/") || path.hasPrefix("partials/")) && path.hasSuffix(".html"))
            || (path.hasPrefix("markdown/") && path.hasSuffix(".md")) {
            guard let file = theme.files[path] else { continue }
            let text = String(decoding: file.data, as: UTF8.self)
            var rest = text[...]
            while let open = rest.range(of: "{{#"), let close = rest[open.upperBound...].range(of: "}}") {
                let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
                rest = rest[close.upperBound...]
                guard name == "asset", let end = rest.range(of: "{{/") else { continue }
                let logical = rest[..<end.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
                if !logical.contains("{{"), assets.urls[logical] == nil {
                    let prefix = text[..<rest.startIndex]
                    let (line, column) = SourceLocation.position(after: prefix)
                    // Named from the theme's folder (`assets/css/museum.css`, `/assets/…`): the name
                    // below assets/ is meant.
                    let below = logical.drop { $0 == "/" }
                    let inside = below.hasPrefix("assets/") ? String(below.dropFirst("assets/".count)) : nil
                    let hint = (inside.flatMap { assets.urls[$0] != nil ? $0 : nil } ?? Suggestion.closest(to: logical, among: assets.urls.keys.sorted()))
                        .map { "; did you mean '\($0)'?" } ?? ""
                    problems.append(.error(
                        "unknown asset '\(logical)': the theme's assets/ has no such file (its pages would link to nothing)\(hint)",
                        at: SourceLocation(path: file.origin, line: line, column: column), stage: "render"))
                }
                rest = rest[end.lowerBound...]
            }
        }
        return problems
    }
}
