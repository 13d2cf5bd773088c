import BestiaryContent
import BestiaryDiagnostics
import BestiaryTheme
import Foundation

/// The theme's UI strings (`templates/i18n/LANG.json`: flat `"nav.quiz": "Quiz"` maps), per
/// language, with English and then the key itself as the fallback so a page never shows a hole.
public struct UIStrings: Sendable {
    /// Language → key → text.
    public let tables: [String: [String: String]]
    /// Keys the templates name (`{{t.KEY}}`) that a language may lack everywhere, English too
    /// (a theme's own text, given in one translation only): such a page shows the key itself,
    /// never a hole (``table(for:)``).
    public var keysShownWhenMissing: Set<String> = []
    /// Language → keys a translation gives as an empty text (a translation tool's export of what
    /// is not translated yet): left out of its table, so its pages show the English text, never a
    /// button or heading without words (found by a translator).
    public var blankKeys: [String: Set<String>] = [:]
    /// Languages whose site file could not be read (its error is reported): their tables are the
    /// default theme's, so warnings that compare tables would blame the texts that file holds.
    public var unreadable: Set<String> = []

    public static func load(_ theme: Theme) throws(DiagnosticError) -> UIStrings {
        let (strings, problems) = read(theme)
        try problems.throwIfErrors()
        return strings
    }

