import BestiaryContent
import Foundation

/// Turns a source's own stable key (a storage path, an API id, a breed key) into a record id
/// `[a-z0-9_-]{1,64}`. Deterministic: the same key gives the same id on every machine, so importing
/// again finds the record it made. Never used on display names: a renamed animal keeps its id.
public enum RecordID {
    /// Letters that `folding(.diacriticInsensitive)` leaves alone or would fold badly.
    static let transliterations: [Character: String] = [
        "ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "å": "a", "ł": "l", "đ": "d",
        "ð": "d", "þ": "th", "ı": "i",
    ]

    /// `Schwarzspecht 2` → `schwarzspecht-2`, `Rötelmaus` → `roetelmaus`, `Amsel_männlich` →
    /// `amsel_maennlich`. Runs of other characters become one `-`; the result is trimmed of `-` and
    /// cut to 64 characters. Empty when nothing usable is left (a key in a non-Latin script).
    public static func slug(_ key: String) -> String {
        var out = ""
        for ch in key.lowercased() {
            if let t = transliterations[ch] {
                out += t
                continue
            }
            let folded = String(ch).folding(options: [.diacriticInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
            for scalar in folded.unicodeScalars {
                let c = Character(scalar)
                if ("a"..."z").contains(c) || ("0"..."9").contains(c) || c == "_" || c == "-" {
                    out.append(c)
                } else if out.last != "-" {
                    out.append("-")
                }
            }
        }
        var id = Substring(out)
        while id.contains("--") { id = Substring(id.replacingOccurrences(of: "--", with: "-")) }
        id = id.drop { $0 == "-" }
        while id.last == "-" { id.removeLast() }
        if id.count > 64 {
            id = id.prefix(64)
            while id.last == "-" { id.removeLast() }
        }
        return String(id)
    }

    /// The id for a WildSound `storagePath` (`sounds/Fuchs.mp3` → `fuchs`): the file name without
    /// folders and without its extension, as a slug. A path is the key the app synced by; its folder
    /// only says where the bucket kept the file.
    public static func fromStoragePath(_ path: String) -> String {
        var name = Substring(path.trimmingCharacters(in: .whitespaces))
        while name.last == "/" { name.removeLast() }
        if let slash = name.lastIndex(of: "/") { name = name[name.index(after: slash)...] }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            let ext = name[name.index(after: dot)...]
            if !ext.isEmpty && ext.count <= 5 && ext.allSatisfy({ $0.isLetter || $0.isNumber }) { name = name[..<dot] }
        }
        return slug(String(name))
    }
}
