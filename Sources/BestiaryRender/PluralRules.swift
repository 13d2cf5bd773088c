/// The plural category of a whole number in a language, as the browser's `Intl.PluralRules`
/// gives it (CLDR's rules for integers), so that a count the page renders on the server reads
/// as the page's own script later words it (`templates/assets/js/i18n.js`): French says
/// "0 animal" where English says "0 animals", Russian has three forms, Japanese one.
///
/// The languages below carry their CLDR rules; any other language takes English's (`one` for 1,
/// else `other`), as most languages without a rule of their own here do.
/// `PluralRulesTests` compares every one with Node's ICU over a range of counts.
enum PluralRules {
    /// `zero`, `one`, `two`, `few`, `many` or `other` for `count` in `lang` (a BCP 47 tag, any case).
    static func category(_ count: Int, _ lang: String) -> String {
        let tag = lang.lowercased()
        let base = tag.split(separator: "-", maxSplits: 1).first.map(String.init) ?? tag
        let n = count < 0 ? -count : count
        let n10 = n % 10, n100 = n % 100
        let millions = n != 0 && n % 1_000_000 == 0
        switch base {
        case "ja", "zh", "ko", "vi", "th", "id", "ms", "my", "km", "lo", "yue", "jv", "bo", "dz", "ig", "sg", "to", "wo", "yo", "ii":
            return "other"
        case "fr":
            return n <= 1 ? "one" : millions ? "many" : "other"
        case "pt":
            // European Portuguese counts 0 as plural; Brazil's (and plain `pt`) as singular.
            return (tag == "pt-pt" ? n == 1 : n <= 1) ? "one" : millions ? "many" : "other"
        case "es", "it", "ca":
            return n == 1 ? "one" : millions ? "many" : "other"
        case "hi", "bn", "fa", "zu", "am", "gu", "kn", "si", "hy", "ff", "kab", "pa", "ln", "ak", "ti":
            return n <= 1 ? "one" : "other"
        case "is", "mk":
            return n10 == 1 && n100 != 11 ? "one" : "other"
        case "fil", "tl":
            return [4, 6, 9].contains(n10) ? "other" : "one"
        case "he":
            return n == 1 ? "one" : n == 2 ? "two" : "other"
        case "ru", "uk", "be":
            if n10 == 1 && n100 != 11 { return "one" }
            if (2...4).contains(n10) && !(12...14).contains(n100) { return "few" }
            return "many"
        case "pl":
            if n == 1 { return "one" }
            if (2...4).contains(n10) && !(12...14).contains(n100) { return "few" }
            return "many"
        case "cs", "sk":
            return n == 1 ? "one" : (2...4).contains(n) ? "few" : "other"
        case "hr", "sr", "bs", "sh":
            if n10 == 1 && n100 != 11 { return "one" }
            if (2...4).contains(n10) && !(12...14).contains(n100) { return "few" }
            return "other"
        case "lt":
            if (11...19).contains(n100) { return "other" }
            return n10 == 1 ? "one" : n10 >= 2 ? "few" : "other"
        case "lv":
            if n10 == 0 || (11...19).contains(n100) { return "zero" }
            return n10 == 1 ? "one" : "other"
        case "ro":
            return n == 1 ? "one" : n == 0 || (1...19).contains(n100) ? "few" : "other"
        case "sl":
            switch n100 {
            case 1: return "one"
            case 2: return "two"
            case 3, 4: return "few"
            default: return "other"
            }
        case "ar":
            switch n {
            case 0: return "zero"
            case 1: return "one"
            case 2: return "two"
            default: return (3...10).contains(n100) ? "few" : (11...99).contains(n100) ? "many" : "other"
            }
        case "cy":
            switch n {
            case 0: return "zero"
            case 1: return "one"
            case 2: return "two"
            case 3: return "few"
            case 6: return "many"
            default: return "other"
            }
        case "ga":
            switch n {
            case 1: return "one"
            case 2: return "two"
            case 3...6: return "few"
            case 7...10: return "many"
            default: return "other"
            }
        case "gd":
            switch n {
            case 1, 11: return "one"
            case 2, 12: return "two"
            case 3...10, 13...19: return "few"
            default: return "other"
            }
        case "mt":
            if n == 1 { return "one" }
            if n == 2 { return "two" }
            if n == 0 || (3...10).contains(n100) { return "few" }
            return (11...19).contains(n100) ? "many" : "other"
        default:
            return n == 1 ? "one" : "other"
        }
    }
}
