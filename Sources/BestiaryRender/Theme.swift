import BestiaryContent
import BestiaryDiagnostics
import BestiaryStorage
import BestiaryTheme
import Foundation

/// The theme a site is rendered with: the site's own `templates/` files, and the built-in default
/// theme for every file the site does not have (DESIGN.md §2).
public struct Theme: Sendable {
    public struct File: Sendable, Hashable {
        public var data: Data
        /// Where it came from: `templates/layouts/base.html`, or `(default theme)/layouts/base.html`.
        public var origin: String
        /// True when the site's own `templates/` provided it.
        public var isOverride: Bool

        /// Why a text file of the theme (a template, a stylesheet, a module) cannot be read as the
        /// UTF-8 browsers take it for, where: a stylesheet saved as UTF-16 left a designer's whole
        /// site unstyled, and one with a Windows-1252 `©` showed `�`, both without a word; a
        /// template was "not valid UTF-8" at 1:1 whatever it held.
        public var encodingProblem: Diagnostic? {
            let bytes = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
            return SourceText.encodingProblem(bytes, path: origin).map { .error($0.message, at: $0.location, stage: "render") }
        }
    }

    /// Theme files by path relative to `templates/`.
    public var files: [String: File]
    /// Links in `templates/` that were not followed (one leading nowhere, or to a folder): the
    /// default theme's file stands in for such a file, which `check` and the build say.
    public var linkProblems: [Diagnostic] = []
    /// Links in `templates/` that lead to a file outside the site root, with that file: what they
    /// lead to is published as the theme's own, and `check` names them for a reviewer (a link to
    /// `/etc/passwd` named `notes.txt` was published without a word: found by a security review).
    public var outsideLinks: [(link: String, target: String)] = []

    public init(files: [String: File]) {
        self.files = files
    }

    /// The default theme alone.
    public static var builtIn: Theme {
        var files: [String: File] = [:]
        for (path, data) in DefaultTheme.files {
            files[path] = File(data: data, origin: "(default theme)/\(path)", isOverride: false)
        }
        return Theme(files: files)
    }

    /// The default theme overlaid with `root/templates/`.
    public static func load(root: String, fileSystem: any FileSystem) throws(DiagnosticError) -> Theme {
        var theme = builtIn
        let directory = Catalog.pathPrefix(root: root) + "templates"
        guard fileSystem.isDirectory(directory) else { return theme }
        do {
            var links: [String] = []
            let files = try fileSystem.walkFiles(in: directory) { links.append($0) }
            // A link to a file (a stylesheet or layout shared by several sites) is read through:
            // it was left out without a word, and the default theme's file used instead. A link
            // to a folder, or one that leads nowhere, is not followed, and said so. (Hidden files
            // and folders and editors' leftovers are passed over, as the preview's watcher does.)
            var linked: [String] = []
            let site = links.isEmpty ? nil : try? fileSystem.realPath(root)
            for link in links where !EditorFiles.isUnderLeftover(link) {
                switch fileSystem.infoFollowingLinks(directory + "/" + link)?.kind {
                case .file?:
                    linked.append(link)
                    if let target = try? fileSystem.realPath(directory + "/" + link), let site,
                        !target.hasPrefix(site == "/" ? "/" : site + "/")
                    {
                        theme.outsideLinks.append((link, target))
                    }
                case .directory?:
                    theme.linkProblems.append(.warning(
                        "symbolic link to a folder is not followed; link each file instead", at: SourceLocation(path: "templates/\(link)"), stage: "render"))
                default:
                    // Only a file the default theme has is used instead (a partials/footer2.html was
                    // said to be replaced by a default one there is not).
                    let instead = DefaultTheme.files[link] != nil ? "so the default theme's file is used" : "so the theme has no such file"
                    theme.linkProblems.append(.warning(
                        "symbolic link leads nowhere, \(instead); mend or remove it", at: SourceLocation(path: "templates/\(link)"), stage: "render"))
                }
            }
            for relative in files + linked where !EditorFiles.isUnderLeftover(relative) {
                let data = try fileSystem.read(directory + "/" + relative)
                theme.files[relative] = File(data: data, origin: "templates/\(relative)", isOverride: true)
            }
        } catch let error as FileSystemError {
            throw DiagnosticError(.error("cannot read the theme: \(error)", at: SourceLocation(path: "templates"), stage: "render"))
        } catch {
            throw DiagnosticError(.error("cannot read the theme: \(error)", at: SourceLocation(path: "templates"), stage: "render"))
        }
        return theme
    }

    public func text(_ path: String) -> String? {
        files[path].map { String(decoding: $0.data, as: UTF8.self) }
    }

    /// Paths below `prefix` (e.g. `assets/`), sorted.
    public func paths(under prefix: String) -> [String] {
        files.keys.filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// A digest of everything in the theme: any change to it changes every page's inputs.
    public var fingerprint: String {
        var all = Data()
        for path in files.keys.sorted() {
            all.append(Data(path.utf8))
            all.append(0)
            all.append(Data(Hashing.sha256Hex(files[path]!.data).utf8))
        }
        return Hashing.sha256Hex(all)
    }
}