    /// The tables and the errors that stop a build: a value that is no text (and a file that is no
    /// JSON object) is left out of its table, so the rest can still be checked.
    /// The default theme's own files are checked only with `checkingBuiltIn`, as in
    /// ``translationProblems(_:theme:used:languages:checkingBuiltIn:)``: their encoding and texts,
    /// and their keys' nesting where no site file adds to the tables they are checked against.
    static func read(_ theme: Theme, checkingBuiltIn: Bool = false) -> (UIStrings, DiagnosticBag) {
        var tables: [String: [String: String]] = [:]
        // Each file's own texts (a site's are merged into the default theme's of their language).
        var own: [String: [String: String]] = [:]
        var blank: [String: Set<String>] = [:]
        var unreadable: Set<String> = []
        var bag = DiagnosticBag()
        for path in theme.paths(under: "i18n/") where path.hasSuffix(".json") {
            let lang = String(path.dropFirst("i18n/".count).dropLast(".json".count))
            guard let file = theme.files[path] else { continue }
            // A site's file that cannot be read leaves the default theme's table of its language
            // (its error is reported; no warning says the language has no texts at all).
            let fallback = file.isOverride ? Self.builtInTable(path) : [:]
            // UTF-8 as every text file of a site (JSONSerialization took UTF-16 without a word, and
            // said "Invalid UTF-8 sequence" of a Windows-1252 file at 1:1: a translator's).
            let checked = checkingBuiltIn || file.isOverride
            do {
                if checked { _ = try SourceText.decode(file.data, path: file.origin) }
            } catch {
                bag.append(contentsOf: error.diagnostics.map { var d = $0; d.stage = "render"; return d })
                if !fallback.isEmpty { tables[lang] = fallback }
                unreadable.insert(lang)
                continue
            }
            do {
                let object = try JSONSerialization.jsonObject(with: file.data)
                guard let dict = object as? [String: Any] else {
                    bag.error("strings must be one JSON object of \"key\": \"text\"", at: SourceLocation(path: file.origin), stage: "render")
                    if !fallback.isEmpty { tables[lang] = fallback }
                    unreadable.insert(lang)
                    continue
                }
                // A site's table adds to the default theme's of its language, key by key: a site
                // that gave one text of its own in i18n/en.json showed every other as its key, and
                // one that copied a table from an earlier Bestiary lacked every text added since.
                var table = fallback
                var mine: [String: String] = [:]
                for (key, value) in dict {
                    if let s = value as? String {
                        if lang != "en", s.allSatisfy(\.isWhitespace) {
                            blank[lang, default: []].insert(key)
                            continue
                        }
                        table[key] = s
                        mine[key] = s
                        // Like a record's texts: a direction control makes the text read otherwise
                        // on the site than in review (raw or as a "\u202E" escape).
                        // In the text, at the character (it cannot be seen, and may be written as an escape).
                        guard checked else { continue }
                        let inText = DirectionControl.first(in: s)
                        if let control = inText ?? DirectionControl.first(in: key) {
                            let hex = String(control, radix: 16)
                            let spellings = [Unicode.Scalar(control).map { String(Character($0)) } ?? "", "\\u" + hex, "\\u" + hex.uppercased()]
                            bag.error(
                                "string '\(key)' holds \(DirectionControl.describe(control)), \(DirectionControl.why)",
                                at: location(of: key, in: file, pointingAt: inText == nil ? nil : spellings), stage: "render")
                        }
                    } else {
                        bag.error("string '\(key)' must be text", at: location(of: key, in: file, pointingAt: []), stage: "render")
                    }
                }
                tables[lang] = table
                own[lang] = mine
            } catch {
                let (what, at) = Self.jsonProblem(error, in: file.data)
                // `"text": "Tap "Favourite""`: a quote inside a text ended it (a translator's).
                let lines = SourceLocation.lines(of: String(decoding: file.data, as: UTF8.self))
                let line = lines.dropFirst(max(at.line - 1, 0)).first ?? ""
                // Where the parser stopped, a word right after a closing quote.
                let chars = Array(line), at0 = at.column - 1
                let afterQuote = at0 > 0 && at0 < chars.count && (chars[at0].isLetter || chars[at0].isNumber)
                    && chars[..<at0].last(where: { $0 != " " }) == "\""
                // A string where a comma or colon belongs: what comes before it ends with a string, a
                // text (after its key's colon: a comma is missing) or a key (its colon is).
                let before = lines.prefix(max(at.line - 1, 0)) + [String(chars[..<min(max(at0, 0), chars.count)])]
                let ended = before.enumerated().last { !$0.element.trimmingCharacters(in: .whitespaces).isEmpty }
                var missing: String?
                if at0 >= 0, at0 < chars.count, chars[at0] == "\"", let ended, ended.element.trimmingCharacters(in: .whitespaces).hasSuffix("\"") {
                    let where_ = ended.offset + 1 == at.line ? "before it" : "at the end of line \(ended.offset + 1)"
                    missing = Self.endsWithKey(before.joined(separator: "\n")) ? "a ':' is missing \(where_), after the key" : "a comma is missing \(where_)"
                }
                // What JSON has not, as a translator wrote it: a comment, texts in single or
                // typographic quotes, a comma twice.
                let here = at0 >= 0 && at0 < chars.count ? chars[at0] : " "
                let rest = at0 >= 0 && at0 < chars.count ? String(chars[at0...]) : ""
                let unlike = rest.hasPrefix("//") || rest.hasPrefix("/*") ? "JSON has no comments: remove it"
                    : here == "'" ? "JSON writes keys and texts in straight double quotes (\"…\"), not single ones"
                    : "“”„«»".contains(here) ? "JSON writes keys and texts in straight double quotes (\"…\"), not typographic ones (a word processor's)"
                    : here == "," ? "a comma is there twice" : Self.otherComma(here)
                let quoted = afterQuote ? "; a \" inside a text is written \\\" (or use other quotes: « », “ ”)" : (missing ?? unlike).map { "; " + $0 } ?? ""
                bag.error(
                    "strings are not valid JSON (\(what))\(quoted); the file is one object of \"key\": \"text\" pairs",
                    at: SourceLocation(path: file.origin, line: at.line, column: at.column), stage: "render")
                if !fallback.isEmpty { tables[lang] = fallback }
                unreadable.insert(lang)
            }
        }
        // Keys nest by their dots ({{t.nav.quiz}}): `a.b` and `a.b.c` cannot both be, in a file or
        // in a language's table completed from English (``table(for:)``).
        // The site's own files first: a key of its en.json under one of the theme's was blamed first
        // on the default theme's table of every language it completes, languages the site has not
        // among them, and said at the site's file sixth (a designer's). Those tables are looked at
        // only when the site's files are sound.
        var ownNesting: [Diagnostic] = [], builtInNesting: [Diagnostic] = []
        for (lang, mine) in own.sorted(by: { $0.key < $1.key }) {
            guard let file = theme.files["i18n/\(lang).json"] else { continue }
            // (The tables `table(for:)` completes this one from.)
            let completing = ["en", baseLanguage(lang), lang]
            guard checkingBuiltIn || completing.contains(where: { theme.files["i18n/\($0).json"]?.isOverride == true }) else { continue }
            let problems = nestingProblems(mine, completing: UIStrings(tables: tables).table(for: lang), file: file)
            if file.isOverride { ownNesting += problems } else { builtInNesting += problems }
        }
        bag.append(contentsOf: ownNesting.isEmpty || checkingBuiltIn ? ownNesting + builtInNesting : ownNesting)
        var strings = UIStrings(tables: tables)
        strings.blankKeys = blank
        strings.unreadable = unreadable
        return (strings, bag)
    }

