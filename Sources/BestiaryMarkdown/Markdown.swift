import CCmark
import Foundation

/// Markdown to HTML through cmark (libcmark), always in its safe mode.
///
/// Safe mode is what makes user text harmless: raw HTML blocks and inline HTML are replaced by
/// `<!-- raw HTML omitted -->`, and links or images whose URL uses `javascript:`, `vbscript:`,
/// `file:` or a non-image `data:` scheme lose their URL. cmark 0.29 and later are safe unless
/// `CMARK_OPT_UNSAFE` is passed, which this type never does.
public enum Markdown {
    /// CommonMark to an HTML fragment. Invalid UTF-8 is replaced, never passed through.
    /// What the headings of a text become on a page (``html(_:smartPunctuation:headings:)``).
    public struct Headings: Sendable {
        /// The first level-1 heading stays one (the page's title, `# {{title}}` in
        /// `markdown/page.md`); every other becomes level 2, under the page's own title.
        public var keepsFirstTitle: Bool
        /// Ids the page's layout uses already (`main`): a heading named so gets `-2`.
        public var reserved: Set<String>

        public init(keepsFirstTitle: Bool, reserved: Set<String> = []) {
            self.keepsFirstTitle = keepsFirstTitle
            self.reserved = reserved
        }
    }

    /// CommonMark to an HTML fragment. Invalid UTF-8 is replaced, never passed through. With
    /// `headings`, every heading but a kept title gets an `id` made from its text (``slug(_:)``),
    /// so that a text's `[see below](#habitat)` leads somewhere, and a level-1 heading in a text
    /// becomes level 2 (a page has one title); a link whose address safe mode removed
    /// (`javascript:`) is left as its text, not as a link to the page itself.
    public static func html(_ markdown: String, smartPunctuation: Bool = true, headings: Headings?) -> String {
        var out = html(markdown, smartPunctuation: smartPunctuation)
        // Looked for in the bytes, by hand: Foundation's `contains` searches by locale, and
        // the standard library's `firstRange(of:)` took 7 % of a full build's time (every page).
        if has(&out, "<a href=\"\">") { out = withoutEmptyLinks(out) }
        if let headings, has(&out, "<h") { out = withHeadingIDs(out, headings) }
        return out
    }

    /// Whether `needle` is in `text`, byte for byte.
    static func has(_ text: inout String, _ needle: StaticString) -> Bool {
        text.withUTF8 { haystack in
            needle.withUTF8Buffer { n in
                guard haystack.count >= n.count, let first = n.first else { return false }
                var i = 0
                let last = haystack.count - n.count
                while i <= last {
                    if haystack[i] == first {
                        var j = 1
                        while j < n.count && haystack[i + j] == n[j] { j += 1 }
                        if j == n.count { return true }
                    }
                    i += 1
                }
                return false
            }
        }
    }

    /// `<a href="">text</a>` (a link safe mode took the address of, or `[text]()`) as `text`.
    static func withoutEmptyLinks(_ html: String) -> String {
        var out = ""
        var rest = html[...]
        while let start = rest.range(of: "<a href=\"\">") {
            // Safe mode keeps a title: `<a href="" title="…">` is not this tag.
            guard let end = rest[start.upperBound...].range(of: "</a>") else { break }
            out += rest[..<start.lowerBound]
            out += rest[start.upperBound..<end.lowerBound]
            rest = rest[end.upperBound...]
        }
        return out + rest
    }

    /// The id a heading's text gives: lower case, letters and digits of any script kept, spaces
    /// and dashes made one `-` (`Körperbau & Größe` → `körperbau-größe`); `section` when nothing
    /// is left.
    public static func slug(_ text: String) -> String {
        var out = ""
        var dash = false
        for character in text.lowercased() {
            if character.isLetter || character.isNumber {
                if dash && !out.isEmpty { out.append("-") }
                dash = false
                out.append(character)
            } else if character.isWhitespace || character == "_" || character.unicodeScalars.first?.properties.generalCategory == .dashPunctuation {
                // Any dash: an English text's `--` is an en dash on its page, `-` in `check`'s parse.
                dash = true
            }
        }
        return out.isEmpty ? "section" : out
    }

