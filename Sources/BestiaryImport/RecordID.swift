import BestiaryContent
import Foundation

/// Record ids `[a-z0-9_-]{1,64}` from a source's own stable key (a storage path, an API id, a breed
/// key): each format says which keys are valid, and an invalid key is an error, never turned into
/// some id (a guess could change with the next release, or give two entries one id). Deterministic:
/// the same key gives the same id on every machine, so importing again finds the record it made.
/// Never used on display names: a renamed animal keeps its id. ``Animal/suggestedID(_:)`` only suggests ids.
public enum RecordID {
    /// The id for a WildSound `storagePath` (`sounds/Fuchs.mp3` → `fuchs`), or why there is none.
    ///
    /// The file name without its folders and its extension (1–5 letters or digits after the last
    /// `.`) is the id, with two changes only: it is lowercased, and `ä ö ü ß` are spelt `ae oe ue ss`
    /// (the app was German: `Rötelmaus.mp3` → `roetelmaus`). Anything else that is not an id
    /// character (`a-z 0-9 _ -`) — a space, a dot, an accent, `!` — is a problem, not something to
    /// guess around: the path is the key the app synced by, and two guesses could meet.
    public static func fromStoragePath(_ path: String) -> Result<String, IDProblem> {
        if path.trimmingCharacters(in: .whitespacesAndNewlines) != path {
            return .failure(IDProblem("it begins or ends with white space; the path is the key the app synced by and is used as written"))
        }
        if path.hasSuffix("/") { return .failure(IDProblem("it names a folder, not a file")) }
        var name = Substring(path)
        if let slash = name.lastIndex(of: "/") { name = name[name.index(after: slash)...] }
        if let dot = name.lastIndex(of: ".") {
            let ext = name[name.index(after: dot)...]
            if !ext.isEmpty && ext.count <= 5 && ext.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }) {
                name = name[..<dot]
                if name.isEmpty { return .failure(IDProblem("the file name has nothing before its extension '.\(ext)'")) }
            }
        }
        var id = ""
        for ch in String(name).precomposedStringWithCanonicalMapping.lowercased() {
            if let t = germanSpellings[ch] { id += t } else { id.append(ch) }
        }
        guard Animal.isValidID(id) else {
            let bad = id.first { !Animal.isValidID(String($0)) }
            let what = bad.map { "'\($0)' is not an id character" } ?? (id.isEmpty ? "it is empty" : "it is longer than 64 characters")
            let suggestion = Animal.suggestedID(String(name))
            return .failure(IDProblem(
                "the file name '\(name)' is not a record id: \(what). The id is the file name without folders and extension, "
                    + "lowercased and with ä, ö, ü, ß spelt ae, oe, ue, ss, and must then be 1–64 characters of a-z, 0-9, '_' and '-'; "
                    + "it is the key the app synced by, so nothing else is guessed: rename the file in the source"
                    + (Animal.isValidID(suggestion) && suggestion != id ? ", e.g. to '\(suggestion)'" : "")))
        }
        return .success(id)
    }

    /// The only letters a WildSound file name may hold beyond `a-z`: German spellings.
    static let germanSpellings: [Character: String] = ["ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"]

    /// A species API id (`7` or `"7"`, a whole number from 1 without leading zeros) as the record
    /// id `nuthatch-7`, or why it is none. Nothing is made of anything else: `-3`, `1.5`, `1e3`,
    /// `"Great Tit"` are not the API's ids.
    public static func fromNuthatchID(_ value: JSONValue) -> Result<String, IDProblem> {
        let digits: String
        switch value {
        case .number(let n, _): digits = n
        case .string(let s, _): digits = s
        default: return .failure(IDProblem("'id' must be the API's species number (7 or \"7\"), not \(value.kindName)"))
        }
        let shown: String
        if case .string = value { shown = "\"\(digits)\"" } else { shown = digits }
        let isNumber = !digits.isEmpty && digits.utf8.allSatisfy { (48...57).contains($0) } && digits.first != "0"
        guard isNumber else {
            return .failure(IDProblem(
                "id \(shown) is not a species id: the API's ids are whole numbers from 1, written 7 or \"7\" (no sign, fraction, exponent or leading zero); "
                    + "the record id is made from it as \(NuthatchReader.idPrefix)ID, so nothing else is guessed"))
        }
        let id = NuthatchReader.idPrefix + digits
        guard Animal.isValidID(id) else {
            return .failure(IDProblem("id \(shown) is too long: the record id \(NuthatchReader.idPrefix)ID may have at most 64 characters"))
        }
        return .success(id)
    }

    /// Is `key` a Dog CEO breed or sub-breed key? The API's keys are lowercase letters `a-z` run
    /// together (`germanshepherd`); they are the ids as they are.
    public static func isDogCEOKey(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.allSatisfy { (97...122).contains($0) }
    }
}

/// Why a source's key gives no record id; the message is for the user.
public struct IDProblem: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
