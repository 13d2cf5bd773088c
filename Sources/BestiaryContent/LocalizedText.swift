/// Text in one or more languages, resolved along the site's language list.
public struct LocalizedText: Hashable, Sendable, Codable {
    /// Language code → text.
    public var values: [String: String]

    public init(_ values: [String: String]) {
        self.values = values
    }

    public var isEmpty: Bool { values.isEmpty }

    /// The text in `language`, else the first language of `fallback` that has one; with the
    /// language it is actually in, so pages can mark a fallback (`lang="en"`).
    public func resolve(_ language: String, fallback: [String]) -> (text: String, language: String)? {
        if let text = values[language] { return (text, language) }
        for lang in fallback where lang != language {
            if let text = values[lang] { return (text, lang) }
        }
        if let first = values.keys.sorted().first, let text = values[first] { return (text, first) }
        return nil
    }

    public subscript(language: String) -> String? { values[language] }

    /// Languages present, sorted.
    public var languages: [String] { values.keys.sorted() }
}

/// BCP 47-ish language codes as used in site.yml: `de`, `en`, `pt-BR`, `zh-Hant`.
public enum LanguageCode {
    /// The Wikipedia a site language reads: its code without a region or script (`pt-BR` and
    /// `pt-PT` read pt.wikipedia, `fr-CA` fr.wikipedia, `zh-Hant` zh.wikipedia; there is no
    /// `pt-BR.wikipedia`), in lower case. Wikis whose own code has more parts keep them
    /// (`zh-yue`, `be-tarask`, `zh-min-nan`): a region has 2 letters or 3 digits, a script 4 letters.
    public static func wikipediaCode(_ language: String) -> String {
        let parts = language.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, parts.count > 1 else { return language.lowercased() }
        let kept = parts.dropFirst().filter { part in
            let letters = part.allSatisfy { $0.isASCII && $0.isLetter }, digits = part.allSatisfy { $0.isASCII && $0.isNumber }
            return !((letters && (part.count == 2 || part.count == 4)) || (digits && part.count == 3))
        }
        return ([first] + kept).joined(separator: "-").lowercased()
    }

    /// The site's language `code` means when it is not written as the site writes it: the same
    /// in other capitals (`DE`), else the listed language of which it is a variant (`de-DE`).
    public static func listed(_ code: String, among languages: [String]) -> String? {
        let lower = code.lowercased()
        return languages.first { $0.lowercased() == lower } ?? languages.first { lower.hasPrefix($0.lowercased() + "-") }
    }

    public static func isValid(_ code: String) -> Bool {
        let parts = code.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count),
            first.allSatisfy({ $0.isASCII && $0.isLowercase && $0.isLetter })
        else { return false }
        return parts.dropFirst().allSatisfy { p in
            (2...8).contains(p.count) && p.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }

    /// The code meant by a language's name in English or in itself, or by its three-letter code
    /// where it has a two-letter one (`english`, `Deutsch`, `eng` → `en`); nil for any other.
    /// For "did you mean" only: a site may be in any language.
    public static func meant(byName name: String) -> String? {
        let key = name.lowercased().folding(options: .diacriticInsensitive, locale: nil)
        return commonNames[key]
    }

    private static let commonNames: [String: String] = {
        let table: [(String, [String])] = [
            ("en", ["english", "eng"]), ("de", ["german", "deutsch", "deu", "ger"]), ("fr", ["french", "francais", "fra", "fre"]),
            ("es", ["spanish", "espanol", "castellano", "spa"]), ("it", ["italian", "italiano", "ita"]),
            ("nl", ["dutch", "nederlands", "nld", "dut"]), ("pt", ["portuguese", "portugues", "por"]), ("pl", ["polish", "polski", "pol"]),
            ("sv", ["swedish", "svenska", "swe"]), ("nb", ["norwegian", "norsk", "bokmal", "nob"]), ("da", ["danish", "dansk", "dan"]),
            ("fi", ["finnish", "suomi", "fin"]), ("ru", ["russian", "rus"]), ("uk", ["ukrainian", "ukr"]), ("ja", ["japanese", "jpn"]),
            ("zh", ["chinese", "zho", "chi"]), ("ar", ["arabic", "ara"]), ("tr", ["turkish", "turkce", "tur"]), ("cs", ["czech", "cestina", "ces", "cze"]),
            ("el", ["greek", "ell", "gre"]), ("hu", ["hungarian", "magyar", "hun"]), ("cy", ["welsh", "cymraeg", "cym", "wel"]),
            ("ga", ["irish", "gaeilge", "gle"]), ("ca", ["catalan", "catala", "cat"]), ("ro", ["romanian", "romana", "ron", "rum"]),
            ("he", ["hebrew", "heb"]), ("hi", ["hindi", "hin"]), ("ko", ["korean", "kor"]),
        ]
        return Dictionary(uniqueKeysWithValues: table.flatMap { code, names in names.map { ($0, code) } })
    }()

