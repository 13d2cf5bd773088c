import BestiaryContent

/// Plain text from the small HTML snippets Wikimedia returns (Commons `Artist`, `Credit`,
/// `displaytitle`): tags removed, entities decoded, whitespace collapsed, control characters dropped
/// (``ControlCharacter``: `&#27;` is no more showable than a raw one).
public enum HTMLText {
    public static func plain(_ html: String) -> String {
        // What a script or style element holds is not text (a Commons artist field with a
        // `<script>` showed its code in the credit line).
        var html = html
        if html.contains("<") {
            for element in ["script", "style"] {
                while let open = html.range(of: "<\(element)", options: .caseInsensitive) {
                    let close = html.range(of: "</\(element)", options: .caseInsensitive, range: open.upperBound..<html.endIndex)
                    let end = close.flatMap { html.range(of: ">", range: $0.upperBound..<html.endIndex)?.upperBound } ?? html.endIndex
                    html.replaceSubrange(open.lowerBound..<end, with: " ")
                }
            }
        }
        var out = ""
        var inTag = false
        var entity: String? = nil
        for ch in html {
            if inTag {
                if ch == ">" { inTag = false; out.append(" ") }
                continue
            }
            if var e = entity {
                if ch == ";" {
                    out += decode(e)
                    entity = nil
                } else if e.count < 10 && (ch.isLetter || ch.isNumber || ch == "#") {
                    e.append(ch)
                    entity = e
                } else {
                    out += "&" + e
                    entity = nil
                    if ch == "<" { inTag = true } else if ch == "&" { entity = "" } else { out.append(ch) }
                }
                continue
            }
            switch ch {
            case "<": inTag = true
            case "&": entity = ""
            default: out.append(ch)
            }
        }
        if let e = entity { out += "&" + e }
        return out.split(whereSeparator: { $0.isWhitespace }).lazy
            .map { ControlCharacter.removed(from: String($0)) }.filter { !$0.isEmpty }
            .joined(separator: " ")
    }

    private static func decode(_ name: String) -> String {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos", "#39": return "'"
        case "nbsp": return " "
        default:
            if name.hasPrefix("#x") || name.hasPrefix("#X"), let v = UInt32(name.dropFirst(2), radix: 16), let s = Unicode.Scalar(v) {
                return String(Character(s))
            }
            if name.hasPrefix("#"), let v = UInt32(name.dropFirst()), let s = Unicode.Scalar(v) {
                return String(Character(s))
            }
            return "&" + name + ";"
        }
    }
}
