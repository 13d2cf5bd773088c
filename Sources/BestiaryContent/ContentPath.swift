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

    /// The file under `contentDirectory` that `path` (which names none) most likely meant, or nil.
    /// Each part of the path that its folder lacks is matched to one of the folder's entries: by
    /// case (`images/Cat.webp` → `images/cat.webp`: Linux and most web servers tell them apart,
    /// a Mac's disk does not), by the same name with another extension when only one has it
    /// (`cat.jpg` → `cat.webp`), or by a small misspelling (`sound/cat.ogg` → `sounds/cat.ogg`).
    /// Only on the way to an error: it lists the folders on the path.
    public static func suggestion(for path: String, contentDirectory: String, fileSystem: some FileSystem) -> String? {
        guard lexicalProblem(path) == nil else { return nil }
        let parts = path.split(separator: "/").map(String.init)
        guard !parts.isEmpty, parts.count <= 32 else { return nil }
        var found: [String] = []
        for (i, part) in parts.enumerated() where part != "." {
            let last = i == parts.count - 1
            guard let entries = try? fileSystem.entries(in: ([contentDirectory] + found).joined(separator: "/")) else { return nil }
            let names = entries.filter { last ? $0.kind != .directory : $0.kind != .file }.map(\.name)
            if names.contains(part) {
                found.append(part)
            } else if let match = closeName(part, among: names, lastPart: last) {
                found.append(match)
            } else {
                return nil
            }
        }
        let suggested = found.joined(separator: "/")
        guard suggested != path, fileSystem.infoFollowingLinks(contentDirectory + "/" + suggested)?.kind == .file else { return nil }
        return suggested
    }

    /// How a suggestion from ``suggestion(for:contentDirectory:fileSystem:)`` differs from what was
    /// written, for the message: "did you mean 'images/cat.webp'?", with why a name differing only
    /// in case is not the same name.
    /// `shownAs`: how to name the suggested file, when not by the path itself (`content/…`).
    public static func didYouMean(_ suggested: String, for path: String, shownAs: String? = nil) -> String {
        let caseOnly = suggested.lowercased() == path.lowercased()
        return "did you mean '\(shownAs ?? suggested)'?" + (caseOnly ? " (letters' case counts: the build machine and web servers tell the two names apart)" : "")
    }

    private static func closeName(_ name: String, among names: [String], lastPart: Bool) -> String? {
        let lower = name.lowercased()
        let sameLetters = names.filter { $0.lowercased() == lower }
        if sameLetters.count == 1 { return sameLetters[0] }
        if lastPart {
            func stem(_ n: String) -> Substring { n.lastIndex(of: ".").map { n[..<$0] } ?? Substring(n) }
            let wanted = stem(lower)
            let sameStem = names.filter { stem($0.lowercased()) == wanted && !mediaExtension($0).isEmpty }
            if !wanted.isEmpty, sameStem.count == 1 { return sameStem[0] }
        }
        // A name a letter or two away, where one is clearly meant (two as close: none).
        let close = names.filter { Suggestion.distance(lower, $0.lowercased()) <= max(1, min(2, name.count / 4)) }
        return close.count == 1 ? close[0] : nil
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
