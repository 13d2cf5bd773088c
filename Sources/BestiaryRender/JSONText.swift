import Foundation

/// Deterministic JSON for the output: sorted keys, no whitespace, and `<`, `>`, `&`, U+2028 and
/// U+2029 escaped so the text can sit inside a `<script>` element without ending it.
public enum JSONText {
    public static func encode(_ object: Any) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("null".utf8)
        var text = String(decoding: data, as: UTF8.self)
        if text.contains(where: { $0 == "<" || $0 == ">" || $0 == "&" || $0 == "\u{2028}" || $0 == "\u{2029}" }) {
            text = text.replacingOccurrences(of: "<", with: "\\u003c")
                .replacingOccurrences(of: ">", with: "\\u003e")
                .replacingOccurrences(of: "&", with: "\\u0026")
                .replacingOccurrences(of: "\u{2028}", with: "\\u2028")
                .replacingOccurrences(of: "\u{2029}", with: "\\u2029")
        }
        return text
    }
}

/// HTML and XML text escaping for the parts built in Swift (sitemap, attributes).
public enum Escape {
    public static func xml(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// Percent-encodes a path segment (ids are already safe; titles are not).
    public static func pathSegment(_ s: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#")
        return s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s
    }
}
