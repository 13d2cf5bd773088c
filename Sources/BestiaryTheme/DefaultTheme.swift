import Foundation

/// The default theme: the files of this repository's `templates/` folder, embedded into the
/// binary at build time by the EmbedTheme plugin. A site's own `templates/` overrides it file by
/// file (DESIGN.md §2).
public enum DefaultTheme {
    /// Every file of the theme by its path relative to `templates/`, e.g. `layouts/animal.html`.
    public static let files: [String: Data] = {
        var result: [String: Data] = [:]
        for (path, encoded) in EmbeddedThemeFiles.base64 {
            result[path] = Data(base64Encoded: encoded)
        }
        return result
    }()

    /// The SHA-256 (hex) of every earlier version of each file, by path: a site's copy with one
    /// of these bytes is an earlier Bestiary's file that its owner never changed
    /// (`scripts/theme_history.py` makes the list from this repository's history).
    public static let earlierDigests: [String: Set<String>] = {
        var result: [String: Set<String>] = [:]
        for line in EarlierThemeFiles.lines.split(separator: "\n") {
            guard let space = line.lastIndex(of: " ") else { continue }
            result[String(line[..<space]), default: []].insert(String(line[line.index(after: space)...]))
        }
        return result
    }()

    /// Paths of the theme, sorted.
    public static var paths: [String] { files.keys.sorted() }
}
