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
}
