import BestiaryDiagnostics
import BestiaryStorage
import Foundation

/// Copies the theme's `assets/` into the output with a content hash in every file name, so
/// browsers and CDNs may cache them forever while a change is still seen at once.
///
/// References between assets are rewritten to the hashed names first, so a change to a module
/// changes the names of everything that imports it (as bundlers do):
/// - ES modules: `import … from "./x.js"` / `export … from "./x.js"` / `import "./x.js"`, and
///   `import("./x.js")` in a line of code;
/// - CSS: `url(…)` with a relative path, and `@import "x.css"`.
/// A reference to an asset the theme lacks is an error at its line.
public struct AssetPipeline: Sendable {
    /// Logical path (`css/site.css`) → output path (`assets/css/site.0123456789.css`).
    public private(set) var urls: [String: String] = [:]
    public private(set) var files: [OutputFile] = []
    /// Logical path → size in bytes (for budgets and the service worker).
    public private(set) var sizes: [String: Int] = [:]
    /// What does not stop the build (a stylesheet naming a theme file by its unhashed address).
    public private(set) var warnings: [Diagnostic] = []

    public static func build(_ theme: Theme) throws(DiagnosticError) -> AssetPipeline {
        var pipeline = AssetPipeline()
        var bag = DiagnosticBag()
        let logicalPaths = theme.paths(under: "assets/").map { String($0.dropFirst("assets/".count)) }
        var pending = Set(logicalPaths)
        var visiting = Set<String>()

        /// `from`: the asset that names `logical`, the line, and the reference as written there.
        func process(_ logical: String, from: (file: Theme.File, line: Int, reference: String)?) {
            if pipeline.urls[logical] != nil { return }
            guard let file = theme.files["assets/" + logical] else {
                if let from {
                    // At the reference in its line (it was column 1); a stylesheet's `url()` is
                    // no import (a background picture was said to be "imported").
                    let lines = SourceLocation.lines(of: String(decoding: from.file.data, as: UTF8.self))
                    let text = from.line <= lines.count ? lines[from.line - 1] : ""
                    let found = text.range(of: from.reference)
                    let column = found.map { text[..<$0.lowerBound].count + 1 } ?? 1
                    // `url(…)` names a file; `@import` and a module's `import` import one.
                    let lead = found.map { text[..<$0.lowerBound].trimmingCharacters(in: CharacterSet(charactersIn: "\"' ")) } ?? ""
                    let what = lead.lowercased().hasSuffix("url(") ? "refers to" : "imports"
                    bag.error(
                        "\(what) '\(logical)', which is not in the theme's assets (templates/assets/\(logical))",
                        at: SourceLocation(path: from.file.origin, line: from.line, column: column), stage: "render")
                }
                return
            }
            if visiting.contains(logical) {
                bag.error("import cycle through assets/\(logical)", at: SourceLocation(path: file.origin), stage: "render")
                return
            }
            visiting.insert(logical)
            defer { visiting.remove(logical) }
            var data = file.data
            if logical.hasSuffix(".js") || logical.hasSuffix(".mjs") || logical.hasSuffix(".css") {
                let text = String(decoding: file.data, as: UTF8.self)
                let isCSS = logical.hasSuffix(".css")
                // The site's own files (the default theme's are checked by its tests, not by every
                // build): browsers read them as UTF-8, and another encoding, or a block never
                // closed, loses their rules or code.
                if file.isOverride {
                    if let problem = file.encodingProblem { bag.append(problem) }
                    if isCSS, let problem = Self.unclosedBlock(in: text, origin: file.origin) { bag.append(problem) }
                }
                let rewritten = rewriteReferences(in: text, css: isCSS) { reference, line in
                    // `url(/assets/img/paper.png)`: the theme's file by the address it has not (the
                    // output names it by its hash), a 404 without a word (a designer's).
                    if isCSS, let asset = Self.unhashedAsset(reference, in: theme) {
                        let lines = SourceLocation.lines(of: text)
                        let column = line <= lines.count ? (lines[line - 1].range(of: reference).map { lines[line - 1][..<$0.lowerBound].count + 1 } ?? 1) : 1
                        bag.warning(
                            "'\(reference)' names templates/assets/\(asset) by an address the site does not have: the build names theme files by their content (assets/\(hashedName(asset, hash: "HASH"))); write it relative to this file (\(relative(from: "assets/" + logical, to: "assets/" + asset))), and the build rewrites it",
                            at: SourceLocation(path: file.origin, line: line, column: column), stage: "render")
                        return nil
                    }
                    guard let target = resolve(reference, from: logical) else { return nil }
                    process(target, from: (file, line, reference))
                    guard let hashed = pipeline.urls[target] else { return nil }
                    // A fragment or query stays as written (`icons.svg#paw`, an SVG sprite's symbol).
                    let suffix = reference.firstIndex { $0 == "?" || $0 == "#" }.map { String(reference[$0...]) } ?? ""
                    return relative(from: "assets/" + logical, to: hashed) + suffix
                }
                data = Data(rewritten.utf8)
            }
            // (Its SHA-256 kept with it: the service worker and the write stage take it.)
            let digest = Hashing.sha256Hex(data)
            let output = "assets/" + hashedName(logical, hash: String(digest.prefix(10)))
            pipeline.urls[logical] = output
            pipeline.sizes[logical] = data.count
            pipeline.files.append(OutputFile(path: output, data: data, sha256: digest))
            pending.remove(logical)
        }

        for logical in logicalPaths.sorted() { process(logical, from: nil) }
        try bag.throwIfErrors()
        pipeline.warnings = bag.sorted
        pipeline.files.sort { $0.path < $1.path }
        return pipeline
    }

