import BestiaryDiagnostics
import Yams

/// Parses one YAML document safely and reads typed values out of it, collecting every problem
/// with the file's own `line:col` instead of stopping at the first.
///
/// Scalars are read as the text the author wrote, never through YAML 1.1's implicit typing, so
/// `name: {en: No}` is the word "No" and `id: 0123` keeps its leading zero.
final class YAMLReader {
    let path: String
    /// File line of the YAML's first line.
    let firstLine: Int
    private(set) var diagnostics: [Diagnostic] = []
    let stage: String

    init(path: String, firstLine: Int, stage: String = "load") {
        self.path = path
        self.firstLine = firstLine
        self.stage = stage
    }

    // MARK: Parsing

    static let maxNodes = 10_000

    /// The document's root node, or nil after reporting why there is none.
    func parse(_ yaml: String) -> Node? {
        if let problem = YAMLGuard.check(yaml) {
            report(problem.message, line: problem.line, column: problem.column)
            return nil
        }
        let root: Node?
        do {
            // The basic resolver: scalars are read as written (above), so the default one's regular
            // expressions would only slow down Yams' duplicate-key check, which hashes every key
            // with its resolved tag. The encoding given, or Yams reads the environment per parse.
            root = try Yams.compose(yaml: yaml, .basic, .default, .utf8)
        } catch let error as YamlError {
            reportYams(error, in: yaml)
            return nil
        } catch {
            report("cannot parse YAML: \(error)", line: 1, column: 1)
            return nil
        }
        guard let root else { return nil }
        // Raw direction controls are reported with the file's position when it is decoded; those
        // the values hold otherwise come from escapes ("\u202E").
        let rawControls = DirectionControl.first(in: yaml) != nil
        // A tag (`!Bang`) needs a `!` in the text: most front matter has none.
        let mayHoldTags = yaml.utf8.contains(UInt8(ascii: "!"))
        // Bounded walk: refuse anchors (aliases share them) before anything else walks the tree.
        var budget = Self.maxNodes
        var stack: [Node] = [root]
        while let node = stack.popLast() {
            budget -= 1
            if budget < 0 {
                error("front matter has more than \(Self.maxNodes) values", at: root)
                return nil
            }
            if node.anchor != nil {
                error("anchors and aliases ('&name', '*name') are not supported in front matter", at: node)
                return nil
            }
            // `hint: !Bang` is the tag `!Bang` and an empty value: the text was lost without a word.
            if mayHoldTags, case let tag = node.tag.description, tag.hasPrefix("!") {
                error("'\(tag)' is read as a YAML tag, not as text (a value that starts with '!'); put the whole value in quotes", at: node)
                return nil  // its value is empty: what reads it would only say so again
            }
            switch node {
            case .mapping(let m):
                for (k, v) in m { stack.append(k); stack.append(v) }
            case .sequence(let s):
                stack.append(contentsOf: s)
            case .alias:
                error("aliases ('*name') are not supported in front matter", at: node)
                return nil
            case .scalar(let scalar):
                if !rawControls, let control = DirectionControl.first(in: scalar.string) {
                    error("a value written with an escape holds \(DirectionControl.describe(control)), \(DirectionControl.why)", at: node)
                } else if let control = ControlCharacter.first(in: scalar.string) {
                    // Raw ones stop the file's decoding; these come from escapes ("\a", "\x07").
                    error("a value written with an escape holds \(ControlCharacter.describe(control)), \(ControlCharacter.why)", at: node)
                }
            }
        }
        return root
    }

