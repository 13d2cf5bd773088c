import BestiaryContent
import BestiaryDiagnostics
import Foundation

/// The theme's UI strings (`templates/i18n/LANG.json`: flat `"nav.quiz": "Quiz"` maps), per
/// language, with English and then the key itself as the fallback so a page never shows a hole.
public struct UIStrings: Sendable {
    /// Language → key → text.
    public let tables: [String: [String: String]]

    public static func load(_ theme: Theme) throws(DiagnosticError) -> UIStrings {
        var tables: [String: [String: String]] = [:]
        var bag = DiagnosticBag()
        for path in theme.paths(under: "i18n/") where path.hasSuffix(".json") {
            let lang = String(path.dropFirst("i18n/".count).dropLast(".json".count))
            guard let file = theme.files[path] else { continue }
            do {
                let object = try JSONSerialization.jsonObject(with: file.data)
                guard let dict = object as? [String: Any] else {
                    bag.error("strings must be one JSON object of \"key\": \"text\"", at: SourceLocation(path: file.origin), stage: "render")
                    continue
                }
                var table: [String: String] = [:]
                for (key, value) in dict {
                    if let s = value as? String {
                        table[key] = s
                        // Like a record's texts: a direction control makes the text read otherwise
                        // on the site than in review (raw or as a "\u202E" escape).
                        if let control = DirectionControl.first(in: s) ?? DirectionControl.first(in: key) {
                            bag.error("string '\(key)' holds \(DirectionControl.describe(control)), \(DirectionControl.why)", at: location(of: key, in: file), stage: "render")
                        }
                    } else {
                        bag.error("string '\(key)' must be text", at: SourceLocation(path: file.origin), stage: "render")
                    }
                }
                tables[lang] = table
            } catch {
                let (what, at) = Self.jsonProblem(error, in: file.data)
                bag.error(
                    "strings are not valid JSON (\(what)); the file is one object of \"key\": \"text\" pairs",
                    at: SourceLocation(path: file.origin, line: at.line, column: at.column), stage: "render")
            }
        }
        // Keys nest by their dots ({{t.nav.quiz}}): `a.b` and `a.b.c` cannot both be, in a file or
        // in a language's table completed from English (``table(for:)``).
        for (lang, table) in tables.sorted(by: { $0.key < $1.key }) {
            guard let file = theme.files["i18n/\(lang).json"] else { continue }
            bag.append(contentsOf: nestingProblems(table, completing: UIStrings(tables: tables).table(for: lang), file: file))
        }
        try bag.throwIfErrors()
        return UIStrings(tables: tables)
    }

    /// The line of `"key"` in `file` (its first mention), column 1.
    static func location(of key: String, in file: Theme.File) -> SourceLocation {
        let text = String(decoding: file.data, as: UTF8.self)
        let line = text.range(of: "\"\(key)\"").map { text[..<$0.lowerBound].filter { $0 == "\n" }.count + 1 } ?? 1
        return SourceLocation(path: file.origin, line: line, column: 1)
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
        guard let range = said.range(of: "around character "),
            let offset = Int(said[range.upperBound...].prefix { $0.isNumber }), offset <= data.count
        else { return (what, (1, 1)) }
        what = String(said[..<range.lowerBound]).trimmingCharacters(in: .whitespaces)
        let before = data.prefix(offset)
        let line = before.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? before.startIndex
        // Columns count characters, not bytes.
        let column = String(decoding: before[lineStart...], as: UTF8.self).count + 1
        return (what.isEmpty ? said : what.prefix(1).lowercased() + what.dropFirst(), (line, column))
    }

    /// Whether the theme translates its interface into `language` (or its base language: `pt`
    /// for `pt-BR`); English is the fallback of every table.
    public func hasTexts(for language: String) -> Bool {
        let base = language.split(separator: "-").first.map(String.init) ?? language
        return tables[language] != nil || tables[base] != nil
    }

    /// The table for `language`, completed from English, as a flat map.
    public func table(for language: String) -> [String: String] {
        var result = tables["en"] ?? [:]
        let base = language.split(separator: "-").first.map(String.init) ?? language
        if base != language, let t = tables[base] { result.merge(t) { $1 } }
        if let t = tables[language] { result.merge(t) { $1 } }
        return result
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
}
