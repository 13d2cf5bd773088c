#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Path arithmetic on strings. `NSString`'s `deletingLastPathComponent` traps in this system's
/// Foundation for a one-character name (`"z"`, `"z/"`): `bestiary build --output z` crashed, and
/// so did `--output q/site` with `q` missing, whose folders are walked up (found by a CI
/// maintainer). Nothing here touches the file system.
public enum PathText {
    /// The folder part of `path`, as `deletingLastPathComponent` gives it: "" for a bare name
    /// (`z`, `z/`), "/" for a name at the root, trailing and doubled slashes ignored
    /// (`q//site/` → `q`).
    public static func parent(_ path: String) -> String {
        var name = Substring(path)
        while name.count > 1, name.hasSuffix("/") { name = name.dropLast() }
        guard let slash = name.lastIndex(of: "/") else { return "" }
        var folder = name[..<slash]
        while folder.count > 1, folder.hasSuffix("/") { folder = folder.dropLast() }
        return folder.isEmpty ? "/" : String(folder)
    }

    /// Whether `a` and `b` are the same bytes. `==` (a dictionary's keys too) compares strings
    /// by canonical equivalence: a file's name in composed (NFC) and decomposed (NFD) form is one
    /// string to Swift and two names to the file system.
    public static func sameBytes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in x.count == y.count && (x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0) }
        }
    }
}