    /// The first line above `line` (or it) whose value opens a quote left open on that line, when
    /// the quoted text then ends on `line`, where libyaml failed, and swallowed a line that reads
    /// as a key; nil otherwise (a text in quotes over several lines, and another mistake).
    static func unclosedQuote(_ lines: [Substring], before line: Int) -> (line: Int, column: Int, mark: Character, closedAt: Int)? {
        guard line >= 1, line <= lines.count else { return nil }
        // The lines of a `|` or `>` block are text, quotes and all (RecordWriter writes long texts so).
        var block: Int?
        for (i, text) in lines.prefix(line).enumerated() {
            let indent = text.prefix { $0 == " " }.count
            if let b = block, text.trimmingCharacters(in: .whitespaces).isEmpty || indent > b { continue }
            block = text.firstMatch(of: /:\s*[|>][-+0-9]*\s*(#.*)?$/) != nil ? indent : nil
            let chars = Array(text)
            // `key: "…`, `- "…`, `key: {de: "…`: a quote right after `: `, `- `, `{` or `, `.
            var j = 0
            while j < chars.count {
                let c = chars[j]
                if c == "#", j == 0 || chars[j - 1] == " " { break }
                if c == "\"" || c == "'", j > 0, chars[j - 1] == " " || chars[j - 1] == "{" || chars[j - 1] == "[",
                    j < 2 || chars[j - 2] == ":" || chars[j - 2] == "-" || chars[j - 2] == "," || chars[j - 1] == "{" || chars[j - 1] == "["
                {
                    // Its close on this line: `"` not after a backslash, `'` not doubled.
                    var k = j + 1
                    var closed = false
                    while k < chars.count {
                        if c == "\"", chars[k] == "\\" { k += 2; continue }
                        if chars[k] == c {
                            if c == "'", k + 1 < chars.count, chars[k + 1] == "'" { k += 2; continue }
                            closed = true
                            break
                        }
                        k += 1
                    }
                    if closed { j = k + 1; continue }
                    // Open: where the next such quote is, lines below; taken for a forgotten close
                    // when the text would swallow a line that reads as a key (`name: …`), not a
                    // text in quotes over several lines.
                    for (n, below) in lines.enumerated().dropFirst(i + 1) where below.contains(c) {
                        let swallowed = lines[(i + 1)..<n].contains { $0.firstMatch(of: /^\s*(- )?[A-Za-z_][A-Za-z0-9_.-]*:(\s|$)/) != nil }
                            || below.prefix(while: { $0 != c }).firstMatch(of: /^\s*(- )?[A-Za-z_][A-Za-z0-9_.-]*:(\s|$)/) != nil
                        // Where libyaml then fails: at the quote that closed it, or nowhere near.
                        return n + 1 == line && swallowed ? (i + 1, j + 1, c, n + 1) : nil
                    }
                    return nil
                }
                j += 1
            }
        }
        return nil
    }

    private func reportYams(_ error: YamlError, in yaml: String) {
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _),
            let .composer(context, problem, mark, _):
            // A key without its colon (`group mammal`): libyaml notices only on the next line; the
            // line it began the key on is the author's (found by a new user).
            if problem == "could not find expected ':'", let context, context.text == "while scanning a simple key",
                context.mark.line >= 1, context.mark.line <= lines.count
            {
                let text = lines[context.mark.line - 1].trimmingCharacters(in: .whitespaces)
                let hint = text.firstIndex(of: " ").map { "; write '\(text[..<$0]):\(text[$0...])'" } ?? ""
                report("'\(text)' has no ':' after its key\(hint)", line: context.mark.line, column: context.mark.column)
                return
            }
            // `tags: [forest, europe` without its `]`: libyaml notices on the next line, whose key
            // it reads as part of the list; the bracket left open is the author's mistake.
            if let context, context.text.hasPrefix("while parsing a flow"), context.mark.line < mark.line,
                let close = problem == "did not find expected ',' or ']'" ? "]" : problem == "did not find expected ',' or '}'" ? "}" : nil,
                mark.line <= lines.count,
                // Closed further on (`{de: Fuchs,` then `en: Note: it bites}`): the problem is another.
                // Counted, not looked for: a later line's own `{id: x}` closes that one, not this
                // (site.yml's `quiz: {questions: 10` above `packs: {id: x}` was told to quote a text).
                case let span = lines[(context.mark.line - 1)..<mark.line].joined(separator: "\n").dropFirst(context.mark.column - 1),
                span.filter({ $0 == Character(close) }).count < span.filter({ $0 == (close == "]" ? "[" : "{") }).count
            {
                let open = close == "]" ? "[" : "{"
                report(
                    "invalid YAML: the '\(open)' here is never closed with '\(close)' (what follows it was read as part of it); close it, or put the whole text in quotes",
                    line: context.mark.line, column: context.mark.column)
                return
            }
            // `scientific: "Canis familiaris` without its closing quote: libyaml reads on to the
            // next quote, lines below, and fails there (`9:8: did not find expected key`, found by
            // an editor). The first value above the error that opens a quote and does not close it
            // on its line, whose text then runs to a quote at or above the error, is named.
            if let quote = Self.unclosedQuote(lines, before: mark.line) {
                report(
                    "invalid YAML: the \(quote.mark == "\"" ? "double" : "single") quote opened here is not closed on its line, so what follows, up to the next \(quote.mark) (line \(quote.closedAt + firstLine - 1)), was read as its text; close it on this line",
                    line: quote.line, column: quote.column)
                return
            }
            // The line above that holds YAML (not blank, not a comment).
            func lineAbove(_ line: Int) -> Substring? {
                guard line >= 2, line <= lines.count else { return nil }
                return lines[..<(line - 1)].last {
                    let text = $0.trimmingCharacters(in: .whitespaces)
                    return !text.isEmpty && !text.hasPrefix("#")
                }
            }
            // A key indented more than the line above, whose value was given: libyaml's words
            // ("mapping values are not allowed in this context", at the colon) say nothing of it.
            // Only for the line's first ": " (a second is a colon in a text, said below), under a
            // line with a value after its own.
            if problem == "mapping values are not allowed in this context", let above = lineAbove(mark.line),
                !String(Array(lines[mark.line - 1]).prefix(max(0, mark.column - 1))).contains(": "),
                let colon = above.range(of: ": "),
                !above[colon.upperBound...].trimmingCharacters(in: .whitespaces).isEmpty,
                !above[colon.upperBound...].trimmingCharacters(in: .whitespaces).hasPrefix("#")
            {
                let indent = lines[mark.line - 1].prefix { $0 == " " }.count
                let aboveIndent = above.prefix { $0 == " " }.count
                if indent > aboveIndent {
                    report(
                        "invalid YAML: this key is indented more than the line above it (\(indent) spaces against \(aboveIndent)), which has its value already; the keys of one mapping start in the same column (or, if this line goes on with the text above, put that text in quotes)",
                        line: mark.line, column: indent + 1)
                    return
                }
            }
            // A key indented less than the keys of its mapping, but more than the key it is under.
            if problem == "did not find expected key", let context, context.text == "while parsing a block mapping",
                mark.line >= 1, mark.line <= lines.count, context.mark.line < mark.line
            {
                let indent = lines[mark.line - 1].prefix { $0 == " " }.count
                let expected = context.mark.column - 1
                let above = lineAbove(mark.line)?.prefix { $0 == " " }.count
                if let above, min(expected, above) < indent, indent < max(expected, above) {
                    report(
                        "invalid YAML: this line is indented \(indent) space\(indent == 1 ? "" : "s"), the line above it \(above) and the keys that hold them \(expected); the keys of one mapping start in the same column",
                        line: mark.line, column: indent + 1)
                    return
                }
            }
            var extra = context.map { " \($0.text)" } ?? ""
            // The scanner's words for a tab ("found character that cannot start any token").
            if mark.line >= 1, mark.line <= lines.count, lines[mark.line - 1].prefix(mark.column).contains("\t") {
                extra += "; a tab cannot indent YAML: use spaces"
            }
            // `en: Note: it bites` on a line of its own: the second colon ends the key's text.
            if problem == "mapping values are not allowed in this context", mark.line >= 1, mark.line <= lines.count {
                let line = lines[mark.line - 1].trimmingCharacters(in: .whitespaces)
                if let colon = line.range(of: ": "), line[colon.upperBound...].contains(": "), !line.contains("\"") {
                    // In a word processor's quotes already: those become straight ones, not part of the text.
                    extra += "; a text with ': ' inside needs quotes: \(line[..<colon.lowerBound]): \"\(Self.withoutTypographicQuotes(String(line[colon.upperBound...])))\""
                }
            }
            // `{fr: Il aboie #souvent}`: ` #` starts a comment, which takes the closing brace with
            // the rest of the line; the parser stops at the next line (a translator's).
            if problem == "did not find expected ',' or '}'", let comment = Self.commentInBraces(lines, near: mark.line) {
                report(
                    "invalid YAML: ' #' starts a comment, which took the rest of this line, its '}' too; a text with ' #' needs quotes: \(comment.example)",
                    line: comment.line, column: comment.column)
                return
            }
            // `{en: Note: it bites}`: a colon or comma inside a value of braces ends it.
            if ["did not find expected ',' or '}'", "did not find expected key"].contains(problem), mark.line >= 1, mark.line <= lines.count,
                let quoted = Self.apostropheInSingleQuotes(lines[mark.line - 1])
            {
                extra += quoted
            } else if problem == "did not find expected ',' or '}'", let fixed = Self.missingComma(in: lines, line: mark.line, column: mark.column) {
                if let foreign = fixed.foreign {
                    extra += "; '\(foreign.comma)' before '\(fixed.key):' is \(foreign.called), which YAML reads as part of the text: the languages in { } are separated by ',' (\(fixed.example))"
                } else {
                    extra += "; a comma is missing before '\(fixed.key):' (the languages in { } are separated by commas: \(fixed.example))"
                }
                // `{en: The fox is: red}`: `is` may start a language (Icelandic) or be the text's.
                if let quoted = fixed.quoted { extra += ", or, if the ': ' is the text's, it needs quotes: \(quoted)" }
            } else if problem == "did not find expected ',' or '}'" {
                // Shown with the author's own text when the braces hold one `key: text` on this line.
                var example = "{en: \"Note: it bites\"}"
                if mark.line >= 1, mark.line <= lines.count, let one = Self.oneTextInBraces(lines[mark.line - 1]) {
                    // Not when the text may go on with another language (`{en: Fox de: Fuchs}`, a
                    // comma left out: the quotes would make the German name part of the English one).
                    let anotherLanguage = one.text.split(separator: " ").dropFirst().contains { word in
                        word.hasSuffix(":") && (3...4).contains(word.count) && word.dropLast().allSatisfy { $0.isLowercase && $0.isLetter }
                    }
                    if !anotherLanguage { example = "{\(one.key): \"\(one.text)\"}" }
                }
                extra += "; a text with ': ' or ',' inside { } needs quotes: \(example)"
            }
            report("invalid YAML: \(problem)\(extra)", line: mark.line, column: mark.column)
        case let .duplicatedKeysInMapping(duplicates, context):
            // Yams points at the key's first line; the author wants the second. In a block mapping
            // (the key starts its line) that is the next line of the same indentation naming it,
            // before the mapping ends; in a flow mapping (`{de: A, de: B}`) Yams' mark stays.
            var line = context.mark.line, column = context.mark.column
            if let key = duplicates.first, line >= 1, line <= lines.count {
                let indent = lines[line - 1].prefix { $0 == " " }.count
                if column == indent + 1 {
                    for i in line..<lines.count {
                        let spaces = lines[i].prefix { $0 == " " }.count
                        let rest = lines[i].dropFirst(spaces)
                        if rest.isEmpty || rest.hasPrefix("#") { continue }
                        if spaces < indent { break }
                        guard spaces == indent else { continue }
                        if [key + ":", key + " :", "\"\(key)\":", "'\(key)':"].contains(where: { rest.hasPrefix($0) }) {
                            line = i + 1
                            column = spaces + 1
                            break
                        }
                    }
                }
            }
            // Where the first is, when the second was found: which of the two to keep is the author's.
            let first = line != context.mark.line ? " (also at line \(context.mark.line + firstLine - 1): keep one)" : ""
            report("duplicate key '\(duplicates.joined(separator: "', '"))'\(first)", line: line, column: column)
        case let .reader(problem, offset, _, yaml):
            var line = 1, column = 1
            if let offset {
                let prefix = yaml.utf8.prefix(offset)
                line = prefix.count { $0 == 10 } + 1
                column = (String(decoding: prefix, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).last?
                    .unicodeScalars.count ?? 0) + 1
            }
            report("invalid YAML: \(problem)", line: line, column: column)
        default:
            report("invalid YAML: \(error)", line: 1, column: 1)
        }
    }

    /// `name: 'Farmer's sheep'` or `{en: 'Farmer's sheep'}`: a text in single quotes ends at its
    /// next `'`, the apostrophe. The hint, with the line written in double quotes; nil when the
    /// line has no such text (or one with `"` or a doubled `''` in it).
    /// The ` #` on line `line` or the one above that starts a comment inside `{ }` (outside
    /// quoted texts), with the `key: text` it cut, quoted. A quote opens a text only where one
    /// starts (`{fr: 'x'}`), not inside one (`L'ours`); the text ends at the next `,` or `}`.
    static func commentInBraces(_ lines: [Substring], near line: Int) -> (line: Int, column: Int, example: String)? {
        for n in [line - 1, line] where n >= 1 && n <= lines.count {
            let chars = Array(lines[n - 1])
            var depth = 0, quote: Character? = nil, start = 0, valueStarts = false
            for (i, c) in chars.enumerated() {
                if let q = quote { if c == q { quote = nil }; continue }
                if c == " " { continue }
                defer { valueStarts = c == "{" || c == "," || c == ":" }
                switch c {
                case "\"" where valueStarts: quote = c
                case "'" where valueStarts: quote = c
                case "{": depth += 1; start = i + 1
                case "}": depth = max(depth - 1, 0)
                case "," where depth > 0: start = i + 1
                case "#" where depth > 0 && i > 0 && chars[i - 1] == " ":
                    let rest = chars[start...].prefix { $0 != "," && $0 != "}" }
                    let text = String(rest).trimmingCharacters(in: .whitespaces)
                    guard let colon = text.range(of: ": ") else { break }
                    return (n, i + 1, "\(text[..<colon.lowerBound]): \"\(text[colon.upperBound...])\"")
                default: break
                }
            }
        }
        return nil
    }

    static func apostropheInSingleQuotes<Line: StringProtocol>(_ line: Line) -> String? {
        let text = line.trimmingCharacters(in: .whitespaces)
        // Each text that opens with `: '`, to the first `'` after it that ends a value (followed
        // by `,`, `}` or the line's end): the first with a `'` inside (`{en: 'Sheep', de:
        // 'Bauer's Schaf'}` has two texts; the reviewer's).
        var from = text.startIndex
        while let colon = text.range(of: ": '", range: from..<text.endIndex) {
            let open = text.index(before: colon.upperBound)
            var close: String.Index? = nil
            var i = text.index(after: open)
            while i < text.endIndex {
                if text[i] == "'", text[text.index(after: i)...].first(where: { $0 != " " }).map({ ",}".contains($0) }) ?? true {
                    close = i
                    break
                }
                i = text.index(after: i)
            }
            guard let close else { return nil }
            let inner = text[text.index(after: open)..<close]
            if inner.contains("'") {
                guard !inner.contains("''"), !inner.contains("\""), let word = inner.split(separator: " ").first(where: { $0.contains("'") }) else { return nil }
                let fixed = text[..<open] + "\"" + inner + "\"" + text[text.index(after: close)...]
                return "; a text in single quotes ends at its next ' (the one in \(word)): put it in double quotes: \(fixed)"
            }
            from = text.index(after: close)
        }
        return nil
    }

    /// `{en: Red fox de: Rotfuchs}`: libyaml stops at the colon of a language's key that follows
    /// a text with no comma between them. The key (`de`, `pt-BR`) and the braces with the comma put
    /// in; nil when the error is not at such a key.
    /// `quoted`: the braces' one text in quotes instead, when they hold no other comma or brace.
    static func missingComma<Line: StringProtocol>(
        in lines: [Line], line: Int, column: Int
    ) -> (key: String, example: String, quoted: String?, foreign: (comma: Character, called: String)?)? {
        guard line >= 1, line <= lines.count else { return nil }
        let chars = Array(lines[line - 1])
        let colon = column - 1
        guard colon > 0, colon < chars.count, chars[colon] == ":" else { return nil }
        var start = colon
        while start > 0, chars[start - 1].isLetter || chars[start - 1] == "-" { start -= 1 }
        let key = String(chars[start..<colon])
        guard key.wholeMatch(of: /[a-z]{2,3}(-[A-Za-z0-9]{2,8})?/) != nil, start > 0, chars[start - 1] == " " else { return nil }
        var end = start
        while end > 0, chars[end - 1] == " " { end -= 1 }
        guard end > 0, !",{".contains(chars[end - 1]) else { return nil }
        // Another script's comma (`{ar: ماعز، en: Goat}`, as an Arabic keyboard types it) is the
        // text's last letter to YAML: the fix replaces it, or the name keeps it.
        let foreign = PastedText.otherCommas[chars[end - 1]]
        if foreign != nil { end -= 1 }
        let fixed = String(chars[..<end]) + ", " + String(chars[start...])
        guard let open = fixed.firstIndex(of: "{"), let close = fixed.lastIndex(of: "}"), open < close else { return nil }
        // Offered only when what follows the key starts in lower case (`is: red`): a language's
        // text mostly starts with a capital (`de: Rotfuchs`), and quotes would join the two.
        var quoted: String? = nil
        if chars.dropFirst(colon + 1).first(where: { $0 != " " })?.isLowercase == true, let one = oneTextInBraces(String(chars)) {
            quoted = "{\(one.key): \"\(one.text)\"}"
        }
        return (key, String(fixed[open...close]), quoted, foreign.map { (chars[end], $0) })
    }


    /// The one `key: text` a line's braces hold (`{en: Note: it bites}`: `en`, `Note: it bites`),
    /// for a hint that writes the text in quotes; nil when the braces may hold more (a comma, a
    /// brace or a bracket inside) or the text has a `"` or `\` that the quotes would need escaped.
    static func oneTextInBraces<Line: StringProtocol>(_ line: Line) -> (key: String, text: String)? {
        let line = String(line)
        guard let open = line.firstIndex(of: "{"), let close = line.lastIndex(of: "}"), open < close else { return nil }
        let inside = line[line.index(after: open)..<close]
        guard let colon = inside.range(of: ": "), !inside.contains(where: { ",{[".contains($0) }) else { return nil }
        let key = inside[..<colon.lowerBound].trimmingCharacters(in: .whitespaces)
        let text = inside[colon.upperBound...].trimmingCharacters(in: .whitespaces)
        guard !key.isEmpty, !key.contains(" "), !text.contains("\""), !text.contains("\\") else { return nil }
        return (key, text)
    }

    // MARK: Locations and reporting

    func location(_ node: Node?) -> SourceLocation {
        guard let mark = node?.mark else { return SourceLocation(path: path, line: firstLine, column: 1) }
        return SourceLocation(path: path, line: mark.line + firstLine - 1, column: mark.column)
    }

    func report(_ message: String, line: Int, column: Int, severity: Severity = .error) {
        diagnostics.append(Diagnostic(
            severity, message, at: SourceLocation(path: path, line: line + firstLine - 1, column: column), stage: stage))
    }

    func error(_ message: String, at node: Node?) {
        diagnostics.append(.error(message, at: location(node), stage: stage))
    }

    func warning(_ message: String, at node: Node?) {
        diagnostics.append(.warning(message, at: location(node), stage: stage))
    }

    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    // MARK: Typed readers

    /// The keys of a mapping with their values; unknown keys are errors (with a suggestion).
    /// Returns nil, after reporting, when `node` is not a mapping.
    /// `nested`: keys that belong to a mapping under this one (`credit` → `sound or image`),
    /// which a line indented too little makes this one's.
    func fields(_ node: Node, allowed: [String], what: String, nested: [String: String] = [:]) -> [String: (key: Node, value: Node)]? {
        guard case .mapping(let mapping) = node else {
            error("\(what) must be a mapping of keys to values", at: node)
            return nil
        }
        var result: [String: (key: Node, value: Node)] = [:]
        for (key, value) in mapping {
            guard case .scalar(let k) = key else {
                error("keys must be plain words", at: key)
                continue
            }
            if !allowed.contains(k.string) {
                let hint = nested[k.string].map { " (a key of \($0): indent it like the keys under it)" }
                    ?? Suggestion.closest(to: k.string, among: allowed).map { " (did you mean '\($0)'?)" } ?? ""
                error("unknown key '\(k.string)' in \(what)\(hint); allowed: \(allowed.joined(separator: ", "))", at: key)
                continue
            }
            result[k.string] = (key, value)
        }
        return result
    }

    static func isNull(_ node: Node) -> Bool {
        guard case .scalar(let s) = node, s.style == .plain else { return false }
        return s.string.isEmpty || s.string == "~" || s.string == "null" || s.string == "Null" || s.string == "NULL"
    }

    /// A non-empty single-line or multi-line text; nil (after reporting) otherwise.
    func string(_ node: Node, what: String, allowEmpty: Bool = false) -> String? {
        guard case .scalar(let s) = node else {
            error("\(what) must be text, not a \(Self.kind(node))", at: node)
            return nil
        }
        let value = Self.trimmed(s.string)
        if value.isEmpty && !allowEmpty {
            error("\(what) must not be empty", at: node)
            return nil
        }
        // `name: “Horse”` (a word processor's quotes): YAML quotes with straight ones only, so
        // these are part of the text, on every page (a teacher's).
        if s.style == .plain, Self.withoutTypographicQuotes(value) != value {
            let inner = Self.withoutTypographicQuotes(value)
            warning(
                "\(what) '\(value)' keeps its typographic quotes as part of the text: YAML quotes with straight ones (\" or '); write \"\(inner)\", or leave them out",
                at: node)
        }
        if let misread = PastedText.misreadWarning(value, what: what) { warning(misread, at: node) }
        if let unseen = PastedText.unseenWarning(value, what: what) { warning(unseen, at: node) }
        return value
    }

    /// `text` without the typographic quotes it is wrapped in (`“Horse”`, `„Pferd“`, `«cheval»`,
    /// `”Perro”` as some keyboards write both, German `»Pferd«`); unchanged when it is not.
    static func withoutTypographicQuotes(_ text: String) -> String {
        guard text.count >= 2, let first = text.first, let last = text.last,
            "“”„«»‘’‚‹›「".contains(first), "”“»«’‘›‹」".contains(last)
        else { return text }
        return String(text.dropFirst().dropLast())
    }

    /// `text` without leading and trailing white space and line breaks
    /// (`trimmingCharacters(in: .whitespacesAndNewlines)`, which bridges to `NSString`, only when
    /// there is something to trim: most values have none).
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return text }
        let space = CharacterSet.whitespacesAndNewlines
        if !space.contains(first) && !space.contains(last) { return text }
        return text.trimmingCharacters(in: space)
    }

    /// A number written in another script's digits (`٢`, `۳`, `２`) in the digits 0–9; nil when
    /// `text` is not such a number.
    static func otherDigits(_ text: String) -> String? {
        guard !text.isEmpty, text.contains(where: { !$0.isASCII }) else { return nil }
        let digits = text.map { $0.wholeNumberValue }
        guard digits.allSatisfy({ $0.map { (0...9).contains($0) } == true }) else { return nil }
        return digits.map { String($0!) }.joined()
    }

    func int(_ node: Node, what: String, range: ClosedRange<Int>) -> Int? {
        guard case .scalar(let s) = node, s.style == .plain, let value = Int(s.string) else {
            // `difficulty: "2"` is text in YAML: say that the quotes are what is wrong.
            var quoted = if case .scalar(let s) = node, s.style != .plain, Int(s.string) != nil { " (without quotes: \(s.string))" } else { "" }
            // `difficulty: ٢`, as an Arabic keyboard types a 2: the same number in the digits 0–9.
            if case .scalar(let s) = node, let written = Self.otherDigits(s.string) { quoted = " (written with the digits 0–9: \(written))" }
            error("\(what) must be a whole number from \(range.lowerBound) to \(range.upperBound)\(quoted)", at: node)
            return nil
        }
        guard range.contains(value) else {
            error("\(what) must be from \(range.lowerBound) to \(range.upperBound), not \(value)", at: node)
            return nil
        }
        return value
    }

    func bool(_ node: Node, what: String) -> Bool? {
        if case .scalar(let s) = node, s.style == .plain {
            switch s.string {
            case "true", "True", "TRUE": return true
            case "false", "False", "FALSE": return false
            default: break
            }
        }
        error("\(what) must be true or false", at: node)
        return nil
    }

    /// A list of texts; a single text is accepted as a list of one.
    func stringList(_ node: Node, what: String) -> [String]? {
        switch node {
        case .scalar:
            return string(node, what: what).map { [$0] }
        case .sequence(let seq):
            var result: [String] = []
            for item in seq {
                guard let s = string(item, what: "each entry of \(what)") else { return nil }
                result.append(s)
            }
            return result
        default:
            error("\(what) must be a list like [a, b]", at: node)
            return nil
        }
    }

    /// `Text` or `{de: Text, en: Text}`; a plain text belongs to `defaultLanguage`.
    /// Languages must be among `languages` (when given).
    func localized(_ node: Node, what: String, defaultLanguage: String, languages: [String]?) -> LocalizedText? {
        switch node {
        case .scalar:
            guard let text = string(node, what: what) else { return nil }
            // `name:` then `  en Cat` and `  de Katze` on the lines below: one text, "en Cat de
            // Katze", in the default language (found by a new user: the page's title read so).
            let words = text.split(separator: " ")
            if let languages, languages.count > 1, words.count >= 3, languages.contains(String(words[0])),
                words.dropFirst(2).contains(where: { languages.contains(String($0)) })
            {
                warning(
                    "\(what) is read as one text, '\(text)', in '\(defaultLanguage)': if these are languages, write a colon after each (\(words[0]): \(words[1]))",
                    at: node)
            }
            return LocalizedText([defaultLanguage: text])
        case .mapping(let mapping):
            var values: [String: String] = [:]
            var ok = true
            var previous: (key: String, text: String)?
            for (key, value) in mapping {
                defer { if case .scalar(let k) = key, case .scalar(let v) = value, v.style == .plain { previous = (k.string, v.string) } else { previous = nil } }
                guard case .scalar(let k) = key, LanguageCode.isValid(k.string) else {
                    let fixed = key.string.map(LanguageCode.usualCase)
                    let meant = fixed.flatMap { LanguageCode.isValid($0) ? $0 : nil } ?? key.string.flatMap(LanguageCode.meant(byName:))
                    var hint = meant.map { " (did you mean '\($0)'?)" } ?? ""
                    // `{es: Perro, pastor}`: the comma ended the text, and its rest became a key
                    // without a value (a translator's).
                    if meant == nil, Self.isNull(value), let previous, let rest = key.string {
                        hint = "; a text with ',' inside { } needs quotes: {\(previous.key): \"\(previous.text), \(rest)\"}"
                    }
                    error("\(what): '\(key.string ?? "?")' is not a language code like en or de\(hint)", at: key)
                    ok = false
                    continue
                }
                if let languages, !languages.contains(k.string) {
                    let meant = Suggestion.languageCase(k.string, among: languages)
                    error("\(what): language '\(k.string)' is not in site.yml's languages (\(languages.joined(separator: ", ")))\(meant)", at: key)
                    ok = false
                    continue
                }
                guard let text = string(value, what: "\(what).\(k.string)") else { ok = false; continue }
                values[k.string] = text
            }
            return ok ? LocalizedText(values) : nil
        default:
            error("\(what) must be text or a mapping of language to text, like {en: …, de: …}", at: node)
            return nil
        }
    }

    static func kind(_ node: Node) -> String {
        switch node {
        case .scalar: "text"
        case .mapping: "mapping"
        case .sequence: "list"
        case .alias: "alias"
        }
    }
}