    /// The headings cmark made (`<h2>…</h2>`: raw HTML never reaches the page, so every such tag
    /// is one) with their ids, level 1 after a kept title made level 2. Walked in bytes: every
    /// animal page with a heading in its text comes here.
    static func withHeadingIDs(_ html: String, _ headings: Headings) -> String {
        let b = Array(html.utf8)
        var used = headings.reserved
        var titleKept = !headings.keepsFirstTitle
        var out: [UInt8] = []
        out.reserveCapacity(b.count + 64)
        var i = 0, copied = 0
        let lt = UInt8(ascii: "<"), h = UInt8(ascii: "h"), gt = UInt8(ascii: ">"), slash = UInt8(ascii: "/")
        while i + 4 < b.count {
            guard b[i] == lt, b[i + 1] == h, b[i + 2] >= UInt8(ascii: "1"), b[i + 2] <= UInt8(ascii: "6"), b[i + 3] == gt else {
                i += 1
                continue
            }
            let digit = b[i + 2]
            // The closing tag of this level.
            var j = i + 4
            while j + 4 < b.count, !(b[j] == lt && b[j + 1] == slash && b[j + 2] == h && b[j + 3] == digit && b[j + 4] == gt) { j += 1 }
            guard j + 4 < b.count else { break }
            out.append(contentsOf: b[copied..<i])
            let inner = b[(i + 4)..<j]
            let level = Int(digit - UInt8(ascii: "0"))
            if level == 1 && !titleKept {
                titleKept = true
                out.append(contentsOf: b[i..<(j + 5)])
            } else {
                let shown = UInt8(ascii: "0") + UInt8(max(level, 2))
                let base = slug(textOf(String(decoding: inner, as: UTF8.self)[...]))
                var id = base, n = 2
                while used.contains(id) {
                    id = "\(base)-\(n)"
                    n += 1
                }
                used.insert(id)
                out.append(contentsOf: [lt, h, shown])
                out.append(contentsOf: " id=\"".utf8)
                out.append(contentsOf: escapeAttribute(id).utf8)
                out.append(contentsOf: "\">".utf8)
                out.append(contentsOf: inner)
                out.append(contentsOf: [lt, slash, h, shown, gt])
            }
            i = j + 5
            copied = i
        }
        out.append(contentsOf: b[copied...])
        return String(decoding: out, as: UTF8.self)
    }

    /// The text of cmark's HTML: tags left out, its five escapes decoded.
    static func textOf(_ html: Substring) -> String {
        var text = ""
        var inTag = false
        for character in html {
            if character == "<" { inTag = true } else if character == ">" { inTag = false } else if !inTag { text.append(character) }
        }
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }

    static func escapeAttribute(_ text: String) -> String {
        // A slug holds letters and digits only, and dashes: nothing to escape but in odd scripts.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "\"") }) else { return text }
        return text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    public static func html(_ markdown: String, smartPunctuation: Bool = true) -> String {
        var options = CMARK_OPT_VALIDATE_UTF8 | CMARK_OPT_SAFE
        if smartPunctuation { options |= CMARK_OPT_SMART }
        let utf8 = Array(markdown.utf8)
        let (rendered, refusedImage): (String, Bool) = utf8.withUnsafeBufferPointer { buf in
            buf.withMemoryRebound(to: CChar.self) { chars in
                guard let out = cmark_markdown_to_html(chars.baseAddress, chars.count, options) else {
                    return ("", false)
                }
                defer { free(out) }
                // Looked for in cmark's bytes (`String.contains` goes through Foundation's
                // locale-aware search: a tenth of a second per 10,000 pages).
                return (String(cString: out), strstr(out, "<img src=\"\"") != nil)
            }
        }
        return refusedImage ? withoutUnsafeImages(rendered) : rendered
    }

    /// What a text holds that the site does not show as written, found in one parse by cmark
    /// (``inspect(_:referenced:)``). Positions are 1-based lines and columns in the text.
    public struct Findings: Sendable {
        public typealias Place = (line: Int, column: Int)
        /// Every image (inline or by reference) with its destination.
        public var images: [(url: String, line: Int, column: Int)] = []
        /// The first scalar a character reference (`&#x202E;`) gives that the caller asked about,
        /// in text, code, link and image addresses and titles (raw HTML is not looked at).
        public var referenced: (scalar: UInt32, line: Int, column: Int)?
        /// Raw HTML, block or inline (comments aside): safe mode leaves it out of the page.
        public var html: [Place] = []
        /// Links and images whose address safe mode removes (`javascript:`, `vbscript:`, `file:`,
        /// `data:` but pictures).
        public var removedAddresses: [(url: String, line: Int, column: Int)] = []
    }

    /// The ``Findings`` of `markdown`. A text without any of their marks (`![`, a character
    /// reference, `<`, or an address scheme safe mode refuses) has none and is not parsed (every record of a full build
    /// comes here; the marks are looked for by bytes, not through Foundation's locale-aware search).
    public static func inspect(_ markdown: String, referenced matches: (UInt32) -> Bool) -> Findings {
        var findings = Findings()
        let utf8 = Array(markdown.utf8)
        guard hasMarks(utf8) else { return findings }
        let root: OpaquePointer? = utf8.withUnsafeBufferPointer { buf in
            buf.withMemoryRebound(to: CChar.self) { cmark_parse_document($0.baseAddress, $0.count, CMARK_OPT_VALIDATE_UTF8) }
        }
        guard let root else { return findings }
        defer { cmark_node_free(root) }
        guard let iterator = cmark_iter_new(root) else { return findings }
        defer { cmark_iter_free(iterator) }
        let positions = SourcePositions(utf8)
        let lineStarts = positions.lineStarts
        func scalarColumn(line: Int, byteColumn: Int) -> Int { positions.scalarColumn(line: line, byteColumn: byteColumn) }
        func place(_ node: OpaquePointer) -> (Int, Int) { positions.place(node) }
        // The character reference that gives `scalar`, from `line` on (a text node starts where
        // its text does, not at the reference): its line and column, else nil.
        func reference(to scalar: UInt32, from line: Int) -> (Int, Int)? {
            // (cmark also ends a line at a lone CR, which these LF lines do not count.)
            guard line >= 1, line <= lineStarts.count else { return nil }
            for l in line...lineStarts.count {
                let start = lineStarts[l - 1], end = l < lineStarts.count ? lineStarts[l] : utf8.count
                var i = start
                while i < end {
                    guard utf8[i] == UInt8(ascii: "&"), let semicolon = utf8[i..<min(end, i + 34)].firstIndex(of: UInt8(ascii: ";")) else {
                        i += 1
                        continue
                    }
                    let name = String(decoding: utf8[(i + 1)..<semicolon], as: UTF8.self)
                    if Self.referencedScalar(name) == scalar { return (l, scalarColumn(line: l, byteColumn: i - start + 1)) }
                    i += 1
                }
            }
            return nil
        }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            var texts: [UnsafePointer<CChar>?] = []
            switch type {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE, CMARK_NODE_CODE_BLOCK:
                texts = [cmark_node_get_literal(node)]
            case CMARK_NODE_LINK, CMARK_NODE_IMAGE:
                let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
                let (line, column) = place(node)
                if type == CMARK_NODE_IMAGE { findings.images.append((url, line, column)) }
                if isRemoved(url) { findings.removedAddresses.append((url, line, column)) }
                texts = [cmark_node_get_url(node), cmark_node_get_title(node)]
            case CMARK_NODE_HTML_BLOCK, CMARK_NODE_HTML_INLINE:
                // A comment is the author's note to themselves: left out, as meant.
                if let literal = cmark_node_get_literal(node), strncmp(literal, "<!--", 4) == 0 { continue }
                let (line, column) = place(node)
                findings.html.append((line, column))
            default:
                continue
            }
            guard findings.referenced == nil else { continue }
            for case let text? in texts {
                guard let scalar = String(cString: text).unicodeScalars.first(where: { matches($0.value) }) else { continue }
                let (line, column) = place(node)
                let (at, from) = reference(to: scalar.value, from: line) ?? (line, column)
                findings.referenced = (scalar.value, at, from)
                break
            }
        }
        return findings
    }