    /// `js/quiz.js` + hash → `js/quiz.0123456789.js`.
    static func hashedName(_ logical: String, hash: String) -> String {
        let slash = logical.lastIndex(of: "/")
        let dir = slash.map { String(logical[...$0]) } ?? ""
        let name = slash.map { String(logical[logical.index(after: $0)...]) } ?? logical
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return dir + name[..<dot] + "." + hash + name[dot...]
        }
        return dir + name + "." + hash
    }

    /// Resolves a relative reference from the asset `from` to a logical asset path; nil for
    /// absolute URLs, data: URIs and fragments, which are left alone.
    /// The theme's asset a root-relative address names as it is in `templates/` (`/assets/img/x.png`,
    /// `/birds/assets/img/x.png`), which the output has under another name; nil for any other.
    static func unhashedAsset(_ reference: String, in theme: Theme) -> String? {
        guard reference.hasPrefix("/"), !reference.hasPrefix("//"), let at = reference.range(of: "assets/") else { return nil }
        let clean = reference[at.upperBound...].prefix { $0 != "?" && $0 != "#" }
        return theme.files["assets/" + clean] != nil ? String(clean) : nil
    }

    static func resolve(_ reference: String, from: String) -> String? {
        if reference.hasPrefix("/") || reference.hasPrefix("#") || reference.contains(":") { return nil }
        let clean = reference.split(separator: "?").first.map(String.init)?.split(separator: "#").first.map(String.init) ?? reference
        var parts = from.split(separator: "/").map(String.init).dropLast()
        for part in clean.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                if parts.isEmpty { return nil }
                parts.removeLast()
            } else {
                parts.append(String(part))
            }
        }
        return parts.joined(separator: "/")
    }

    /// A relative URL from output file `from` to output file `to` (both root-relative).
    static func relative(from: String, to: String) -> String {
        let fromDir = from.split(separator: "/").dropLast().map(String.init)
        let toParts = to.split(separator: "/").map(String.init)
        var common = 0
        while common < fromDir.count, common < toParts.count - 1, fromDir[common] == toParts[common] { common += 1 }
        let up = Array(repeating: "..", count: fromDir.count - common)
        let rest = toParts[common...]
        let joined = (up + rest).joined(separator: "/")
        return up.isEmpty ? "./" + joined : joined
    }

    /// Rewrites module specifiers (JS) or `url()` references (CSS); `replace` returns the new
    /// reference or nil to leave it unchanged. Its second argument is the 1-based line.
    ///
    /// A line without `/*`, `*/`, `import`, `from` or `url(` (90 % of the theme's) is copied as it
    /// is, by its bytes: no block comment opens or closes in it (the only state carried from line
    /// to line; a `//` comment, a division or a path in a string is no matter), and it holds no
    /// reference (taking every line apart by `Character` was a quarter of a small site's build,
    /// 2026-12-04; until 2026-12-06 any line with a `/` was).
    /// `everyLine` takes each line apart all the same (the tests compare the two).
    /// The first `{` of a stylesheet never closed with its `}` (outside comments and strings), as
    /// an error: the rules after it were taken into its block, and a designer's whole site lost
    /// its look without a word from the preview, `check` or the build.
    static func unclosedBlock(in text: String, origin: String) -> Diagnostic? {
        var open: [(line: Int, column: Int)] = []
        var line = 1, column = 0
        var quote: Character?
        var escaped = false, inComment = false
        var previous: Character = " "
        for c in text {
            column += 1
            // ("\r\n" is one Character: a stylesheet saved on Windows counts its lines too.)
            let newline = c == "\n" || c == "\r\n" || c == "\r"
            if newline {
                line += 1
                column = 0
            }
            var current = c
            defer { previous = current }
            // A backslash takes the next character as it is (`.sm\:font-\[\'Inter\'\]`, minified).
            if escaped {
                escaped = false
                current = " "
                continue
            }
            if inComment {
                // (Closed, the `/` starts nothing: `*/*{…}` is a comment, then a rule for every element.)
                if previous == "*" && c == "/" { inComment = false; current = " " }
                continue
            }
            if let q = quote {
                if c == "\\" { escaped = true } else if c == q || newline { quote = nil }
                continue
            }
            switch c {
            case "\\": escaped = true
            case "*" where previous == "/": inComment = true; current = " "
            case "\"", "'": quote = c
            case "{": open.append((line, column))
            case "}": _ = open.popLast()
            default: break
            }
        }
        guard let first = open.first else { return nil }
        return .error(
            "this '{' is never closed with '}', so the rules after it are read as part of its block and do not apply as written; close it",
            at: SourceLocation(path: origin, line: first.line, column: first.column), stage: "render")
    }

    static func rewriteReferences(in text: String, css: Bool, everyLine: Bool = false, replace: (String, Int) -> String?) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var line = 1
        var inComment = false
        var source = text
        // Split at "\n" (one byte in UTF-8, never part of another character's): a CRLF file's
        // "\r\n" is one Character, which a split by Characters would not see (the whole file
        // one line); the "\r" stays with its line.
        source.withUTF8 { bytes in
            var start = 0
            while start <= bytes.count {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if line > 1 { out.append(UInt8(ascii: "\n")) }
                if !everyLine, !Self.contains("/*", in: raw), !Self.contains("*/", in: raw), !Self.contains("import", in: raw),
                    !Self.contains("from", in: raw), !Self.contains("url(", in: raw)
                {
                    out.append(contentsOf: raw)
                } else {
                    out.append(contentsOf: rewriteLine(String(decoding: raw, as: UTF8.self), css: css, line: line, inComment: &inComment, replace: replace).utf8)
                }
                line += 1
                start = end + 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether the ASCII `marker` occurs in `bytes`.
    private static func contains(_ marker: StaticString, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let m = UnsafeBufferPointer(start: marker.utf8Start, count: marker.utf8CodeUnitCount)
        guard bytes.count >= m.count else { return false }
        var i = 0
        while i <= bytes.count - m.count {
            if bytes[i] == m[0] {
                var k = 1
                while k < m.count, bytes[i + k] == m[k] { k += 1 }
                if k == m.count { return true }
            }
            i += 1
        }
        return false
    }

    /// One line of ``rewriteReferences(in:css:everyLine:replace:)``, taken apart by `Character`.
    private static func rewriteLine(_ text: String, css: Bool, line: Int, inComment: inout Bool, replace: (String, Int) -> String?) -> String {
        var rewritten = text
        // References count in code only, not in comments: `code` is the line with its
        // comments blanked, character for character.
        let commentBefore = inComment
        var code = codeOnly(Array(rewritten), css: css, inComment: &inComment)
        if rewritten.contains("import") {
            let before = rewritten
            rewritten = rewriteImports(in: rewritten, code: code, css: css, line: line, replace: replace)
            if rewritten != before {
                var state = commentBefore
                code = codeOnly(Array(rewritten), css: css, inComment: &state)
            }
        }
        return css ? rewriteCSSLine(rewritten, code: code, line: line, replace: replace)
            : rewriteJSLine(rewritten, code: code, line: line, replace: replace)
    }

    /// `line` with the characters of comments (`/* … */`, and in JS `// …`) turned into spaces,
    /// strings and JS regular expressions kept (`/\/*$/` opens no comment); `inComment` carries
    /// a block comment from line to line.
    static func codeOnly(_ line: [Character], css: Bool, inComment: inout Bool) -> [Character] {
        var code = line
        var quote: Character?
        var i = 0
        while i < line.count {
            let c = line[i], next: Character? = i + 1 < line.count ? line[i + 1] : nil
            if !inComment, quote == nil, !css, c == "/", next != "/", next != "*", opensRegularExpression(line, at: i) {
                // Up to the closing slash, not one escaped or in a class (`[/]`).
                var j = i + 1, inClass = false
                while j < line.count {
                    if line[j] == "\\" { j += 2; continue }
                    if line[j] == "[" { inClass = true } else if line[j] == "]" { inClass = false } else if line[j] == "/", !inClass { break }
                    j += 1
                }
                i = j + 1
                continue
            }
            if inComment {
                code[i] = " "
                if c == "*", next == "/" { code[i + 1] = " "; inComment = false; i += 2; continue }
            } else if let q = quote {
                if c == "\\" { i += 2; continue }
                if c == q { quote = nil }
            } else if c == "/", next == "*" {
                inComment = true
                code[i] = " "; code[i + 1] = " "; i += 2; continue
            } else if !css, c == "/", next == "/" {
                for j in i..<line.count { code[j] = " " }
                break
            } else if c == "\"" || c == "'" || c == "`" {
                quote = c
            }
            i += 1
        }
        return code
    }

    /// Whether the `/` at `i` starts a regular expression, not a division: it follows an
    /// operator, an opening bracket, a separator, `return` and the like, or starts the line.
    static func opensRegularExpression(_ line: [Character], at i: Int) -> Bool {
        var k = i - 1
        while k >= 0, line[k] == " " || line[k] == "\t" { k -= 1 }
        guard k >= 0 else { return true }
        if "(,=:[!&|?{};+-*%<>~^".contains(line[k]) { return true }
        var word = ""
        while k >= 0, line[k].isLetter { word = String(line[k]) + word; k -= 1 }
        return ["return", "typeof", "case", "do", "else", "in", "of", "void", "yield", "await"].contains(word)
            && (k < 0 || !(line[k].isLetter || line[k].isNumber || line[k] == "_" || line[k] == "$" || line[k] == "."))
    }

    /// JS's `import("./x.js")` (not `obj.import(`, not a template literal: a computed name has no
    /// hashed file) and CSS's `@import "x.css"`, where `code` (``codeOnly(_:css:inComment:)``)
    /// has them.
    static func rewriteImports(in line: String, code: [Character], css: Bool, line number: Int, replace: (String, Int) -> String?) -> String {
        var chars = Array(line)
        let marker = Array(css ? "@import" : "import(")
        var edits: [(Range<Int>, String)] = []
        var i = 0
        while i + marker.count <= code.count {
            guard Array(code[i..<i + marker.count]) == marker else { i += 1; continue }
            if !css, i > 0, code[i - 1].isLetter || code[i - 1].isNumber || code[i - 1] == "_" || code[i - 1] == "$" || code[i - 1] == "." {
                i += marker.count
                continue
            }
            var start = i + marker.count
            if css { while start < code.count, code[start] == " " || code[start] == "\t" { start += 1 } }
            guard start < chars.count, chars[start] == "\"" || chars[start] == "'" else { i = start; continue }
            let quote = chars[start]
            guard let end = chars[(start + 1)...].firstIndex(of: quote) else { break }
            let specifier = String(chars[(start + 1)..<end])
            if css || specifier.hasPrefix("./") || specifier.hasPrefix("../"), let replacement = replace(specifier, number) {
                edits.append(((start + 1)..<end, replacement))
            }
            i = end + 1
        }
        for (range, replacement) in edits.reversed() { chars.replaceSubrange(range, with: Array(replacement)) }
        return String(chars)
    }

    /// `from "./x.js"`, `import "./x.js"` (also with single quotes), where `code` has them.
    private static func rewriteJSLine(_ line: String, code: [Character], line number: Int, replace: (String, Int) -> String?) -> String {
        let trimmed = String(code).trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("import") || trimmed.hasPrefix("export") || trimmed.contains(" from ") || trimmed.hasPrefix("}") else {
            return line
        }
        var chars = Array(line)
        for marker in ["from \"", "from '", "import \"", "import '"].map(Array.init) {
            guard let at = firstIndex(of: marker, in: code, from: 0) else { continue }
            let quote = marker.last!, start = at + marker.count
            guard let end = chars[start...].firstIndex(of: quote) else { continue }
            let specifier = String(chars[start..<end])
            guard specifier.hasPrefix("./") || specifier.hasPrefix("../") else { continue }
            if let replacement = replace(specifier, number) {
                chars.replaceSubrange(start..<end, with: Array(replacement))
            }
            break
        }
        return String(chars)
    }

    /// `url(…)` where `code` has it, not in a comment (`@import "x.css"` is
    /// ``rewriteImports(in:code:css:line:replace:)``'s).
    private static func rewriteCSSLine(_ line: String, code: [Character], line number: Int, replace: (String, Int) -> String?) -> String {
        guard line.contains("url(") else { return line }
        let chars = Array(line), marker = Array("url(")
        // Where a quoted string is open: `url(` inside one is text (`content: "use url(…)"`).
        var quoted = [Bool](repeating: false, count: code.count)
        var quote: Character?
        var k = 0
        while k < code.count {
            let c = code[k]
            quoted[k] = quote != nil
            if let q = quote {
                if c == "\\" { k += 1; if k < code.count { quoted[k] = true } } else if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            }
            k += 1
        }
        var result: [Character] = []
        var done = 0, from = 0
        while let at = firstIndex(of: marker, in: code, from: from) {
            if quoted[at] {
                from = at + marker.count
                continue
            }
            let open = at + marker.count
            guard let close = chars[open...].firstIndex(of: ")") else { break }
            var inner = String(chars[open..<close]).trimmingCharacters(in: .whitespaces)
            var quote = ""
            if let first = inner.first, first == "\"" || first == "'" {
                quote = String(first)
                inner = String(inner.dropFirst().dropLast())
            }
            if let replacement = replace(inner, number) {
                result += chars[done..<open]
                result += Array(quote + replacement + quote)
                done = close
            }
            from = close
        }
        return String(result + chars[done...])
    }

    /// Where `marker` first occurs in `text` at or after `from`.
    private static func firstIndex(of marker: [Character], in text: [Character], from: Int) -> Int? {
        var i = from
        while i + marker.count <= text.count {
            if text[i] == marker[0], Array(text[i..<i + marker.count]) == marker { return i }
            i += 1
        }
        return nil
    }
}