/// "Did you mean" for misspelt keys, ids and options: the closest candidate within a small
/// edit distance, where swapping two neighbouring letters (`gruop`) is one edit.
public enum Suggestion {
    /// A hint when `code` is one of `languages` written in another case (`pt-br` for `pt-BR`):
    /// ` (did you mean 'pt-BR'? …)`, the code shown by `written`; "" otherwise.
    public static func languageCase(_ code: String, among languages: [String], written: (String) -> String = { "'\($0)'" }) -> String {
        guard let meant = listedLanguage(meant: code, among: languages) else { return "" }
        return " (did you mean \(written(meant))? codes are written as in site.yml)"
    }

    /// The listed language `code` is a misspelling of: the same in other capitals or with `_`
    /// (`ES`, `pt_BR`), a variant of it (`es-ES` for `es`), or a country's code written for it
    /// (`sp` for `es`, a translator's).
    public static func listedLanguage(meant code: String, among languages: [String]) -> String? {
        let dashed = code.replacingOccurrences(of: "_", with: "-")
        if let same = languages.first(where: { $0.lowercased() == dashed.lowercased() }) { return same }
        if let listed = LanguageCode.listed(dashed, among: languages) { return listed }
        guard let meant = LanguageCode.unknownTwoLetter(dashed), !meant.isEmpty else { return nil }
        return languages.first { $0.lowercased() == meant }
    }

    public static func closest(to word: String, among candidates: [String]) -> String? {
        var best: (String, Int)? = nil
        for c in candidates {
            let d = distance(word.lowercased(), c)
            if d <= max(1, c.count / 3), best == nil || d < best!.1 { best = (c, d) }
        }
        return best?.0
    }

    /// Edits (insert, delete, replace, swap of neighbours) from `a` to `b` (optimal string alignment).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious: [Int] = []
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { current[j] = min(current[j], beforePrevious[j - 2] + 1) }
            }
            beforePrevious = previous
            previous = current
        }
        return previous[b.count]
    }
}

import Foundation
