import BestiaryContent
import BestiaryDiagnostics
import BestiaryMarkdown
import BestiaryStorage
import BestiaryTemplate
import Foundation

/// The theme's Mustache templates, compiled once per build.
///
/// - `layouts/*.html` and `partials/*.html` are HTML templates: `{{value}}` is HTML-escaped.
/// - `markdown/*.md` are Markdown templates: `{{value}}` is escaped *for Markdown*
///   (``Markdown/escape(_:)``) so text shows literally, `{{{value}}}` inserts Markdown as is
///   (a record's own body), and the result goes through cmark in safe mode before it is placed
///   into a layout. Neither kind lets text from content or Wikipedia inject markup.
public struct Templates: Sendable {
    let library: TemplateLibrary
    public let names: Set<String>
    /// Template name (`layouts.animal`) → a digest of its text and of every partial it uses,
    /// transitively: what a page rendered with it depends on (the render memo's key).
    let digests: [String: String]
    /// A digest of every template's text: what names the sections of keyed lists
    /// (``FragmentTable``) stand for.
    let libraryDigest: String
    /// Every name a template looks up (`{{name}}`, `{{#a.b}}`), with where its tag is, by file.
    let lookups: [Lookup]
    /// Overrides (`{{<parent}}{{$name}}…`) of blocks the parent does not have, which show nothing.
    let unknownBlocks: [Diagnostic]

    /// A name a template looks up, and where.
    struct Lookup: Sendable, Equatable {
        let name: String
        let location: SourceLocation
        /// The sections around its tag, outermost first (`{{#t.nav}}`: names there may be texts).
        var sections: [String] = []
    }

    /// Tests only: sees the templates, the template name and the context of every page and
    /// Markdown part rendered (``ContextKeys`` is checked against what the contexts really hold;
    /// a test tells its own site's renders from others' by a template only its theme has).
    static let observation = Observation()

    final class Observation: @unchecked Sendable {
        private let lock = NSLock()
        private var observer: (@Sendable (Templates, String, [String: TemplateValue]) -> Void)?

        func set(_ observer: (@Sendable (Templates, String, [String: TemplateValue]) -> Void)?) { lock.withLock { self.observer = observer } }

        func callAsFunction(_ templates: Templates, _ name: String, _ context: [String: TemplateValue]) {
            lock.withLock { observer }?(templates, name, context)
        }
    }

    /// `{{% CONTENT_TYPE: MARKDOWN }}`: values are escaped so CommonMark shows them literally.
    static let markdown = ContentType(name: "MARKDOWN", escape: Markdown.escape)

