import BestiaryContent

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
        return EditorFiles.isUnderLeftover(path)
    }

    /// Names that editors and tools create next to the real file while saving
    /// (``EditorFiles/isLeftover(_:)``: the content loader and the theme skip them too).
    public static func isJunkName(_ name: String) -> Bool { EditorFiles.isLeftover(name) }
}