    /// The language a code with a two-letter language part means when that part is no ISO 639-1
    /// code (`sp`, `jp`, `sp-MX`): a country's code or an old code written for it; `""` for an
    /// unknown one no language is guessed for, nil when the part is a language's code (or has
    /// three letters: ISO 639-2 and 639-3 are too many to list). A translator's `sp` was taken
    /// without a word and published as `<html lang="sp">`, which no screen reader knows.
    public static func unknownTwoLetter(_ code: String) -> String? {
        let first = code.split(separator: "-", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        guard first.count == 2, !twoLetter.contains(first) else { return nil }
        return mistaken[first] ?? ""
    }

    /// ISO 639-1: every two-letter language code.
    static let twoLetter: Set<String> = Set("""
        aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu \
        fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km \
        kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om \
        or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr \
        ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu
        """.split(separator: " ").map(String.init))

    /// Countries' codes and withdrawn codes written for a language.
    private static let mistaken: [String: String] = [
        "sp": "es", "jp": "ja", "cn": "zh", "gr": "el", "cz": "cs", "dk": "da", "ua": "uk", "kr": "ko", "vn": "vi",
        "gb": "en", "us": "en", "iw": "he", "in": "id", "ji": "yi",
    ]

    /// The code meant by one that is not valid (`es_MX` → `es-MX`, `PT-br` → `pt-BR`, `Deutsch` →
    /// `de`), or nil.
    public static func suggestion(for code: String) -> String? {
        // `es_ES`, as locales are written on Linux and in Java: BCP 47 has a hyphen.
        let fixed = usualCase(code.replacingOccurrences(of: "_", with: "-"))
        return isValid(fixed) ? fixed : meant(byName: code)
    }

    /// The code a doubtful one stands for: `sp` → `es` (a country's or a withdrawn code), `eng` →
    /// `en` (three letters where two are used); nil for any other.
    public static func intended(_ code: String) -> String? {
        if let two = unknownTwoLetter(code), !two.isEmpty { return two }
        if code.count == 3, let two = meant(byName: code), two.count == 2 { return two }
        return nil
    }

    /// What is doubtful about a valid code, each said as site.yml and `init --languages` say it:
    /// `en-UK` (no region code), a two-letter code no language has (`sp`), a three-letter code
    /// where a two-letter one is used (`eng`).
    public static func doubts(about code: String) -> [String] {
        var said: [String] = []
        // `en-UK`: the one region code everyone guesses that is none (found by a teacher).
        if code.lowercased().hasSuffix("-uk") {
            said.append("'\(code)': UK is no region code; the United Kingdom's is GB (\(code.dropLast(2))GB)")
        }
        if let meant = unknownTwoLetter(code) {
            let hint = meant.isEmpty ? "" : " (did you mean '\(meant)'?)"
            said.append(
                "'\(code)' is no language code browsers, screen readers and Wikipedia know (ISO 639-1 has no '\(code.prefix(2))')\(hint): pages in it are read aloud in the wrong voice, and its articles are looked up on a Wikipedia there is not")
        }
        // `eng`: a three-letter code where browsers and Wikipedia use the two-letter one.
        if code.count == 3, let two = meant(byName: code), two.count == 2 {
            said.append("'\(code)' is written '\(two)' in the codes browsers, screen readers and Wikipedia use; write '\(two)'")
        }
        return said
    }

    /// `code` in the case BCP 47 writes it: the language lower case, a script title case
    /// (`Hant`), a region upper case (`BR`), the rest lower case (`ZH-hant` → `zh-Hant`).
    public static func usualCase(_ code: String) -> String {
        code.split(separator: "-", omittingEmptySubsequences: false).enumerated().map { i, part in
            if i > 0, part.count == 4, part.allSatisfy(\.isLetter) { return part.prefix(1).uppercased() + part.dropFirst().lowercased() }
            if i > 0, part.count == 2, part.allSatisfy(\.isLetter) { return part.uppercased() }
            return part.lowercased()
        }.joined(separator: "-")
    }
}
