/// Writes animal records as front matter + Markdown (DESIGN.md §2), deterministically: the same
/// record always gives the same bytes, so importing twice changes nothing.
///
/// - Keys come in one fixed order, ``keyOrder``; absent fields are left out.
/// - Short localized maps and lists are written in flow style (`name: {en: Red fox, de: Rotfuchs}`),
///   languages in the site's order; long or multi-line texts in block style.
/// - Every scalar that YAML could misread is double-quoted: `No`, `yes`, `1.0`, `12:30`, text with
///   `: ` or ` #`, a leading indicator (`*`, `&`, `!`, `%`, `@`, `` ` ``, `-`, `[`, …), leading or
///   trailing spaces, control characters. Multi-line text becomes a literal block (`|-`) when it can
///   be written back exactly, else a double-quoted string with escapes.
///
/// Round trip: `Animal.parse(writer.document(for: a))` gives `a` back (all but source locations),
/// for every record whose texts carry no leading or trailing white space (the parser trims them).
///
/// To change an existing file, use ``update(_:from:to:fileID:)``: it rewrites only the keys whose
/// value changed and keeps everything else (comments, key order, quoting, the body) byte for byte.
public struct RecordWriter: Sendable {
    /// The site's languages: the order of localized maps, the first is the default (the body's).
    public let languages: [String]

    /// Top-level keys in the order they are written.
    public static let keyOrder = [
        "id", "name", "scientific", "group", "difficulty", "tags", "wikipedia", "description", "hint", "habitat",
        "conservation", "sound", "image",
    ]

    /// Lines longer than this switch a map or list from flow to block style.
    static let flowLimit = 100

    public init(languages: [String]) {
        self.languages = languages.isEmpty ? ["en"] : languages
    }

    public init(config: SiteConfig) {
        self.init(languages: config.languages)
    }

    public var defaultLanguage: String { languages[0] }

    /// The whole file for `animal`, to be saved as `content/animals/FILEID.md`. `id:` is written
    /// only when it differs from `fileID` (the file name gives it otherwise).
    public func document(for animal: Animal, fileID: String) -> String {
        var out = "---\n"
        for key in Self.keyOrder {
            if let entry = entry(key, of: animal, fileID: fileID) { out += entry }
        }
        out += "---\n"
        out += body(of: animal)
        return out
    }

    /// The default language's Markdown body, exactly as stored.
    func body(of animal: Animal) -> String {
        animal.bodies[defaultLanguage]?.markdown ?? ""
    }

    /// The lines (each ending in a newline) that write top-level `key` of `animal`, or nil when
    /// the record has no value for it.
    public func entry(_ key: String, of animal: Animal, fileID: String) -> String? {
        switch key {
        case "id":
            return animal.id == fileID ? nil : "id: \(YAMLScalar.plainOrQuoted(animal.id))\n"
        case "name": return localized("name", animal.name)
        case "scientific": return animal.scientific.map { text("scientific", $0) }
        case "group": return animal.group.map { text("group", $0) }
        case "difficulty": return animal.difficulty.map { "difficulty: \($0)\n" }
        case "tags": return animal.tags.isEmpty ? nil : list("tags", animal.tags)
        case "wikipedia": return localized("wikipedia", LocalizedText(animal.wikipedia))
        case "description": return localized("description", animal.description)
        case "hint": return localized("hint", animal.hint)
        case "habitat": return localized("habitat", animal.habitat)
        case "conservation": return animal.conservation.map { text("conservation", $0) }
        case "sound": return animal.sound.map { media("sound", $0) }
        case "image":
            if let image = animal.image { return media("image", image) }
            // The Wikipedia picture's focus and alt text: an image with neither file nor url.
            let lead = (animal.leadImageFocus.map { text("focus", $0, indent: 2) } ?? "") + (localized("alt", animal.leadImageAlt, indent: 2) ?? "")
            return lead.isEmpty ? nil : "image:\n" + lead
        default: return nil
        }
    }

    // MARK: Values

    /// `key: value`, with a literal block for multi-line text.
    func text(_ key: String, _ value: String, indent: Int = 0) -> String {
        let pad = String(repeating: " ", count: indent)
        if let block = YAMLScalar.literalBlock(value, indent: indent + 2) {
            return "\(pad)\(key): |-\n\(block)"
        }
        return "\(pad)\(key): \(YAMLScalar.plainOrQuoted(value))\n"
    }

    /// Languages present in `values`, the site's first, then any others sorted.
    func orderedLanguages(_ values: [String: String]) -> [String] {
        languages.filter { values[$0] != nil } + values.keys.filter { !languages.contains($0) }.sorted()
    }