    /// The scalar a character reference's name gives (`#x202E`, `#8238`, `rlm`), for the direction
    /// controls and zero-width marks among the named ones; nil for others.
    static func referencedScalar(_ name: String) -> UInt32? {
        if name.hasPrefix("#x") || name.hasPrefix("#X") { return UInt32(name.dropFirst(2), radix: 16) }
        if name.hasPrefix("#") { return UInt32(name.dropFirst()) }
        return ["lrm": 0x200E, "rlm": 0x200F, "zwj": 0x200D, "zwnj": 0x200C][name]
    }

    /// Whether `bytes` hold `![`, `&#`, `&` and a letter, `<`, or `script:`, `file:` or `data:` in any case.
    static func hasMarks(_ bytes: [UInt8]) -> Bool {
        var previous: UInt8 = 0
        for (i, byte) in bytes.enumerated() {
            defer { previous = byte }
            switch byte {
            case UInt8(ascii: "<"): return true
            case UInt8(ascii: "["): if previous == UInt8(ascii: "!") { return true }
            case UInt8(ascii: "#"): if previous == UInt8(ascii: "&") { return true }
            case UInt8(ascii: ":"):
                for word in ["script", "file", "data"] where i >= word.utf8.count {
                    if zip(bytes[(i - word.utf8.count)..<i], word.utf8).allSatisfy({ $0 | 0x20 == $1 }) { return true }
                }
            default:
                // A named reference (`javascript&colon;…`): cmark decodes it before its checks.
                if previous == UInt8(ascii: "&"), (byte | 0x20) >= UInt8(ascii: "a"), (byte | 0x20) <= UInt8(ascii: "z") { return true }
            }
        }
        return false
    }

    /// Whether cmark's safe mode removes `url` (its `_scan_dangerous_url`): `javascript:`,
    /// `vbscript:`, `file:`, and `data:` but for a PNG, GIF, JPEG or WebP picture.
    static func isRemoved(_ url: String) -> Bool {
        let lower = url.lowercased()
        if lower.hasPrefix("javascript:") || lower.hasPrefix("vbscript:") || lower.hasPrefix("file:") { return true }
        guard lower.hasPrefix("data:") else { return false }
        return !["data:image/png", "data:image/gif", "data:image/jpeg", "data:image/webp"].contains { lower.hasPrefix($0) }
    }

