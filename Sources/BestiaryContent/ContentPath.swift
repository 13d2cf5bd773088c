import BestiaryStorage

/// Checks that a path written in a record stays inside `content/` (DESIGN.md §2: no `..`, no
/// absolute paths, no symbolic links that lead out).
public enum ContentPath {
    public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
        case empty
        case absolute
        case parentReference
        case backslash
        case missing
        case notAFile
        case leavesContent(String)

        public var description: String {
            switch self {
            case .empty: "path is empty"
            case .absolute: "path must be relative to content/, not absolute"
            case .parentReference: "path must not contain '..' (it must stay inside content/)"
            case .backslash: "use '/' in paths, not '\\'"
            case .missing: "no such file under content/"
            case .notAFile: "is a directory, not a file"
            case .leavesContent(let target): "is a symbolic link that leads out of content/ (to \(target))"
            }
        }
    }

    /// The extension a media path names: its last part between dots, lowercased, dots at the end
    /// passed over (`cat.OGG.` is `ogg`); "" when it has no two parts (`cat`, `.ogg`). The record's
    /// check of its media reference and the loader's check of the file's bytes both read it here.
    public static func mediaExtension(_ path: String) -> String {
        var core = Substring(path)
        while core.last == "." { core = core.dropLast() }
        guard let dot = core.lastIndex(of: "."), core[..<dot].contains(where: { $0 != "." }) else { return "" }
        return core[core.index(after: dot)...].lowercased()
    }

    /// Lexical checks that need no file system.
    public static func lexicalProblem(_ path: String) -> Problem? {
        if path.isEmpty { return .empty }
        if path.hasPrefix("/") || path.hasPrefix("~") || (path.count > 1 && path.dropFirst().first == ":") { return .absolute }
        if path.contains("\\") { return .backslash }
        if path.split(separator: "/").contains("..") { return .parentReference }
        return nil
    }

    /// Full check: lexical, then existence, then that every link on the way resolves inside
    /// `contentRealPath` (the real path of the content folder).
    public static func problem(
        _ path: String, contentDirectory: String, contentRealPath: String, fileSystem: some FileSystem
    ) -> Problem? {
        if let p = lexicalProblem(path) { return p }
        let full = contentDirectory + "/" + path
        guard let info = fileSystem.infoFollowingLinks(full) else { return .missing }
        if info.kind == .directory { return .notAFile }
        guard let real = try? fileSystem.realPath(full) else { return .missing }
        if !(real.hasPrefix(contentRealPath + "/")) { return .leavesContent(real) }
        return nil
    }
}
