import BestiaryStorage
import Foundation

/// Checks that a path written in a record stays inside `content/` (DESIGN.md §2: no `..`, no
/// absolute paths, no symbolic links that lead out).
public enum ContentPath {
    public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
        case empty
        case absolute
        /// `C:\Users\anna\toad.jpg`, `\\server\share\toad.jpg`: the file's name.
        case windowsPath(String)
        case parentReference
        case backslash
        case missing
        /// A symbolic link is there, but what it leads to is not (or the links go round).
        case danglingLink
        case notAFile
        case leavesContent(String)

        public var description: String {
            switch self {
            case .empty: "path is empty"
            case .absolute: "path must be relative to content/, not absolute"
            case .windowsPath(let name):
                "is where the file is on a Windows computer, which the build cannot read; copy the file into content/ (content/images/, say) and write its path from there, such as images/\(name)"
            case .parentReference: "path must not contain '..' (it must stay inside content/)"
            case .backslash: "use '/' in paths, not '\\'"
            case .missing: "no such file under content/"
            case .danglingLink: "is a symbolic link that leads nowhere (what it names is missing, or the links go round); link it to the file again, or name the file itself"
            case .notAFile: "is a directory, not a file"
            case .leavesContent(let target): "is a symbolic link that leads out of content/ (to \(target))"
            }
        }
    }

    /// The file's name, when `path` is a Windows path with a drive or a server (`C:\…\toad.jpg`,
    /// `D:/photos/toad.jpg`, `\\server\share\toad.jpg`): copied from Explorer into a record or a
    /// spreadsheet, where "use '/' in paths" would not help.
    public static func windowsFileName(_ path: String) -> String? {
        let scalars = Array(path.unicodeScalars.prefix(3))
        let drive = scalars.count == 3 && scalars[0].isASCII && CharacterSet.letters.contains(scalars[0]) && scalars[1] == ":"
            && (scalars[2] == "\\" || scalars[2] == "/")
        guard drive || path.hasPrefix("\\\\") else { return nil }
        return path.split(whereSeparator: { $0 == "\\" || $0 == "/" }).last.map(String.init)
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
        // Nearly every path a record names (10,000 a build on the bench corpus) is plain: said so
        // by one pass over its bytes, without the checks below that split it and count its characters.
        if isPlainRelative(path) { return nil }
        return anyLexicalProblem(path)
    }

    /// Whether `path` has none of the problems below, seen from its bytes alone: printable ASCII,
    /// not empty, no `:` or `\` anywhere, not starting with `/` or `~`, and no `..` part. False
    /// says only that the full checks must decide.
    static func isPlainRelative(_ path: String) -> Bool {
        let bytes = path.utf8
        guard let first = bytes.first, first != UInt8(ascii: "/"), first != UInt8(ascii: "~") else { return false }
        // The length of the part the pass is in, and how many of its bytes are dots.
        var length = 0, dots = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "/"):
                if length == 2 && dots == 2 { return false }
                length = 0
                dots = 0
                continue
            case UInt8(ascii: ":"), UInt8(ascii: "\\"): return false
            case UInt8(ascii: "."): dots += 1
            case 0x20...0x7E: break
            default: return false
            }
            length += 1
        }
        return !(length == 2 && dots == 2)
    }

    /// The checks of ``lexicalProblem(_:)`` for any path.
    static func anyLexicalProblem(_ path: String) -> Problem? {
        if path.isEmpty { return .empty }
        if let name = windowsFileName(path) { return .windowsPath(name) }
        if path.hasPrefix("/") || path.hasPrefix("~") || (path.count > 1 && path.dropFirst().first == ":") { return .absolute }
        if path.contains("\\") { return .backslash }
        if path.split(separator: "/").contains("..") { return .parentReference }
        return nil
    }

    /// The media file under `contentDirectory` that `path` (which names none) most likely meant,
    /// or nil. Each part of the path that its folder lacks is matched to one of the folder's
    /// entries, when exactly one fits:
    /// - a folder by case or by a letter or two (`Sound/`, `sound/` → `sounds/`);
    /// - a file by case (`images/Cat.webp` → `images/cat.webp`: Linux and most web servers tell
    ///   them apart, a Mac's disk does not), by its extension (`cat.jpg` → `cat.webp`), by
    ///   `-`, `_` and spaces (`red_fox.ogg` → `red-fox.ogg`), or by two neighbouring letters
    ///   swapped (`cta.webp` → `cat.webp`); never by other letters, which would name another
    ///   animal's file (`loon.webp` is not `lion.webp`).
    /// Only sounds and pictures by their extension are offered, never a hidden file, and only a
    /// file that stays inside content/. Only on the way to an error: it lists the folders on the
    /// path, while `budget` lasts (one run with thousands of missing files fails fast instead).
    /// `anywhere` (for a content folder, never a folder the user is in): when the path leads to
    /// nothing, the one sound (or picture, as the path's extension says) anywhere under the folder
    /// with the name, or the name's stem, is offered (`sounds/horse.ogg` → `media/horse.mp3`); the
    /// Wikipedia cache is not looked in, and the folder is listed once per `budget`.
    public static func suggestion(
        for path: String, contentDirectory: String, fileSystem: some FileSystem, budget: SuggestionBudget? = nil, anywhere: Bool = false
    ) -> String? {
        guard lexicalProblem(path) == nil else { return nil }
        let parts = path.split(separator: "/").map(String.init).filter { $0 != "." }
        guard !parts.isEmpty, parts.count <= 32, budget?.take() ?? true else { return nil }
        var found: [String] = []
        for (i, part) in parts.enumerated() {
            let last = i == parts.count - 1
            guard let entries = try? fileSystem.unorderedEntries(in: ([contentDirectory] + found).joined(separator: "/")) else { found = []; break }
            // A hidden file (a Mac's `._cat.webp`) is never what was meant.
            let names = entries.filter { !$0.name.hasPrefix(".") && (last ? $0.kind != .directory : $0.kind != .file) }.map(\.name)
            // By bytes: a name in another Unicode form (a Mac's é as e and an accent) is another name here.
            if names.contains(where: { $0.utf8.elementsEqual(part.utf8) }) {
                found.append(part)
            } else if let match = last ? closeFileName(part, among: names) : closeFolderName(part, among: names) {
                found.append(match)
            } else {
                found = []
                break
            }
        }
        if found.isEmpty {
            guard anywhere, let elsewhere = sameNameElsewhere(parts[parts.count - 1], contentDirectory: contentDirectory, fileSystem: fileSystem, budget: budget)
            else { return nil }
            found = [elsewhere]
        }
        let suggested = found.joined(separator: "/")
        // Every part as written: the file is there (or was, as the caller looked).
        guard !suggested.utf8.elementsEqual(parts.joined(separator: "/").utf8), let contentReal = try? fileSystem.realPath(contentDirectory),
            problem(suggested, contentDirectory: contentDirectory, contentRealPath: contentReal, fileSystem: fileSystem) == nil
        else { return nil }
        return suggested
    }

    /// "did you mean 'images/cat.webp'?" for a suggestion from
    /// ``suggestion(for:contentDirectory:fileSystem:budget:)``, with why a name differing only in
    /// case, or only in how its letters are encoded, is not the same name. `location`: where the
    /// file is, when that is not plain from the path (`INCOMING/notes.txt`).
    public static func didYouMean(_ suggested: String, for path: String, location: String? = nil) -> String {
        let written = path.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
        let why: String
        if suggested == written {
            why = " (the same letters, but written with other Unicode code points, as a Mac names files: the build machine and web servers see two names; type the name again or rename the file)"
        } else if suggested.lowercased() == written.lowercased() {
            why = " (letters' case counts: the build machine and web servers tell the two names apart)"
        } else {
            why = ""
        }
        return "did you mean '\(suggested)'\(location.map { " (\($0))" } ?? "")?" + why
    }

    /// The extensions of the sounds and pictures a record may name.
    static let mediaExtensions = Set(MediaFormat.soundExtensions + MediaFormat.imageExtensions + ["mp4"])

    private static func closeFileName(_ name: String, among names: [String]) -> String? {
        // Of the kind the name's extension says, when it says one: `horse.mp3` is the sound
        // `horse.ogg` beside the picture `horse.webp` (both were two candidates, so neither).
        let kind = kindOf(name)
        let media = names.filter { mediaExtensions.contains(mediaExtension($0)) }
        func stem(_ n: String) -> Substring { n.lastIndex(of: ".").map { n[..<$0] } ?? Substring(n) }
        func bare(_ n: Substring) -> String { String(n.lowercased().filter { !"-_ ".contains($0) }) }
        let lower = name.lowercased(), wanted = stem(lower)
        let fitting: [(String) -> Bool] = [
            { $0.lowercased() == lower }, { stem($0.lowercased()) == wanted }, { bare(stem($0)) == bare(wanted) },
            { swapsTwoNeighbours(bare(stem($0)), bare(wanted)) },
        ]
        // The files of the kind the extension says first, then any (`sounds/owl.jpg` written
        // for `owl.ogg`, in a sound's field, still finds it).
        let sameKind = media.filter { kind.contains(mediaExtension($0)) }
        for files in kind.isEmpty ? [media] : [sameKind, media] {
            switch theOne(of: files, fitting: fitting) {
            case .one(let file): return file
            case .several: return nil
            case .none: continue
            }
        }
        return nil
    }

    private enum Fit { case none, one(String), several }

    /// The file that fits the first test any file fits, if only one does.
    private static func theOne(of files: [String], fitting: [(String) -> Bool]) -> Fit {
        for fits in fitting {
            let candidates = files.filter(fits)
            if candidates.count == 1 { return .one(candidates[0]) }
            if candidates.count > 1 { return .several }
        }
        return .none
    }

    /// The one media file of the kind `name`'s extension says (sound or picture) anywhere under
    /// `contentDirectory` named `name`, or with its stem in another case or with another
    /// extension; nil when none or several fit at the first of those that any fits.
    private static func sameNameElsewhere(_ name: String, contentDirectory: String, fileSystem: some FileSystem, budget: SuggestionBudget?) -> String? {
        let kind = kindOf(name)
        guard !kind.isEmpty else { return nil }
        let files = budget?.mediaFiles { mediaFiles(under: contentDirectory, fileSystem: fileSystem) } ?? mediaFiles(under: contentDirectory, fileSystem: fileSystem)
        func base(_ path: String) -> Substring { path.split(separator: "/").last ?? "" }
        func stem(_ n: Substring) -> String { (n.lastIndex(of: ".").map { n[..<$0] } ?? n).lowercased() }
        let ofKind = files.filter { kind.contains(mediaExtension($0)) }
        let lower = name.lowercased(), wanted = stem(Substring(name))
        // By bytes: a name in another Unicode form is another name here (said so only when the
        // whole path is the same, ``didYouMean(_:for:location:)``).
        let fitting: [(String) -> Bool] = [
            { base($0).utf8.elementsEqual(name.utf8) }, { base($0).lowercased().utf8.elementsEqual(lower.utf8) },
            { stem(base($0)).utf8.elementsEqual(wanted.utf8) },
        ]
        if case .one(let file) = theOne(of: ofKind, fitting: fitting) { return file }
        return nil
    }

    /// The extensions of the kind (sound or picture) `name`'s extension is; empty when neither.
    private static func kindOf(_ name: String) -> [String] {
        let ext = mediaExtension(name)
        return MediaFormat.soundExtensions.contains(ext) ? MediaFormat.soundExtensions : MediaFormat.imageExtensions.contains(ext) ? MediaFormat.imageExtensions : []
    }

    /// Every sound and picture file under `directory` (relative paths), not hidden ones nor the
    /// Wikipedia cache's; symbolic links are not followed.
    static func mediaFiles(under directory: String, fileSystem: some FileSystem) -> [String] {
        var out: [String] = []
        func visit(_ relative: String, depth: Int) {
            guard depth < 16, let entries = try? fileSystem.unorderedEntries(in: relative.isEmpty ? directory : directory + "/" + relative) else { return }
            for entry in entries where !entry.name.hasPrefix(".") {
                let path = relative.isEmpty ? entry.name : relative + "/" + entry.name
                switch entry.kind {
                case .directory where !(relative.isEmpty && entry.name == "wikipedia"): visit(path, depth: depth + 1)
                case .file where mediaExtensions.contains(mediaExtension(entry.name)): out.append(path)
                default: break
                }
            }
        }
        visit("", depth: 0)
        return out.sorted()
    }

    /// Whether `a` is `b` with two neighbouring letters swapped (`cta`, `cat`): the same letters.
    /// Not digits: `IMG_4521` is another picture than `IMG_4512`.
    static func swapsTwoNeighbours(_ a: String, _ b: String) -> Bool {
        let x = Array(a), y = Array(b)
        guard x.count == y.count, let i = x.indices.first(where: { x[$0] != y[$0] }), i + 1 < x.count else { return false }
        return x[i] == y[i + 1] && x[i + 1] == y[i] && x[i].isLetter && x[i + 1].isLetter && x[(i + 2)...] == y[(i + 2)...]
    }

    private static func closeFolderName(_ name: String, among names: [String]) -> String? {
        let lower = name.lowercased()
        let sameLetters = names.filter { $0.lowercased() == lower }
        if sameLetters.count == 1 { return sameLetters[0] }
        // A folder name a letter or two away, where one is clearly meant (two as close: none).
        let limit = max(1, min(2, name.count / 4))
        let close = names.filter { abs($0.count - name.count) <= limit && Suggestion.distance(lower, $0.lowercased()) <= limit }
        return close.count == 1 ? close[0] : nil
    }

    /// Full check: lexical, then existence, then that every link on the way resolves inside
    /// `contentRealPath` (the real path of the content folder).
    public static func problem(
        _ path: String, contentDirectory: String, contentRealPath: String, fileSystem: some FileSystem
    ) -> Problem? {
        if let p = lexicalProblem(path) { return p }
        let full = contentDirectory + "/" + path
        guard let info = fileSystem.infoFollowingLinks(full) else {
            return fileSystem.info(full)?.kind == .symlink ? .danglingLink : .missing
        }
        if info.kind == .directory { return .notAFile }
        guard let real = try? fileSystem.realPath(full) else { return .missing }
        if !(real.hasPrefix(contentRealPath + "/")) { return .leavesContent(real) }
        return nil
    }
}

/// How many suggestions (``ContentPath/suggestion(for:contentDirectory:fileSystem:budget:)``) one
/// run still makes: each lists the folders on its path. Thread-safe.
public final class SuggestionBudget: @unchecked Sendable {
    private let lock = NSLock()
    private var left: Int

    private var media: [String]?

    public init(_ count: Int = 20) { left = count }

    /// The content folder's media files, listed by `list` once for the whole run.
    func mediaFiles(_ list: () -> [String]) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        if let media { return media }
        let listed = list()
        media = listed
        return listed
    }

    /// Whether one more may be made (and counts it).
    public func take() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard left > 0 else { return false }
        left -= 1
        return true
    }
}
