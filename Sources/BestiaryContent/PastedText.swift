import Foundation

/// What texts pasted from elsewhere bring with them: an article's web address where its title
/// belongs, and UTF-8 that a spreadsheet read as Windows-1252 ("GroÃŸer Brachvogel").
public enum PastedText {
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
        if article.language != language {
            return "\(key): '\(text)' is an article of the '\(article.language)' Wikipedia, not of the '\(language)' one; write the title of the '\(language)' article"
        }
        return "\(key): '\(text)' is the article's web address; write its title instead: wikipedia: {\(language): \(YAMLScalar.plainOrQuoted(article.title, flow: true))}"
    }

    /// The text as it was before UTF-8 was read as Windows-1252 (`GroÃŸer` → `Großer`), when it
    /// holds such a misreading: a sequence only it makes (`Ã` before `Ÿ`, `Â°`, `â€™`), and all
    /// of it reads back as UTF-8.
    public static func misreadUTF8(_ text: String) -> String? {
        // Cheap first: the misreadings start with Ã, Â or â (C3 83, C3 82, C3 A2).
        var utf8 = text.utf8.makeIterator()
        var seen = false
        var lead = false
        while let b = utf8.next() {
            if lead, b == 0x83 || b == 0x82 || b == 0xA2 { seen = true; break }
            lead = b == 0xC3
        }
        guard seen else { return nil }
        let scalars = Array(text.unicodeScalars)
        let telltale = zip(scalars, scalars.dropFirst()).contains { a, b in
            switch a.value {
            case 0xC3: return (0xA0...0xBF).contains(b.value) || cp1252[b.value] != nil
            case 0xC2: return (0xA0...0xBF).contains(b.value)
            case 0xE2: return b.value == 0x20AC  // "â€": ’ “ ” – … misread
            default: return false
            }
        }
        guard telltale else { return nil }
        var bytes: [UInt8] = []
        for scalar in scalars {
            if scalar.value < 0x80 || (0xA0...0xFF).contains(scalar.value) {
                bytes.append(UInt8(scalar.value))
            } else if let byte = cp1252[scalar.value] {
                bytes.append(byte)
            } else {
                return nil
            }
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
    static let unseen: [UInt32: String] = [0x200B: "a zero-width space", 0x2060: "a word joiner", 0xFEFF: "a byte-order mark", 0x09: "a tab"]

    /// The warning for a text holding such a character, or nil.
    public static func unseenWarning(_ text: String, what: String) -> String? {
        // Cheap first: a tab, or the lead bytes of U+2060, U+200B (E2) and U+FEFF (EF).
        guard text.utf8.contains(where: { $0 == 0x09 || $0 == 0xE2 || $0 == 0xEF }),
              let scalar = text.unicodeScalars.first(where: { unseen[$0.value] != nil }) else { return nil }
        let shown = text.unicodeScalars.map { unseen[$0.value] == nil ? String($0) : String(format: "\\u{%04X}", $0.value) }.joined()
        return "\(what) '\(shown)' holds U+\(String(format: "%04X", scalar.value)) (\(unseen[scalar.value]!)), which a page shows as \(scalar == "\t" ? "a space" : "nothing") but search and typed answers see; remove it"
    }

    /// The warning for a misread text, or nil.
    public static func misreadWarning(_ text: String, what: String) -> String? {
        guard let original = misreadUTF8(text) else { return nil }
        return "\(what) '\(text)' looks like UTF-8 read as Windows-1252 (as a spreadsheet opens a CSV it was not told is UTF-8): did you mean '\(original)'? Mend it here, and in the file it came from"
    }
}