    /// cmark's safe mode leaves an image whose URL it refused as `<img src="" alt="…" />`, which
    /// is not valid HTML (an empty `src`); the picture could never show, so its alternative text
    /// (already escaped by cmark) takes its place.
    static func withoutUnsafeImages(_ html: String) -> String {
        let opening = "<img src=\"\" alt=\""
        var out = ""
        var rest = html[...]
        while let start = rest.range(of: opening) {
            guard let close = rest[start.upperBound...].range(of: " />") else { break }
            out += rest[..<start.lowerBound]
            let attributes = rest[start.upperBound..<close.lowerBound]
            // `alt="…"`, maybe followed by ` title="…"`: the alt text ends at its quote.
            if let quote = attributes.firstIndex(of: "\"") { out += attributes[..<quote] }
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    /// Escapes `text` so that CommonMark shows it literally, character for character, when it is
    /// substituted into a Markdown template: every ASCII punctuation character gets a backslash
    /// (CommonMark §2.4 allows that for all of them), and line breaks become spaces so a value can
    /// never start a new block (a heading, a list, a fenced code block).
    ///
    /// `*Bob* <script>` becomes `\*Bob\* \<script\>`, which cmark renders as the text
    /// `*Bob* &lt;script&gt;`.
    public static func escape(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n", "\r", "\u{2028}", "\u{2029}":
                out.append(" ")
            case "!", "\"", "#", "$", "%", "&", "'", "(", ")", "*", "+", ",", "-", ".", "/", ":", ";",
                "<", "=", ">", "?", "@", "[", "\\", "]", "^", "_", "`", "{", "|", "}", "~":
                out.append("\\")
                out.append(scalar)
            case "\u{0}":
                out.append("\u{FFFD}")
            default:
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// The cmark library version this binary runs with, e.g. `0.30.2`.
    public static var libraryVersion: String {
        String(cString: cmark_version_string())
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Markdown {
    /// The links of a text (inline or by reference), each with its address and where it starts
    /// (1-based line and column in characters), and the ids its headings get on a page
    /// (``slug(_:)``, numbered as ``html(_:smartPunctuation:headings:)`` numbers them).
    public static func links(_ markdown: String, reserved: Set<String> = []) -> (links: [(url: String, line: Int, column: Int)], headingIDs: Set<String>) {
        let utf8 = Array(markdown.utf8)
        var links: [(url: String, line: Int, column: Int)] = []
        var ids = Set<String>()
        let root: OpaquePointer? = utf8.withUnsafeBufferPointer { buf in
            buf.withMemoryRebound(to: CChar.self) { cmark_parse_document($0.baseAddress, $0.count, CMARK_OPT_VALIDATE_UTF8) }
        }
        guard let root else { return ([], []) }
        defer { cmark_node_free(root) }
        guard let iterator = cmark_iter_new(root) else { return ([], []) }
        defer { cmark_iter_free(iterator) }
        let positions = SourcePositions(utf8)
        func place(_ node: OpaquePointer) -> (Int, Int) { positions.place(node) }
        /// The text of a heading: its text and code, as the page shows it.
        func text(of node: OpaquePointer) -> String {
            var out = ""
            var child = cmark_node_first_child(node)
            while let c = child {
                let type = cmark_node_get_type(c)
                if type == CMARK_NODE_TEXT || type == CMARK_NODE_CODE, let literal = cmark_node_get_literal(c) {
                    out += String(cString: literal)
                } else if type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK {
                    out += " "
                } else if type == CMARK_NODE_IMAGE {
                    // An image's text is its alt attribute on the page: not part of the heading's text.
                } else {
                    out += text(of: c)
                }
                child = cmark_node_next(c)
            }
            return out
        }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            switch cmark_node_get_type(node) {
            case CMARK_NODE_LINK:
                let (line, column) = place(node)
                links.append((cmark_node_get_url(node).map { String(cString: $0) } ?? "", line, column))
            case CMARK_NODE_HEADING:
                let base = slug(text(of: node))
                var id = base, n = 2
                while ids.contains(id) || reserved.contains(id) {
                    id = "\(base)-\(n)"
                    n += 1
                }
                ids.insert(id)
            default:
                continue
            }
        }
        return (links, ids)
    }
}

/// Where cmark's nodes start, in the 1-based lines and columns Bestiary reports: cmark's columns
/// count bytes, the diagnostics' count characters (scalars), as every other position does.
struct SourcePositions {
    let utf8: [UInt8]
    /// Where each line starts, in bytes.
    let lineStarts: [Int]

    init(_ utf8: [UInt8]) {
        self.utf8 = utf8
        var starts = [0]
        for (i, byte) in utf8.enumerated() where byte == 0x0A { starts.append(i + 1) }
        lineStarts = starts
    }

    func scalarColumn(line: Int, byteColumn: Int) -> Int {
        guard line >= 1, line <= lineStarts.count else { return byteColumn }
        let start = lineStarts[line - 1], end = min(start + byteColumn - 1, utf8.count)
        guard start < end else { return byteColumn }
        return utf8[start..<end].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    }

    /// Where `node` starts: the enclosing block's start when cmark gives an inline none.
    func place(_ node: OpaquePointer) -> (Int, Int) {
        var at: OpaquePointer? = node
        while let n = at, cmark_node_get_start_line(n) == 0 { at = cmark_node_parent(n) }
        let line = Int(at.map(cmark_node_get_start_line) ?? 1)
        return (line, scalarColumn(line: line, byteColumn: Int(at.map(cmark_node_get_start_column) ?? 1)))
    }
}
