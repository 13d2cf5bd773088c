/// Files that editors and tools leave next to the real one while saving, or keep as backups:
/// never a record, a page or a theme's file, and no change worth a rebuild. The content loader,
/// the theme and the preview's watcher all pass them over (the loader warned about `owl.md~` on
/// every build, all day, where the watcher and the theme said nothing).
public enum EditorFiles {
    /// Names that editors and tools create next to the real file while saving.
    ///
    /// - hidden files and folders: vim swap files (`.x.md.swp`), emacs locks (`.#x.md`), gedit's
    ///   `.goutputstream-*`, kate's `.x.kate-swp`, LibreOffice's `.~lock.*#`, `.DS_Store`, `.git`;
    /// - backups and autosaves: `x.md~`, `#x.md#`, `x.md.bak`, `x.md.orig`;
    /// - temporary files: vim's `4913` probe, `*.swp`/`*.swx`/`*.swo`, `*.tmp`, JetBrains'
    ///   `*___jb_tmp___`/`*___jb_old___`, Chrome's `*.crswap`, `*.part`, Qt's and KDE's (Kate's)
    ///   `x.md.aBcDeF` (six letters or digits after a file's own extension), and Bestiary's own
    ///   atomic writes `x.tmp-PID-N`.
    public static func isLeftover(_ name: String) -> Bool {
        if name.isEmpty { return false }
        // A record's name (10,000 of them each build): only these rules can hold for it.
        if name.hasSuffix(".md") { return isLeftoverRecord(name.utf8) }
        if name.hasPrefix(".") || name.hasSuffix("~") { return true }
        if name.hasPrefix("#") && name.hasSuffix("#") { return true }
        if name == "4913" { return true }
        let lower = name.lowercased()
        // (nano's emergency `x.save`, Kate's swap file when not hidden, `x.kate-swp`: published
        // into a designer's output as `assets/css/site.css.HASH.save`.)
        for suffix in [".swp", ".swx", ".swo", ".tmp", ".bak", ".orig", ".part", ".crswap", ".save", ".kate-swp", "___jb_tmp___", "___jb_old___"]
        where lower.hasSuffix(suffix) {
            return true
        }
        if lower.contains(".tmp-") { return true }
        return isQtSaveFile(name)
    }

    /// Whether any part of `path` (folders too: `.drafts/owl.md`, `.git/…`) is a leftover, as
    /// the preview's watcher judges a path: the loader and the theme skip what it ignores.
    public static func isUnderLeftover(_ path: some StringProtocol) -> Bool {
        // A record's name in its folder (10,000 each build): no parts split out.
        if isPlainMarkdownName(path.utf8) { return isLeftoverRecord(path.utf8) }
        return path.split(separator: "/").contains { part in
            // A record's name without a string made of it (each of 10,000 records, each build).
            part.hasSuffix(".md") ? isLeftoverRecord(part.utf8) : isLeftover(String(part))
        }
    }

    /// Whether `name` is a Markdown file's name as nearly every record's is (`owl.md`): ASCII, no
    /// folder in it, and more than its `.md` ending. The loader and ``isUnderLeftover(_:)`` take
    /// such a name by its bytes, without splitting it into parts.
    static func isPlainMarkdownName(_ name: some Collection<UInt8>) -> Bool {
        name.count > 3 && name.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "/") } && name.suffix(3).elementsEqual(".md".utf8)
    }

    /// What Bestiary's own atomic writes put in a file's name (``isLeftoverRecord(_:)``).
    private static let atomicWriteMarker: [UInt8] = Array(".tmp-".utf8)

    /// ``isLeftover(_:)`` of a name ending in `.md`: hidden, or one of Bestiary's own atomic
    /// writes (`.tmp-` in it).
    private static func isLeftoverRecord(_ name: some Collection<UInt8>) -> Bool {
        if name.first == UInt8(ascii: ".") { return true }
        let marker = atomicWriteMarker
        var matched = 0
        for byte in name {
            if byte == marker[matched] {
                matched += 1
                if matched == marker.count { return true }
            } else {
                matched = byte == marker[0] ? 1 : 0
            }
        }
        return false
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
