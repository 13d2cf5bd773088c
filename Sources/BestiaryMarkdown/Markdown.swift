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

    /// Each image of `markdown` (inline or by reference) with its destination and where it starts
    /// (1-based line and column in `markdown`). Text without `![` has none and is not parsed.
    public static func images(in markdown: String) -> [(url: String, line: Int, column: Int)] {
        // By bytes (`String.contains` goes through Foundation's locale-aware search; every record
        // of a full build comes here).
        var sawBang = false
        guard markdown.utf8.contains(where: { byte in
            defer { sawBang = byte == UInt8(ascii: "!") }
            return sawBang && byte == UInt8(ascii: "[")
        }) else { return [] }
        let utf8 = Array(markdown.utf8)
        let root: OpaquePointer? = utf8.withUnsafeBufferPointer { buf in
            buf.withMemoryRebound(to: CChar.self) { cmark_parse_document($0.baseAddress, $0.count, CMARK_OPT_VALIDATE_UTF8) }
        }
        guard let root else { return [] }
        defer { cmark_node_free(root) }
        guard let iterator = cmark_iter_new(root) else { return [] }
        defer { cmark_iter_free(iterator) }
        var images: [(url: String, line: Int, column: Int)] = []
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator), cmark_node_get_type(node) == CMARK_NODE_IMAGE else { continue }
            let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
            images.append((url, Int(cmark_node_get_start_line(node)), Int(cmark_node_get_start_column(node))))
        }
        return images
    }

    /// The first scalar for which `matches` holds in the text cmark decodes from `markdown`'s
    /// character references (`&#x202E;`, `&#8238;`), with where its node starts (1-based line and
    /// column; the enclosing block's when cmark gives an inline none). Text, code, link and image
    /// addresses and titles are looked at; raw HTML is not (safe mode omits it). Text without `&#`
    /// has no such reference and is not parsed: callers check the raw text themselves.
    public static func firstReferencedScalar(in markdown: String, where matches: (UInt32) -> Bool) -> (scalar: UInt32, line: Int, column: Int)? {
        var sawAmpersand = false
        guard markdown.utf8.contains(where: { byte in
            defer { sawAmpersand = byte == UInt8(ascii: "&") }
            return sawAmpersand && byte == UInt8(ascii: "#")
        }) else { return nil }
        let utf8 = Array(markdown.utf8)
        let root: OpaquePointer? = utf8.withUnsafeBufferPointer { buf in
            buf.withMemoryRebound(to: CChar.self) { cmark_parse_document($0.baseAddress, $0.count, CMARK_OPT_VALIDATE_UTF8) }
        }
        guard let root else { return nil }
        defer { cmark_node_free(root) }
        guard let iterator = cmark_iter_new(root) else { return nil }
        defer { cmark_iter_free(iterator) }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            var texts: [UnsafePointer<CChar>?] = []
            switch type {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE, CMARK_NODE_CODE_BLOCK: texts = [cmark_node_get_literal(node)]
            case CMARK_NODE_LINK, CMARK_NODE_IMAGE: texts = [cmark_node_get_url(node), cmark_node_get_title(node)]
            default: continue
            }
            for case let text? in texts {
                guard let scalar = String(cString: text).unicodeScalars.first(where: { matches($0.value) }) else { continue }
                var at: OpaquePointer? = node
                while let n = at, cmark_node_get_start_line(n) == 0 { at = cmark_node_parent(n) }
                return (scalar.value, Int(at.map(cmark_node_get_start_line) ?? 1), Int(at.map(cmark_node_get_start_column) ?? 1))
            }
        }
        return nil
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
