import Foundation

/// What pages need to know about a language beyond its code.
public enum Languages {
    /// The language's own name, for the language switcher.
    public static func endonym(_ code: String) -> String {
        if let name = endonyms[code] { return name }
        let parts = code.split(separator: "-").map(String.init)
        guard let base = parts.first, let name = endonyms[base] ?? icuEndonym(base) else { return code }
        // A variant the list does not name (de-CH): the base's name and the variant's own
        // (`Deutsch (Schweiz)`), so two variants never share a label in the switcher.
        guard parts.count > 1 else { return name }
        let variant = Locale(identifier: base).localizedString(forIdentifier: code).flatMap { full -> String? in
            guard let open = full.firstIndex(of: "("), let close = full.lastIndex(of: ")"), open < close else { return nil }
            return String(full[full.index(after: open)..<close])
        } ?? parts.dropFirst().joined(separator: "-")
        return "\(name) (\(variant))"
    }

    /// The language's own name from ICU's data, for a language the list below does not name
    /// (`rm` Rumantsch, `gsw` Schwiizertüütsch, `lb` Lëtzebuergesch: the switcher showed the
    /// code), its first letter a capital as a label's is; nil where ICU has none.
    static func icuEndonym(_ code: String) -> String? {
        guard let name = Locale(identifier: code).localizedString(forLanguageCode: code), name != code, let first = name.first else { return nil }
        return first.uppercased() + name.dropFirst()
    }

    /// Language code → its own name. Built once: pages ask for it several times each.
    private static let endonyms: [String: String] = [
        "ar": "العربية", "bg": "Български", "ca": "Català", "cs": "Čeština", "da": "Dansk", "de": "Deutsch",
        "el": "Ελληνικά", "en": "English", "eo": "Esperanto", "es": "Español", "et": "Eesti", "fa": "فارسی",
        "fi": "Suomi", "fr": "Français", "ga": "Gaeilge", "he": "עברית", "hi": "हिन्दी", "hr": "Hrvatski",
        "hu": "Magyar", "id": "Bahasa Indonesia", "is": "Íslenska", "it": "Italiano", "ja": "日本語", "ko": "한국어",
        "lt": "Lietuvių", "lv": "Latviešu", "nb": "Norsk bokmål", "nl": "Nederlands", "nn": "Norsk nynorsk",
        "pl": "Polski", "pt": "Português", "pt-BR": "Português (Brasil)", "ro": "Română", "ru": "Русский",
        "sk": "Slovenčina", "sl": "Slovenščina", "sr": "Српски", "sv": "Svenska", "sw": "Kiswahili", "th": "ไทย",
        "tr": "Türkçe", "uk": "Українська", "ur": "اردو", "vi": "Tiếng Việt", "zh": "中文",
        "zh-Hans": "简体中文", "zh-Hant": "繁體中文", "zh-CN": "简体中文", "zh-TW": "繁體中文（台灣）", "zh-HK": "繁體中文（香港）",
        "sr-Latn": "Srpski (latinica)", "sr-Cyrl": "Српски (ћирилица)", "yi": "ייִדיש", "ps": "پښتو", "ckb": "کوردیی ناوەندی",
        "ug": "ئۇيغۇرچە", "sd": "سنڌي", "dv": "ދިވެހި", "ku": "Kurdî", "cy": "Cymraeg", "eu": "Euskara", "gl": "Galego",
        "ms": "Bahasa Melayu", "tl": "Tagalog", "bn": "বাংলা", "ta": "தமிழ்", "mi": "Te Reo Māori",
    ]

    /// The language's name in another language, as a sentence uses it ("auf Englisch", "in
    /// German"): from ICU's data; the language's own name where ICU has none.
    public static func name(_ code: String, in language: String) -> String {
        if code == language { return endonym(code) }
        if let name = Locale(identifier: language).localizedString(forLanguageCode: code), name != code { return name }
        return endonym(code)
    }

    /// Text direction: right-to-left scripts get `rtl`.
    public static func direction(_ code: String) -> String {
        let parts = code.split(separator: "-").map(String.init)
        // A script subtag decides (`pa-Arab`, `az-Arab`; `ku-Latn` is left to right), else the language.
        if let script = parts.dropFirst().first(where: { $0.count == 4 && $0.allSatisfy(\.isLetter) }) {
            return rightToLeftScripts.contains(script.capitalized) ? "rtl" : "ltr"
        }
        return rightToLeft.contains(parts.first ?? code) ? "rtl" : "ltr"
    }

    /// Languages written right to left (in their usual script).
    /// (N'Ko `nqo` was missing: its pages got `dir="ltr"`.)
    private static let rightToLeft: Set<String> = [
        "ar", "fa", "he", "ur", "yi", "ps", "dv", "ckb", "ug", "sd", "arc", "syr", "ks", "nqo", "mzn", "lrc", "azb", "glk", "sdh",
    ]
    /// Scripts written right to left (ISO 15924).
    private static let rightToLeftScripts: Set<String> = ["Arab", "Hebr", "Thaa", "Syrc", "Nkoo", "Adlm", "Rohg", "Mand", "Samr"]
}
