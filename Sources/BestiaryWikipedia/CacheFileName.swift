import BestiaryStorage
import Foundation

/// File names for cache entries that are safe for any title on any file system.
///
/// Titles may hold `/`, `:`, `?`, non-Latin scripts, and differ only in case (`Dog`, `DOG`),
/// which collide on case-insensitive file systems (macOS, Windows). A name is a readable ASCII
/// slug (lower case, diacritics removed, at most 48 characters, possibly empty for Hebrew or
/// Chinese titles) followed by 16 hex digits of the SHA-256 of the exact language and title.
/// The hash keeps names distinct; the slug keeps `git status` readable. Names stay far below
/// the 255-byte limit and never are a reserved Windows name.
public enum CacheFileName {
    public static let maxSlugLength = 48

    /// `rotfuchs-3f2a…` (no extension).
    public static func stem(language: String, canonicalTitle: String) -> String {
        let digest = Hashing.sha256Hex(language + "\n" + canonicalTitle).prefix(16)
        let s = slug(canonicalTitle)
        return s.isEmpty ? String(digest) : s + "-" + digest
    }

    /// Lower-case ASCII letters and digits, other runs as one `-`.
    public static func slug(_ title: String) -> String {
        let folded = title.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        var out = ""
        var pendingDash = false
        for scalar in folded.unicodeScalars {
            let v = scalar.value
            let isAlnum = (0x30...0x39).contains(v) || (0x61...0x7A).contains(v) || (0x41...0x5A).contains(v)
            if isAlnum {
                if pendingDash && !out.isEmpty { out.append("-") }
                pendingDash = false
                out += String(scalar).lowercased()
                if out.utf8.count >= maxSlugLength { break }
            } else {
                pendingDash = true
            }
        }
        return out
    }

    /// A language code as a folder name: lower case (so `pt-BR` and `pt-br` are one folder).
    public static func languageFolder(_ language: String) -> String {
        language.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }
}