    /// Compiles every template of `theme`; all parse errors and unknown partials are reported.
    public static func compile(_ theme: Theme) throws(DiagnosticError) -> Templates {
        var bag = DiagnosticBag()
        var sources: [String: (text: String, origin: String, prefix: Int)] = [:]
        var unreadable = Set<String>()
        /// A position in template `name`, in its file (columns on line 1 without the added pragma).
        func location(_ name: String, line: Int, column: Int) -> SourceLocation {
            let column = line == 1 ? max(1, column - (sources[name]?.prefix ?? 0)) : column
            return SourceLocation(path: sources[name]?.origin ?? name, line: line, column: column)
        }
        for path in theme.files.keys.sorted() {
            let isHTML = (path.hasPrefix("layouts/") || path.hasPrefix("partials/")) && path.hasSuffix(".html")
            let isMarkdown = path.hasPrefix("markdown/") && path.hasSuffix(".md")
            guard isHTML || isMarkdown, let file = theme.files[path] else { continue }
            // Mustache names cannot hold '/': layouts/base.html is `layouts.base`.
            let name = Self.libraryName(String(path.dropLast(isHTML ? 5 : 3)))
            guard var text = String(data: file.data, encoding: .utf8) else {
                bag.append(file.encodingProblem ?? .error("file is not valid UTF-8; save it as UTF-8", at: SourceLocation(path: file.origin), stage: "render"))
                // There, though unreadable: the templates naming it are not told it is unknown.
                unreadable.insert(name)
                continue
            }
            // On the first line, so line numbers stay those of the file (columns on it are shifted back).
            let pragma = isMarkdown && !text.hasPrefix("{{% CONTENT_TYPE") ? "{{% CONTENT_TYPE: MARKDOWN }}" : ""
            text = pragma + text
            sources[name] = (text, file.origin, pragma.count)
        }
        let names = Set(sources.keys).union(unreadable)
        var library: TemplateLibrary?
        var references: [String: [TemplateReference]] = [:]
        do {
            library = try TemplateLibrary(sources.mapValues(\.text), contentTypes: [markdown])
            references = library!.references
        } catch {
            references = error.references
            for (name, e) in error.failures {
                let go = Self.goTemplateTag(in: sources[name]?.text ?? "", line: e.line, column: e.column)
                var explained = Self.explain(e.kind)
                if case .unfinishedTag = e.kind, go == nil, let why = Self.unfinishedTag(in: sources[name]?.text ?? "", line: e.line, column: e.column) {
                    explained = why
                }
                bag.error(
                    "template error: \(explained)\(go.map { "; '\($0)' is a Go template tag, as Hugo writes them: Bestiary's templates are Mustache ({{title}}, {{#animals}}…{{/animals}}, {{^list}}…{{/list}} when empty, {{>partials.card}}; docs/theming.md)" } ?? "")",
                    at: location(name, line: e.line, column: e.column), stage: "render")
            }
        }
        // An unknown partial would render as nothing; refuse it instead.
        for (name, tags) in references.sorted(by: { $0.key < $1.key }) {
            for tag in tags where !names.contains(tag.name) {
                let hint = Suggestion.closest(to: tag.name, among: names.sorted()).map { "did you mean '\($0)'? " } ?? ""
                bag.error(
                    "unknown partial '\(tag.name)' (\(hint)theme templates: \(names.sorted().joined(separator: ", ")))",
                    at: location(name, line: tag.line, column: tag.column), stage: "render")
            }
        }
        // A template that includes itself, directly or through others, would never finish a page.
        for cycle in inclusionCycles(references) {
            let tag = cycle.tag
            bag.error(
                "template '\(cycle.names[0])' includes itself (\(cycle.names.joined(separator: " → "))), so a page would never finish; remove one of these {{>…}} or {{<…}} tags",
                at: location(cycle.names[cycle.names.count - 2], line: tag.line, column: tag.column), stage: "render")
        }
        for required in ["layouts/home", "layouts/animal", "layouts/collection", "layouts/quiz", "layouts/page", "layouts/credits", "layouts/404",
            "layouts/sightings", "layouts/settings", "layouts/offline"]
        where theme.files[required + ".html"] == nil {
            bag.error("the theme has no \(required).html", at: SourceLocation(path: "templates/\(required).html"), stage: "render")
        }
        try bag.throwIfErrors()
        // No errors, so the library compiled.
        let compiled = library!
        let texts = sources.mapValues(\.text)
        let lookups = compiled.lookups.sorted { $0.key < $1.key }.flatMap { name, tags in
            tags.map { Lookup(name: $0.name, location: location(name, line: $0.line, column: $0.column), sections: $0.sections) }
        }
        // `{{<layouts.base}}{{$mian}}…`: a block the parent (with what it includes) never shows.
        var unknownBlocks: [Diagnostic] = []
        for (name, tags) in compiled.overrides.sorted(by: { $0.key < $1.key }) {
            var saidNoBlocks = Set<String>()
            for tag in tags {
                guard let parent = tag.sections.first else { continue }
                var reached: Set<String> = [parent], pending = [parent], defined = Set<String>()
                while let next = pending.popLast() {
                    defined.formUnion(compiled.blocks[next] ?? [])
                    for r in references[next] ?? [] where reached.insert(r.name).inserted { pending.append(r.name) }
                }
                guard !defined.contains(tag.name), names.contains(parent) else { continue }
                // A parent without any block (an emptied base.html): said once per file, not as a
                // list of none with every block's name.
                if defined.isEmpty {
                    if saidNoBlocks.insert(parent).inserted {
                        unknownBlocks.append(.warning(
                            "\(parent) has no blocks ({{$main}}…{{/main}}), so what this file fills in it ('{{$\(tag.name)}}' and the others) is never shown",
                            at: location(name, line: tag.line, column: tag.column), stage: "render"))
                    }
                    continue
                }
                let hint = Suggestion.closest(to: tag.name, among: defined.sorted()).map { "; did you mean '\($0)'?" } ?? ""
                unknownBlocks.append(.warning(
                    "'{{$\(tag.name)}}' fills no block of \(parent) (its blocks: \(defined.sorted().joined(separator: ", "))), so what it holds is never shown\(hint)",
                    at: location(name, line: tag.line, column: tag.column), stage: "render"))
            }
        }
        // A comment that holds `{{`: most likely its `}}` was left out, and it hides the markup up
        // to the next tag's end (the build said nothing, and every page lost that markup).
        for (name, comments) in compiled.openComments.sorted(by: { $0.key < $1.key }) {
            for comment in comments {
                unknownBlocks.append(.warning(
                    "this comment ('{{!') holds a '{{' before its '}}', so it hides everything up to the first '}}' after it, tags and markup too; if it was meant to end earlier, close it there with '}}'",
                    at: location(name, line: comment.line, column: comment.column), stage: "render"))
            }
        }
        return Templates(
            library: compiled, names: names,
            digests: closureDigests(texts, references: references.mapValues { Set($0.map(\.name)) }),
            libraryDigest: StableDigest.combine(texts.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }),
            lookups: lookups, unknownBlocks: unknownBlocks)
    }

    /// The ids the default theme's layouts and partials write as they are (`id="main"`): a
    /// heading of a text is never given one of them (``Markdown/Headings``). The default
    /// theme's, not the site's own: what a page is made from then stays in its digest (a site's
    /// layout adding an id would otherwise change the headings of pages whose digests do not
    /// name that layout), and `check` gives every heading the id its page gives.
    public static let builtInLayoutIDs: Set<String> = {
        var ids = Set<String>()
        for (path, file) in Theme.builtIn.files where path.hasPrefix("layouts/") || path.hasPrefix("partials/") {
            ids.formUnion(literalIDs(in: String(decoding: file.data, as: UTF8.self)))
        }
        return ids
    }()

    /// The values of `id="…"` attributes written without a tag inside.
    static func literalIDs(in text: String) -> Set<String> {
        var ids = Set<String>()
        var rest = text[...]
        while let start = rest.range(of: " id=\"") {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { break }
            let value = rest[..<end]
            if !value.contains("{") { ids.insert(String(value)) }
        }
        return ids
    }

    /// Each cycle of `{{>partial}}` and `{{<parent}}` tags once (named from its first template in
    /// name order, and ending with it again), with the tag that closes it.
    static func inclusionCycles(_ references: [String: [TemplateReference]]) -> [(names: [String], tag: TemplateReference)] {
        var cycles: [(names: [String], tag: TemplateReference)] = []
        var reported = Set<String>()
        for start in references.keys.sorted() {
            // Depth first from `start`, over templates not yet part of a reported cycle.
            var path = [start]
            var seen: Set<String> = [start]
            func visit(_ name: String) -> Bool {
                for tag in references[name] ?? [] where !reported.contains(tag.name) {
                    if tag.name == start {
                        cycles.append((path + [start], tag))
                        reported.formUnion(path)
                        return true
                    }
                    guard tag.name > start, seen.insert(tag.name).inserted else { continue }
                    path.append(tag.name)
                    if visit(tag.name) { return true }
                    path.removeLast()
                }
                return false
            }
            if !reported.contains(start) { _ = visit(start) }
        }
        return cycles
    }

    /// For each template, the digest of its own text and the texts of the partials it reaches
    /// (`references`: the partials and parents each template names).
    static func closureDigests(_ texts: [String: String], references: [String: Set<String>]) -> [String: String] {
        var result: [String: String] = [:]
        for name in texts.keys {
            var reached: Set<String> = [name]
            var pending = [name]
            while let next = pending.popLast() {
                for r in references[next] ?? [] where reached.insert(r).inserted { pending.append(r) }
            }
            var data = Data()
            for r in reached.sorted() {
                data.append(contentsOf: Array("\(r)\n\(texts[r]?.utf8.count ?? 0)\n".utf8))
                data.append(contentsOf: Array((texts[r] ?? "").utf8))
            }
            result[name] = Hashing.sha256Hex(data)
        }
        return result
    }

    /// The digest of what `names` render with (see ``digests``).
    func digest(_ names: String...) -> String {
        names.map { digests[Self.libraryName($0)] ?? "" }.joined(separator: "+")
    }

    /// What is wrong with the tag that starts at or before `column` on `line`, which the parser
    /// found unfinished, when its text shows it: a `{{{` closed with two braces (the hint about
    /// dots in names was all it said), a name with a slash, a tag never closed on its line.
    static func unfinishedTag(in text: String, line: Int, column: Int) -> String? {
        let lines = SourceLocation.lines(of: text)
        guard line >= 1, line <= lines.count else { return nil }
        let row = Array(lines[line - 1])
        // The last tag opening at or before the column.
        var start: Int?
        var k = 0
        while k + 1 < row.count, k < column {
            if row[k] == "{", row[k + 1] == "{" {
                start = k
                k += 2
                while k < row.count, row[k] == "{" { k += 1 }
            } else {
                k += 1
            }
        }
        guard let start else { return nil }
        let rest = String(row[start...])
        let next = rest.dropFirst(2).range(of: "{{").map { rest[..<$0.lowerBound] } ?? rest[...]
        if rest.hasPrefix("{{{") {
            if !next.contains("}}}") {
                return "a tag opened with three braces ('{{{', which leaves HTML as it is) must close with three ('}}}'); this one \(next.contains("}}") ? "closes with two" : "is not closed on its line")"
            }
            return nil
        }
        guard let close = next.range(of: "}}") else {
            return "a tag is not closed with '}}' on its line"
        }
        let inner = next[next.index(next.startIndex, offsetBy: 2)..<close.lowerBound]
        if inner.dropFirst().contains("/") {
            return "a tag's name cannot hold '/': template names use dots ({{> partials.header}} for partials/header.html)"
        }
        return nil
    }

    /// The tag at `line`:`column` of `text` (the one the column falls in, else the next on that
    /// line) when only Go's template language writes it so (`{{ .Title }}`, `{{- … -}}`,
    /// `{{ range … }}`, `{{ partial "x" . }}`, `:=`): never a Mustache form (`{{$main}}`, `{{.}}`).
    static func goTemplateTag(in text: String, line: Int, column: Int) -> String? {
        let lines = SourceLocation.lines(of: text)
        guard line >= 1, line <= lines.count else { return nil }
        let row = Array(lines[line - 1])
        var tag: [Character]?
        var k = 0
        while k + 1 < row.count {
            if row[k] == "{", row[k + 1] == "{" {
                var end = k + 2
                while end + 1 < row.count, !(row[end] == "}" && row[end + 1] == "}") { end += 1 }
                let stop = min(end + 2, row.count)
                if stop >= column {
                    tag = Array(row[k..<stop])
                    break
                }
                k = stop
            } else {
                k += 1
            }
        }
        guard let tag else { return nil }
        let inner = String(tag.dropFirst(2))
        let trimmed = inner.drop { $0 == " " }
        let word = trimmed.prefix { $0.isLetter }
        let keywords: Set<Substring> = ["range", "if", "else", "end", "with", "partial", "define", "block", "template", "printf", "len", "index"]
        let go = inner.hasPrefix("-") || inner.contains(":=")
            || (trimmed.hasPrefix(".") && trimmed.dropFirst().first?.isLetter == true)
            || (keywords.contains(word) && (trimmed.dropFirst(word.count).first == " " || trimmed.dropFirst(word.count).hasPrefix("}}")))
        guard go else { return nil }
        let shown = String(tag)
        return shown.count > 40 ? String(shown.prefix(39)) + "…" : shown
    }

    /// A sentence for each kind of template error, in Bestiary's terms.
    static func explain(_ error: TemplateSyntaxError.Kind) -> String {
        switch error {
        case .closingTagMismatch(let open?, let found, let line):
            return "a closing tag {{/\(found)}} does not match the section it should close, '\(open)'" + (line.map { " (opened on line \($0))" } ?? "")
        case .closingTagMismatch(nil, let found, _):
            return "a closing tag {{/\(found)}} closes no section"
        case .unfinishedTag: return "a tag is not finished or its name is not allowed (template names use dots: {{> partials.header}})"
        case .unclosedSection(let tag): return "a section {{\(tag)}} is never closed with {{/\(tag.dropFirst())}}"
        case .unexpectedEnd: return "the template ends inside a tag or a comment"
        case .invalidSetDelimiter: return "a set-delimiter tag {{=<% %>=}} is malformed"
        case .illegalInsideParent: return "only {{$block}} sections may appear inside {{<parent}}…{{/parent}}"
        case .invalidPragma: return "a {{% … }} pragma is malformed (the only one is {{% CONTENT_TYPE: NAME }})"
        case .unknownContentType(let name): return "unknown content type '\(name)' (HTML, TEXT or MARKDOWN)"
        case .transform(let name):
            return "'\(name)': transforms such as {{uppercased(name)}} are not supported (docs/theming.md)"
        }
    }

    /// Renders template `name` (`layouts/animal` or `layouts.animal`) with `context`.
    public func render(_ name: String, _ context: [String: TemplateValue]) -> String {
        Self.observation(self, name, context)
        return library.render(Self.libraryName(name), .object(context)) ?? ""
    }

    /// `partials/card` is `partials.card` in the library: each `/` byte becomes a `.` (a `/` is
    /// never part of another character's UTF-8). Called for every page and every Markdown part of
    /// one: Foundation's `replacingOccurrences` took 0.2 of a full build's CPU-seconds here.
    static func libraryName(_ name: String) -> String {
        let slash = UInt8(ascii: "/")
        guard name.utf8.contains(slash) else { return name }
        return String(decoding: name.utf8.map { $0 == slash ? UInt8(ascii: ".") : $0 }, as: UTF8.self)
    }

    /// Renders template `name` like ``render(_:_:)``, taking the items of its keyed lists that
    /// `kept` knows from there, and says where each keyed item went.
    func render(_ name: String, _ context: [String: TemplateValue], keeping kept: (any KeptFragments)?) -> RenderedPage {
        Self.observation(self, name, context)
        return library.render(Self.libraryName(name), .object(context), keeping: kept)
            ?? RenderedPage(text: "", fragments: [], reused: 0)
    }

    /// Renders a Markdown template and turns the result into HTML through cmark: its headings
    /// with ids, a level-1 heading but the page's title (`markdown/page`'s first) made level 2
    /// (``Markdown/Headings``); smart quotes and dashes only in English (cmark makes English
    /// ones: a German text got “…” for „…“, and `--force` became an en dash).
    public func renderMarkdown(_ name: String, _ context: [String: TemplateValue], language: String) -> String {
        let english = language == "en" || language.hasPrefix("en-")
        return Markdown.html(
            render(name, context), smartPunctuation: english,
            headings: Markdown.Headings(keepsFirstTitle: name == "markdown/page", reserved: Self.builtInLayoutIDs))
    }
}
