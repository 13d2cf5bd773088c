import Foundation

/// What pages need to know about a language beyond its code.
public enum Languages {
    /// The language's own name, for the language switcher.
    public static func endonym(_ code: String) -> String {
        if let name = endonyms[code] { return name }
        if let base = code.split(separator: "-").first, let name = endonyms[String(base)] { return name }
        return code
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
        let base = code.split(separator: "-").first.map(String.init) ?? code
        return rightToLeft.contains(base) ? "rtl" : "ltr"
    }

    /// Languages written right to left.
    private static let rightToLeft: Set<String> = ["ar", "fa", "he", "ur", "yi", "ps", "dv", "ckb"]
}