    func localized(_ key: String, _ value: LocalizedText, indent: Int = 0) -> String? {
        if value.isEmpty { return nil }
        let langs = orderedLanguages(value.values)
        let pad = String(repeating: " ", count: indent)
        if langs.allSatisfy({ !value.values[$0]!.contains("\n") }) {
            // Keys are quoted like values: Norwegian's `no` is `false` to a YAML 1.1 reader.
            let items = langs.map { "\(YAMLScalar.plainOrQuoted($0, flow: true)): \(YAMLScalar.plainOrQuoted(value.values[$0]!, flow: true))" }
            let line = "\(pad)\(key): {\(items.joined(separator: ", "))}"
            if line.count <= Self.flowLimit { return line + "\n" }
        }
        return "\(pad)\(key):\n" + langs.map { text(YAMLScalar.plainOrQuoted($0), value.values[$0]!, indent: indent + 2) }.joined()
    }

    func list(_ key: String, _ items: [String]) -> String {
        let flow = "\(key): [\(items.map { YAMLScalar.plainOrQuoted($0, flow: true) }.joined(separator: ", "))]"
        if flow.count <= Self.flowLimit && !items.contains(where: { $0.contains("\n") }) { return flow + "\n" }
        return "\(key):\n" + items.map { "  - \(YAMLScalar.plainOrQuoted($0))\n" }.joined()
    }

    func media(_ key: String, _ m: MediaReference) -> String {
        var out = "\(key):\n"
        switch m.source {
        case .file(let path): out += text("file", path, indent: 2)
        case .url(let url): out += text("url", url, indent: 2)
        }
        if let credit = m.credit { out += text("credit", credit, indent: 2) }
        if let license = m.license { out += text("license", license, indent: 2) }
        if let source = m.sourceURL { out += text("source", source, indent: 2) }
        if let focus = m.focus { out += text("focus", focus, indent: 2) }
        if let alt = localized("alt", m.alt, indent: 2) { out += alt }
        return out
    }
}

/// How one YAML scalar is written so that any YAML reader gets the same text back.
public enum YAMLScalar {
    /// Indicators that may not start a plain scalar.
    static let leadingIndicators: Set<Unicode.Scalar> = [
        "-", "?", ":", ",", "[", "]", "{", "}", "#", "&", "*", "!", "|", ">", "'", "\"", "%", "@", "`", "+", ".", "~", "=",
        "<",
    ]
    static let flowIndicators: Set<Unicode.Scalar> = [",", "[", "]", "{", "}", ":", "#"]
    /// Words YAML 1.1 or 1.2 reads as booleans or null.
    static let specialWords: Set<String> = ["null", "true", "false", "yes", "no", "on", "off", "y", "n"]

    /// `value` as a plain scalar when that reads back as the same text, else double-quoted.
    /// `flow`: the value sits inside `{…}` or `[…]`, where `,` `[` `]` `{` `}` `:` end a plain scalar.
    public static func plainOrQuoted(_ value: String, flow: Bool = false) -> String {
        isPlainSafe(value, flow: flow) ? value : doubleQuoted(value)
    }

    static func isPlainSafe(_ s: String, flow: Bool) -> Bool {
        let scalars = Array(s.unicodeScalars)
        guard let first = scalars.first, let last = scalars.last else { return false }
        if first == " " || last == " " { return false }
        if leadingIndicators.contains(first) { return false }
        // Numbers, dates and times (`1.0`, `0x1F`, `2024-01-01`, `12:30`) start with a digit.
        if ("0"..."9").contains(first) { return false }
        if specialWords.contains(s.lowercased()) { return false }
        if last == ":" { return false }
        for (i, c) in scalars.enumerated() {
            // `*` anywhere: the loader's YAML guard takes it for an alias outside quotes.
            if needsEscape(c) || c == "\t" || c == "*" { return false }
            if c == ":" && i + 1 < scalars.count && scalars[i + 1] == " " { return false }
            if c == "#" && i > 0 && scalars[i - 1] == " " { return false }
            if flow && (flowIndicators.contains(c) || c == "'" || c == "\"") { return false }
        }
        return true
    }

    /// Characters that only a double-quoted scalar can carry (as an escape).
    static func needsEscape(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        return v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v) || v == 0x2028 || v == 0x2029 || v == 0xFEFF
            || (0xFFFE...0xFFFF).contains(v)
    }

    /// `"…"` with `\"`, `\\`, `\n`, `\t` and `\uXXXX` escapes.
    public static func doubleQuoted(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if needsEscape(c) {
                    let hex = String(c.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out + "\""
    }

    /// The body lines of a `|-` literal block for multi-line `s`, indented by `indent`, or nil when
    /// a literal block could not carry `s` exactly (then it is double-quoted instead).
    static func literalBlock(_ s: String, indent: Int) -> String? {
        guard s.contains("\n") else { return nil }
        let lines = s.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first, let last = lines.last, !first.isEmpty, !last.isEmpty else { return nil }
        if first.hasPrefix(" ") { return nil }
        for line in lines {
            if line.hasSuffix(" ") { return nil }
            if line.unicodeScalars.contains(where: { needsEscape($0) || $0 == "\t" }) { return nil }
        }
        let pad = String(repeating: " ", count: indent)
        return lines.map { $0.isEmpty ? "\n" : pad + $0 + "\n" }.joined()
    }
}
