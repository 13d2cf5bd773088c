import Foundation

/// What texts pasted from elsewhere bring with them: an article's web address where its title
/// belongs, and UTF-8 that a spreadsheet read as Windows-1252 ("GroÃŸer Brachvogel").
public enum PastedText {
    /// Commas of other scripts, which YAML and JSON take as letters, with what they are called.
    public static let otherCommas: [Character: String] = [
        "\u{060C}": "the Arabic comma", "\u{FF0C}": "the full-width comma", "\u{3001}": "the ideographic comma",
        "\u{FE50}": "the small comma", "\u{FF64}": "the half-width ideographic comma", "\u{055D}": "the Armenian comma",
        "\u{07F8}": "the N'Ko comma", "\u{1363}": "the Ethiopic comma", "\u{A60D}": "the Vai comma",
    ]

    /// The language and title of a Wikipedia article's address
    /// (`https://de.wikipedia.org/wiki/%C3%84sche` → `("de", "Äsche")`, the mobile site's too);
    /// nil for any other text.
    public static func wikipediaArticle(_ text: String) -> (language: String, title: String)? {
        let lower = text.lowercased()
        guard let scheme = ["https://", "http://"].first(where: { lower.hasPrefix($0) }) else { return nil }
        let rest = text.dropFirst(scheme.count)
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let host = rest[..<slash].lowercased().split(separator: ".")
        guard host.count >= 3, host.suffix(2) == ["wikipedia", "org"], host.count == 3 || (host.count == 4 && host[1] == "m") else { return nil }
        let path = rest[slash...]
        guard path.hasPrefix("/wiki/") else { return nil }
        let encoded = path.dropFirst("/wiki/".count).prefix { $0 != "?" && $0 != "#" }
        guard let decoded = String(encoded).removingPercentEncoding, !decoded.isEmpty else { return nil }
        return (String(host[0]), decoded.replacingOccurrences(of: "_", with: " "))
    }

