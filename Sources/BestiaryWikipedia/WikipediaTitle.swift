import BestiaryContent
import Foundation

/// Article titles as the summary endpoint wants them, and the URL that asks for one.
public enum WikipediaTitle {
    /// The form to request and to de-duplicate by: trimmed, runs of spaces and underscores as
    /// one `_`, first letter in upper case (Wikipedia capitalises it: `rotfuchs` is `Rotfuchs`).
    public static func normalize(_ title: String) -> String {
        normalizeASCII(title) ?? normalizeAny(title)
    }

    /// ``normalize(_:)`` for any title, by `Character`.
    static func normalizeAny(_ title: String) -> String {
        var parts: [Substring] = []
        for part in title.split(whereSeparator: { $0 == " " || $0 == "_" || $0 == "\u{00A0}" || $0 == "\t" }) {
            parts.append(part)
        }
        var joined = parts.joined(separator: "_")
        if let first = joined.first {
            let upper = String(first).uppercased()
            // Only where the upper case is one character (not `ß` → `SS`).
            if upper.count == 1 { joined = upper + joined.dropFirst() }
        }
        return joined
    }

    /// ``normalize(_:)`` by bytes, for an ASCII title (nearly all of them; a build normalizes
    /// 29,000 on the bench corpus): nil for any other.
    static func normalizeASCII(_ title: String) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(title.utf8.count)
        var gap = false
        for byte in title.utf8 {
            guard byte < 0x80 else { return nil }
            if byte == 0x20 || byte == 0x5F || byte == 0x09 {
                gap = !out.isEmpty
                continue
            }
            if gap { out.append(0x5F) }
            gap = false
            out.append(out.isEmpty && byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The title as a single URL path segment: percent-encoded UTF-8, with `/` as `%2F`
    /// (the route is `/summary/:title/:revision?`, so a raw slash would be a revision).
    public static func pathSegment(_ title: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~!$&'()*+,;=:@")
        return normalize(title).addingPercentEncoding(withAllowedCharacters: allowed) ?? normalize(title)
    }

    /// The REST base for `language` from a template such as `https://{lang}.wikipedia.org/api/rest_v1`
    /// (`{lang}` is the language's wiki, ``wikiCode(_:)``).
    public static func restBase(template: String, language: String) -> String {
        var base = template.replacingOccurrences(of: "{lang}", with: wikiCode(language))
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }

    /// The Wikipedia a site language reads (``LanguageCode/wikipediaCode(_:)``).
    public static func wikiCode(_ language: String) -> String { LanguageCode.wikipediaCode(language) }

    /// `…/page/summary/Title` for `title` in `language`.
    public static func summaryURL(template: String, language: String, title: String) -> String {
        restBase(template: template, language: language) + "/page/summary/" + pathSegment(title)
    }

    /// The title with spaces, for messages.
    public static func readable(_ title: String) -> String {
        title.replacingOccurrences(of: "_", with: " ")
    }
}
