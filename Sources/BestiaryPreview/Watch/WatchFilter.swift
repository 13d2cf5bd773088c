/// Decides which file-system events are worth a rebuild: editors' swap, backup and temporary
/// files, hidden files, and files the build itself writes are not.
public struct WatchFilter: Sendable {
    /// Root-relative paths the build writes itself (watching them would rebuild forever). None by
    /// default: the preview never records pack versions, so `content/packs.lock` changes only by
    /// another hand (`git checkout`, a `bestiary build`), and the preview's packs follow it (they
    /// went on from the old one until the next edit: found by a tester).
    public var ignoredPaths: Set<String>

    public init(ignoredPaths: Set<String> = []) {
        self.ignoredPaths = ignoredPaths
    }

    /// True when a change at `path` (relative to the site root) should not trigger a rebuild.
    public func ignores(_ path: String) -> Bool {
        if ignoredPaths.contains(path) { return true }
        return path.split(separator: "/").contains { Self.isJunkName(String($0)) }
    }

    /// Names that editors and tools create next to the real file while saving.
    ///
    /// - hidden files and folders: vim swap files (`.x.md.swp`), emacs locks (`.#x.md`), gedit's
    ///   `.goutputstream-*`, kate's `.x.kate-swp`, LibreOffice's `.~lock.*#`, `.DS_Store`, `.git`;
    ///   the content loader and the theme skip hidden files too;
    /// - backups and autosaves: `x.md~`, `#x.md#`, `x.md.bak`, `x.md.orig`;
    /// - temporary files: vim's `4913` probe, `*.swp`/`*.swx`/`*.swo`, `*.tmp`, JetBrains'
    ///   `*___jb_tmp___`/`*___jb_old___`, Chrome's `*.crswap`, `*.part`, Qt's and KDE's (Kate's)
    ///   `x.md.aBcDeF` (six letters or digits after a file's own extension), and Bestiary's own
    ///   atomic writes `x.tmp-PID-N`.
    public static func isJunkName(_ name: String) -> Bool {
        if name.isEmpty { return false }
        if name.hasPrefix(".") || name.hasSuffix("~") { return true }
        if name.hasPrefix("#") && name.hasSuffix("#") { return true }
        if name == "4913" { return true }
        let lower = name.lowercased()
        for suffix in [".swp", ".swx", ".swo", ".tmp", ".bak", ".orig", ".part", ".crswap", "___jb_tmp___", "___jb_old___"]
        where lower.hasSuffix(suffix) {
            return true
        }
        if lower.contains(".tmp-") { return true }
        return isQtSaveFile(name)
    }

    /// `cat.md.aBcDeF`: QSaveFile's temporary name, the file's own name and six random letters
    /// or digits, renamed over the file when the save is done.
    static func isQtSaveFile(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, let random = parts.last, random.count == 6,
            random.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        else { return false }
        return ["md", "yml", "yaml", "json", "html", "css", "js", "svg", "txt"].contains(parts[parts.count - 2].lowercased())
    }
}