    /// What a web address in a `wikipedia` title should be: the title, or why it cannot.
    public static func wikipediaAddressAdvice(_ text: String, key: String, language: String) -> String? {
        let lower = text.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return nil }
        guard let article = wikipediaArticle(text) else {
            return "\(key): '\(text)' is a web address; write the title of the article (as it reads at the top of its page)"
        }
        // `pt-BR` reads pt.wikipedia (``LanguageCode/wikipediaCode(_:)``).
        let wiki = LanguageCode.wikipediaCode(language)
        if article.language != wiki {
            return "\(key): '\(text)' is an article of the '\(article.language)' Wikipedia, not of the '\(wiki)' one; write the title of the '\(wiki)' article"
        }
        return "\(key): '\(text)' is the article's web address; write its title instead: wikipedia: {\(language): \(YAMLScalar.plainOrQuoted(article.title, flow: true))}"
    }

    /// The text as it was before UTF-8 was read as Windows-1252 (`GroÃŸer` → `Großer`,
    /// `Å‚` → `ł`, `Ã\u{81}guila` → `Águila`), when it holds such a misreading: a UTF-8 lead byte
    /// shown as a letter U+00C2…U+00F4 followed by a continuation byte shown as U+0080…U+00BF or
    /// one of Windows-1252's characters there, and all of it reads back as UTF-8 (which no
    /// text in Portuguese, French or Vietnamese written as meant does).
    public static func misreadUTF8(_ text: String) -> String? {
        // Cheap first: a lead byte's letter is C3 82…C3 B4 in UTF-8.
        var previous: UInt8 = 0
        guard text.utf8.contains(where: { b in defer { previous = b }; return previous == 0xC3 && (0x82...0xB4).contains(b) }) else { return nil }
        let scalars = Array(text.unicodeScalars)
        func byte(_ scalar: Unicode.Scalar) -> UInt8? {
            // U+0080…U+009F: the bytes Windows-1252 leaves undefined (0x81, 0x8D, …) come through as themselves.
            scalar.value <= 0xFF ? UInt8(scalar.value) : cp1252[scalar.value]
        }
        let telltale = zip(scalars, scalars.dropFirst()).contains { a, b in
            (0xC2...0xF4).contains(a.value) && byte(b).map { (0x80...0xBF).contains($0) } == true
        }
        guard telltale else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(scalars.count)
        for scalar in scalars {
            guard let b = byte(scalar) else { return nil }
            bytes.append(b)
        }
        guard let original = String(validating: bytes, as: UTF8.self), original != text else { return nil }
        return original
    }

    /// Windows-1252's characters at 0x80–0x9F, by the scalar they show as.
    static let cp1252: [UInt32: UInt8] = [
        0x20AC: 0x80, 0x201A: 0x82, 0x0192: 0x83, 0x201E: 0x84, 0x2026: 0x85, 0x2020: 0x86, 0x2021: 0x87, 0x02C6: 0x88,
        0x2030: 0x89, 0x0160: 0x8A, 0x2039: 0x8B, 0x0152: 0x8C, 0x017D: 0x8E, 0x2018: 0x91, 0x2019: 0x92, 0x201C: 0x93,
        0x201D: 0x94, 0x2022: 0x95, 0x2013: 0x96, 0x2014: 0x97, 0x02DC: 0x98, 0x2122: 0x99, 0x0161: 0x9A, 0x203A: 0x9B,
        0x0153: 0x9C, 0x017E: 0x9E, 0x0178: 0x9F,
    ]

    /// Characters pasted along with a text that a page shows as nothing (or a tab, as a space):
    /// the site's search, sorting and the quiz's typed answers see them all the same.
    static let unseen: Set<UInt32> = [0x200B, 0x2060, 0xFEFF, 0x09]

    /// Characters that show as nothing or as a space, by name (an id holding one reads as if it
    /// did not: "'baer' must be … e.g. 'baer'"); `unseen` are those a text is warned of.
    public static let invisibleNames: [UInt32: String] = [
        0xFEFF: "a byte-order mark", 0x00A0: "a no-break space", 0x200B: "a zero-width space", 0x2060: "a word joiner",
        0x00AD: "a soft hyphen", 0x200C: "a zero-width non-joiner", 0x200D: "a zero-width joiner", 0x0009: "a tab",
    ]

    /// Whether `scalar` shows as nothing or as a space other than U+0020.
    public static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        invisibleNames[scalar.value] != nil || (scalar.value > 0x7F && scalar.properties.isWhitespace)
    }

    /// Scripts written without spaces, where a zero-width space marks where a line may break
    /// (Thai, Lao, Tibetan, Myanmar, Khmer): there it is meant.
    static func breaksWithZeroWidthSpaces(_ text: String) -> Bool {
        text.unicodeScalars.contains { (0x0E00...0x0FFF).contains($0.value) || (0x1000...0x109F).contains($0.value) || (0x1780...0x17FF).contains($0.value) }
    }

    /// The warning for a text holding such a character, or nil.
    public static func unseenWarning(_ text: String, what: String) -> String? {
        // Cheap first: a tab, or the lead bytes of U+2060, U+200B (E2) and U+FEFF (EF).
        guard text.utf8.contains(where: { $0 == 0x09 || $0 == 0xE2 || $0 == 0xEF }) else { return nil }
        let zeroWidthMeant = breaksWithZeroWidthSpaces(text)
        guard let index = text.unicodeScalars.firstIndex(where: { unseen.contains($0.value) && !(zeroWidthMeant && $0.value == 0x200B) }) else { return nil }
        let scalar = text.unicodeScalars[index]
        return "\(what) '\(excerpt(text, at: index, showing: { unseen.contains($0.value) }))' holds U+\(String(format: "%04X", scalar.value)) (\(invisibleNames[scalar.value]!)), which a page shows as \(scalar == "\t" ? "a space" : "nothing") but search and typed answers see; remove it"
    }

    /// The text around `index` on one line, at most about 40 characters, with the characters
    /// `shown` (those a reader cannot see) written as `\u{…}`.
    static func excerpt(_ text: String, at index: String.UnicodeScalarView.Index, showing shown: (Unicode.Scalar) -> Bool) -> String {
        let scalars = text.unicodeScalars
        let lineStart = scalars[..<index].lastIndex(where: { $0 == "\n" }).map { scalars.index(after: $0) } ?? scalars.startIndex
        let lineEnd = scalars[index...].firstIndex(of: "\n") ?? scalars.endIndex
        let from = scalars.index(index, offsetBy: -20, limitedBy: lineStart) ?? lineStart
        let to = scalars.index(index, offsetBy: 20, limitedBy: lineEnd) ?? lineEnd
        let part = scalars[from..<to].map { shown($0) ? String(format: "\\u{%04X}", $0.value) : String($0) }.joined()
        return (from > scalars.startIndex ? "…" : "") + part + (to < scalars.endIndex ? "…" : "")
    }

    /// The warning for a misread text, or nil: the first misread word, and what it was.
    public static func misreadWarning(_ text: String, what: String) -> String? {
        guard misreadUTF8(text) != nil else { return nil }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        let shown = words.lazy.compactMap { word in misreadUTF8(String(word)).map { (String(word), $0) } }.first
        let example = shown.map { "'\($0.0)' was '\($0.1)'" } ?? "'\(text.prefix(40))'"
        return "\(what) looks like UTF-8 read as Windows-1252 (as a spreadsheet opens a CSV it was not told is UTF-8): \(example); mend it here, and in the file it came from"
    }
}