    /// `"a": "x"، "b": "y"`, as an Arabic keyboard types the comma (a teacher's): what to say of
    /// another script's comma where JSON wants its own; nil for any other character.
    static func otherComma(_ here: Character) -> String? {
        PastedText.otherCommas[here].map { "'\(here)' is \($0), which JSON does not read as a comma: separate the pairs with ','" }
    }

    /// The default theme's table at `path` (`i18n/de.json`), if it has one.
    static func builtInTable(_ path: String) -> [String: String] {
        builtInTablesLock.lock()
        defer { builtInTablesLock.unlock() }
        if let table = builtInTables[path] { return table }
        var table: [String: String] = [:]
        if let data = DefaultTheme.files[path], let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            table = object.compactMapValues { $0 as? String }
        }
        builtInTables[path] = table
        return table
    }

    /// The default theme's tables read so far, each once a process (a build read the English one
    /// again for the checks of every language).
    nonisolated(unsafe) private static var builtInTables: [String: [String: String]] = [:]
    private static let builtInTablesLock = NSLock()

    /// Where `"key"` is as a key in `file` (followed by its colon, so not a value that reads the
    /// same; its first mention, or its `occurrence`th): the key's opening quote, or with
    /// `pointingAt`, the first of those texts in the key's value (a placeholder, a character as
    /// written or escaped), else the value's start; then of its last mention, whose value is the
    /// one used.
    static func location(of key: String, in file: Theme.File, occurrence: Int = 1, pointingAt needles: [String]? = nil) -> SourceLocation {
        let text = String(decoding: file.data, as: UTF8.self)
        var from = text.startIndex
        var found: Range<String.Index>?
        var seen = 0
        while seen < (needles == nil ? occurrence : .max), let r = text.range(of: "\"\(key)\"", range: from..<text.endIndex) {
            from = r.upperBound
            if text[r.upperBound...].first(where: { !$0.isWhitespace }) == ":" {
                found = r
                seen += 1
            }
        }
        guard let found else { return SourceLocation(path: file.origin, line: 1, column: 1) }
        var spot = found.lowerBound
        if let needles, let colon = text[found.upperBound...].firstIndex(of: ":"),
           let open = text[text.index(after: colon)...].firstIndex(where: { !$0.isWhitespace }) {
            spot = open
            if text[open] == "\"" {
                // The text runs to its closing quote (one not escaped) or the end of its line.
                let value = text.index(after: open)
                var end = value, escaped = false
                while end < text.endIndex, !text[end].isNewline, escaped || text[end] != "\"" {
                    escaped = !escaped && text[end] == "\\"
                    end = text.index(after: end)
                }
                spot = needles.compactMap { $0.isEmpty ? nil : text.range(of: $0, range: value..<end)?.lowerBound }.min() ?? open
            }
        }
        let position = SourceLocation.position(after: text[..<spot])
        return SourceLocation(path: file.origin, line: position.line, column: position.column)
    }

    /// Keys of `own` (one file) that cannot nest with the others of `table` (the language's
    /// whole table): one with an empty part (`a..b`), one another key is below, one below another.
    static func nestingProblems(_ own: [String: String], completing table: [String: String], file: Theme.File) -> [Diagnostic] {
        func at(_ key: String) -> SourceLocation { location(of: key, in: file) }
        let all = Set(table.keys).union(own.keys)
        var below: [String: String] = [:]  // a key that has others below it → one of them
        for key in all.sorted() {
            let parts = key.split(separator: ".")
            for n in 1..<max(1, parts.count) where below[parts[..<n].joined(separator: ".")] == nil {
                below[parts[..<n].joined(separator: ".")] = key
            }
        }
        var problems: [Diagnostic] = []
        for key in own.keys.sorted() {
            let parts = key.split(separator: ".", omittingEmptySubsequences: false)
            if parts.contains(where: \.isEmpty) {
                problems.append(.error("string '\(key)' has an empty part between its dots; keys are nested by their dots ({{t.a.b}})", at: at(key), stage: "render"))
            } else if let shorter = (1..<parts.count).lazy.map({ parts[..<$0].joined(separator: ".") }).first(where: { all.contains($0) }) {
                problems.append(.error(
                    "string '\(key)' is below string '\(shorter)': keys are nested by their dots ({{t.\(shorter)}}), so one would hide the other; rename one",
                    at: at(key), stage: "render"))
            } else if let longer = below[key], own[longer] == nil {
                // (a key below it in this file is reported at that key)
                problems.append(.error(
                    "string '\(longer)' (from the English texts) is below string '\(key)': keys are nested by their dots ({{t.\(key)}}), so one would hide the other; rename one",
                    at: at(key), stage: "render"))
            }
        }
        return problems
    }

    /// What Foundation's JSON parser said (`Invalid value around character 19.`), and the line and
    /// column of that byte of `data` (1:1 when it named none).
    static func jsonProblem(_ error: any Error, in data: Data) -> (String, (line: Int, column: Int)) {
        let said = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
        var what = said.trimmingCharacters(in: CharacterSet(charactersIn: ". "))
        let offset: Int
        if let range = said.range(of: "around character "),
            let at = Int(said[range.upperBound...].prefix { $0.isNumber }), at <= data.count
        {
            offset = at
            what = String(said[..<range.lowerBound]).trimmingCharacters(in: .whitespaces)
        } else if said.lowercased().contains("end of file") {
            // A file cut short (an object never closed): where it ends, after its last line's text.
            let end = data.last == 0x0A ? data.count - 1 : data.count
            offset = end
            what = "it ends before the object is closed"
        } else {
            return (what, (1, 1))
        }
        let before = data.prefix(offset)
        let line = before.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? before.startIndex
        // Columns count characters, not bytes.
        let column = String(decoding: before[lineStart...], as: UTF8.self).count + 1
        return (what.isEmpty ? said : what.prefix(1).lowercased() + what.dropFirst(), (line, column))
    }

    /// Whether the JSON `text` (up to a stop) ends with an object's key: its last string has a
    /// `{` or `,` before it, not the `:` a text has.
    static func endsWithKey(_ text: String) -> Bool {
        let chars = Array(text.trimmingCharacters(in: .whitespacesAndNewlines))
        guard chars.last == "\"" else { return false }
        var k = chars.count - 2
        while k >= 0 {
            if chars[k] == "\"" {
                var slashes = 0
                while k - 1 - slashes >= 0, chars[k - 1 - slashes] == "\\" { slashes += 1 }
                if slashes % 2 == 0 { break }
            }
            k -= 1
        }
        let previous = chars[..<max(k, 0)].last { !$0.isWhitespace }
        return previous == "{" || previous == ","
    }

    /// The base language of a tag, whose table completes the tag's: `pt` for `pt-BR`.
    static func baseLanguage(_ language: String) -> String {
        language.split(separator: "-").first.map(String.init) ?? language
    }

    /// Whether the theme translates its interface into `language` (or its base language: `pt`
    /// for `pt-BR`); English is the fallback of every table.
    public func hasTexts(for language: String) -> Bool {
        tables[language] != nil || tables[Self.baseLanguage(language)] != nil
    }

    /// The table for `language`, completed from English, as a flat map.
    public func table(for language: String) -> [String: String] {
        var result = tables["en"] ?? [:]
        let base = Self.baseLanguage(language)
        if base != language, let t = tables[base] { result.merge(t) { $1 } }
        if let t = tables[language] { result.merge(t) { $1 } }
        // A plural form the language lacks (`….one`) beside its `.other`: that, not English (a
        // translator's "Exported 1 sighting." amid Spanish). English has no table to fill from.
        if base != "en" {
            let own = (tables[base] ?? [:]).merging(tables[language] ?? [:]) { $1 }
            for key in result.keys where own[key] == nil {
                if let other = Self.pluralForm(of: key, in: own) { result[key] = other }
            }
        }
        // Never where it would turn a text into a group of texts, or a group into a text
        // (`nav.quiz.x` under the text `nav.quiz`, or `nav` over `nav.quiz`).
        for key in keysShownWhenMissing where result[key] == nil && !result.keys.contains(where: { $0.hasPrefix(key + ".") }) {
            let parts = key.split(separator: ".")
            if (1..<parts.count).contains(where: { result[parts[..<$0].joined(separator: ".")] != nil }) { continue }
            result[key] = key
        }
        return result
    }

    /// The `.other` form `table` has for `key` when `key` is another plural form of the same
    /// text (`a.count.one` → `a.count.other`'s text); nil for any other key.
    static func pluralForm(of key: String, in table: [String: String]) -> String? {
        guard let dot = key.lastIndex(of: "."), ["zero", "one", "two", "few", "many"].contains(key[key.index(after: dot)...]) else { return nil }
        return table[key[...dot] + "other"]
    }

    /// `"nav.quiz": "Quiz"` → `["nav": ["quiz": "Quiz"]]`, for `{{t.nav.quiz}}` in templates.
    public static func nested(_ flat: [String: String]) -> [String: Any] {
        var root: [String: Any] = [:]
        for key in flat.keys.sorted() {
            let parts = key.split(separator: ".").map(String.init)
            insert(&root, parts[...], flat[key]!)
        }
        return root
    }

    private static func insert(_ dict: inout [String: Any], _ path: ArraySlice<String>, _ value: String) {
        guard let first = path.first else { return }
        if path.count == 1 {
            if dict[first] == nil { dict[first] = value }
            return
        }
        var child = dict[first] as? [String: Any] ?? [:]
        insert(&child, path.dropFirst(), value)
        dict[first] = child
    }

    /// What a translator's file may get wrong without breaking it, one warning each, at the
    /// key's line: a key the English texts lack (a misspelt key: no page shows it), a
    /// placeholder the English text lacks or one it has that is missing (`{nombre}` for
    /// `{count}` shows as written), a key given twice (the second wins), a comma before the
    /// closing brace (not JSON: other tools refuse the file).
    /// Only the keys a file itself gives are checked, against the default theme's English where
    /// it has the key (the names the code fills in) and the site's English for a text of its own.
    /// A site's `i18n/en.json` is checked as well: a placeholder the built-in English text lacks
    /// showed on the page as written, with a warning blamed on `de.json` (found by a designer).
    /// `used`: the texts the templates name (`{{t.KEY}}`): a key only a translation has is the
    /// theme's own, not a misspelling; then it is warned about only when a site language (in
    /// `languages`) lacks it, whose pages show the key itself.
    /// A default theme's file (not the site's) is checked only with `checkingBuiltIn`: its keys are
    /// the built-in English's (each plural form by its `.other`), so what it is told depends on
    /// the default theme alone, and a test checks that to be nothing (these checks were a sixth
    /// of a small site's rebuild, 2026-12-06).
    static func translationProblems(
        _ strings: UIStrings, theme: Theme, used: Set<String> = [], languages: [String] = [], checkingBuiltIn: Bool = false
    ) -> [Diagnostic] {
        guard let english = strings.tables["en"] else { return [] }
        let builtInEnglish = builtInTable("i18n/en.json")
        var problems: [Diagnostic] = []
        for (language, table) in strings.tables.sorted(by: { $0.key < $1.key }) {
            guard let file = theme.files["i18n/\(language).json"], file.isOverride || (checkingBuiltIn && language != "en") else { continue }
            let text = String(decoding: file.data, as: UTF8.self)
            let written = keyMentions(in: text)
            let given = Set(written)
            let englishKeys = english.keys.sorted()
            for key in table.keys.sorted() where given.contains(key) {
                // A plural form English has no need of (`.few`, `.many` …) stands for `.other`.
                let parts = key.split(separator: ".")
                let plural = parts.count > 1 && Self.pluralCategories.contains(String(parts.last!))
                let base = parts.dropLast().joined(separator: ".")
                func reference(_ table: [String: String]) -> String? { table[key] ?? (plural ? table[base + ".other"] : nil) }
                let original: String
                if language == "en" {
                    // The site's own text: nothing to compare it with. But one spelt like a theme's
                    // text that no template names (`animal.favourite` for `animal.favorite`) is kept
                    // without a word while the pages show the theme's (a designer's).
                    guard let builtIn = reference(builtInEnglish) else {
                        // (`quiz.group.pet`, a group's label, is looked up by the pages' code, not named.)
                        if !used.isEmpty, !used.contains(key), !(plural && used.contains(base)), !key.hasPrefix("quiz.group."),
                            let meant = Suggestion.closest(to: key, among: builtInEnglish.keys.sorted())
                        {
                            problems.append(.warning(
                                "string '\(key)' is none of the theme's texts and no template names it, so no page shows it; did you mean '\(meant)'?",
                                at: location(of: key, in: file), stage: "render"))
                        }
                        continue
                    }
                    original = builtIn
                } else if let known = reference(builtInEnglish) ?? reference(english) {
                    original = known
                } else {
                    if used.contains(key) || (plural && used.contains(base)) {
                        let lacking = languages.filter { strings.table(for: $0)[key] == nil }
                        if !lacking.isEmpty {
                            problems.append(.warning(
                                "string '\(key)' is the theme's own, but the texts in \(lacking.joined(separator: ", ")) lack it, so those pages show '\(key)' itself; add it to i18n/en.json (the fallback of every language)",
                                at: location(of: key, in: file), stage: "render"))
                        }
                        continue
                    }
                    let hint = Suggestion.closest(to: key, among: englishKeys).map { "; did you mean '\($0)'?" } ?? ""
                    problems.append(.warning(
                        "string '\(key)' is not one of the theme's English texts (i18n/en.json), so no page shows it\(hint)",
                        at: location(of: key, in: file), stage: "render"))
                    continue
                }
                var theirs = placeholders(table[key]!), ours = placeholders(original)
                // Every form of a plural is given the count, whether its English form shows it or not.
                if plural { theirs.remove("{count}"); ours.remove("{count}") }
                if theirs != ours {
                    let filled = placeholders(original).union(plural ? ["{count}"] : [])
                    let english = language == "en" ? "the default theme's English text" : "the English text"
                    let extra = theirs.subtracting(ours).sorted(), lacking = ours.subtracting(theirs).sorted()
                    var what: [String] = []
                    if !extra.isEmpty { what.append("\(extra.joined(separator: ", ")), which \(english) has not (it shows as written)") }
                    if !lacking.isEmpty { what.append("no \(lacking.joined(separator: ", ")), which \(english) fills in") }
                    problems.append(.warning(
                        "string '\(key)' has \(what.joined(separator: ", and ")); placeholders are filled by \(language == "en" ? "the default theme's names (\(filled.sorted().joined(separator: ", ")))" : "their English names")",
                        at: location(of: key, in: file, pointingAt: extra), stage: "render"))
                }
            }
            let blank = (strings.blankKeys[language] ?? []).sorted()
            let shown = blank.isEmpty ? [:] : strings.table(for: language)
            for key in blank {
                problems.append(.warning(
                    "string '\(key)' is empty, so its pages show the text it falls back to (\"\(shown[key] ?? english[key] ?? key)\"); translate it, or remove the line",
                    at: location(of: key, in: file, pointingAt: []), stage: "render"))
            }
            var seen = Set<String>()
            for key in written where !seen.insert(key).inserted {
                problems.append(.warning(
                    "string '\(key)' is given twice in this file; the second one is used", at: location(of: key, in: file, occurrence: 2), stage: "render"))
            }
            if let comma = trailingComma(in: text) {
                let position = SourceLocation.position(after: text[..<comma])
                problems.append(.warning(
                    "a comma before the closing brace is not JSON: editors and translation tools refuse the file; remove it",
                    at: SourceLocation(path: file.origin, line: position.line, column: position.column), stage: "render"))
            }
        }
        return problems
    }

    /// Intl.PluralRules' categories, the last part of a plural text's key (`quiz.left.few`).
    static let pluralCategories: Set<String> = ["zero", "one", "two", "few", "many", "other"]

    /// `{count}` and the like.
    static func placeholders(_ text: String) -> Set<String> {
        // Most texts have none: said by their bytes (`{` is one byte in UTF-8, never part of
        // another character), without going over their characters.
        guard text.utf8.contains(UInt8(ascii: "{")) else { return [] }
        var found = Set<String>()
        var rest = text[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let name = rest[rest.index(after: open)..<close]
            if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) { found.insert("{\(name)}") }
            rest = rest[rest.index(after: open)...]
        }
        return found
    }

    /// Where the comma is when `text` ends in a comma, a closing brace and white space between
    /// and after (`,\s*\}\s*$` as ICU's patterns read it, found from the end instead).
    static func trailingComma(in text: String) -> String.Index? {
        let scalars = text.unicodeScalars
        var i = scalars.endIndex
        func skipSpace() {
            while i > scalars.startIndex, scalars[scalars.index(before: i)].properties.isWhitespace { i = scalars.index(before: i) }
        }
        skipSpace()
        guard i > scalars.startIndex, scalars[scalars.index(before: i)] == "}" else { return nil }
        i = scalars.index(before: i)
        skipSpace()
        guard i > scalars.startIndex, scalars[scalars.index(before: i)] == "," else { return nil }
        return scalars.index(before: i)
    }

    /// What ends a line for `.` in ICU's patterns.
    private static func endsALine(_ scalar: Unicode.Scalar) -> Bool {
        ["\n", "\u{0B}", "\u{0C}", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains(scalar)
    }

    /// The keys of a flat JSON object as written, in order: each string (its text as written,
    /// escapes and all) followed by white space and a colon, searched from the left and on after
    /// each one found, as the pattern `"((?:[^"\\]|\\.)*)"\s*:` finds them. Made by hand over the
    /// text's scalars (`NSRegularExpression` and its offsets in UTF-16 cost more than the scan:
    /// these checks run on every build).
    static func keyMentions(in text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var keys: [String] = []
        var i = 0
        while i < scalars.count {
            guard scalars[i] == "\"" else {
                i += 1
                continue
            }
            // The string's end: the next quote not escaped (a backslash takes the scalar after it).
            var j = i + 1
            var closed = false
            while j < scalars.count {
                if scalars[j] == "\\" {
                    // `\\.`: not before a line's end (`.` does not match one), where the string
                    // cannot go on.
                    guard j + 1 < scalars.count, !Self.endsALine(scalars[j + 1]) else { break }
                    j += 2
                } else if scalars[j] == "\"" {
                    closed = true
                    break
                } else {
                    j += 1
                }
            }
            var k = j + 1
            // `\s` in ICU's patterns: Unicode's White_Space (vertical tab and NEL too).
            while closed, k < scalars.count, scalars[k].properties.isWhitespace { k += 1 }
            guard closed, k < scalars.count, scalars[k] == ":" else {
                i += 1
                continue
            }
            var key = String.UnicodeScalarView()
            key.append(contentsOf: scalars[(i + 1)..<j])
            keys.append(String(key))
            i = k + 1
        }
        return keys
    }
}
