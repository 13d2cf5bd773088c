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

    /// Paths of the theme, sorted.
    public static var paths: [String] { files.keys.sorted() }
}
