import BestiaryContent
import BestiaryDiagnostics
import BestiaryStorage
import Foundation

/// A site's records as the editing commands (`import`, `add`, `remove`) see them: site.yml, where
/// each record's file is, and a record's exact text when it is to be changed.
public struct RecordStore: Sendable {
    public let root: String
    public let fileSystem: any FileSystem
    public let config: SiteConfig
    /// What the loader read, for which records and media exist; records with errors are in it
    /// whenever an id and a name could be read.
    public let catalog: Catalog
    /// Every record file whose id could be read, by id: path relative to the site root.
    public let paths: [String: String]
    /// The same, the other way round.
    let ids: [String: String]

    /// Loads the site; fails only when site.yml is missing or unusable (records with problems of
    /// their own stop only a change to them).
    public static func open(root: String, fileSystem: any FileSystem = LocalFileSystem()) throws(DiagnosticError) -> RecordStore {
        var loader = ContentLoader(root: root, fileSystem: fileSystem)
        loader.checksContentDespiteSiteYML = false
        let result = loader.load()
        guard let catalog = result.catalog else {
            throw DiagnosticError(result.diagnostics.sorted.filter { $0.severity == .error })
        }
        var paths: [String: String] = [:]
        for animal in catalog.animals { paths[animal.id] = animal.sourcePath }
        return RecordStore(
            root: root, fileSystem: fileSystem, config: catalog.config, catalog: catalog, paths: paths,
            ids: Dictionary(paths.map { ($0.value, $0.key) }, uniquingKeysWith: { a, _ in a }))
    }

    public var contentDirectory: String { Catalog.contentDirectory(root: root) }

    /// `path` (relative to the site root) as the file system reaches it.
    public func fullPath(_ relative: String) -> String {
        Catalog.pathPrefix(root: root) + relative
    }

    /// The `.md` files under content/animals/ that are no record the loader read (paths relative
    /// to the root; translations among them, which only keeps more): a sound or picture one of them
    /// may name is kept for it. Nil when the folder cannot be listed.
    func unreadableRecordFiles() -> [String]? {
        guard let files = try? fileSystem.walkFiles(in: contentDirectory + "/animals") else { return nil }
        let readable = Set(catalog.animals.map { $0.sourcePath })
        return files.map { "content/animals/\($0)" }.filter { $0.hasSuffix(".md") && !readable.contains($0) }
    }

    /// Where a new record with `id` goes: `content/animals/ID.md`.
    public func newRecordPath(_ id: String) -> String { "content/animals/\(id).md" }

    /// A record file as it is on disk, and what it says.
    public struct ExistingRecord: Sendable {
        public var id: String
        /// Relative to the site root.
        public var path: String
        /// The file name without `.md`: the id when the file sets none.
        public var fileID: String
        /// The file's text exactly (byte-order mark and CRLF included), for surgical edits.
        public var text: String
        public var animal: Animal
    }

    /// The record `id`, read and parsed anew from its file; nil when there is none. Throws when the
    /// file has errors: a record is changed only when it is valid, so a change cannot hide a problem.
    public func record(_ id: String) throws(DiagnosticError) -> ExistingRecord? {
        guard let path = paths[id] else { return nil }
        let data: Data
        do {
            data = try fileSystem.read(fullPath(path))
        } catch {
            throw DiagnosticError(.error("cannot read the record: \(error)", at: SourceLocation(path: path), stage: "import"))
        }
        let source = try SourceText.decode(data, path: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let fileID = String(name.dropLast(3))
        let (animal, diagnostics) = Animal.parse(source, fileID: fileID, config: config)
        let errors = diagnostics.filter { $0.severity == .error }
        guard let animal, errors.isEmpty else {
            throw DiagnosticError(
                [.error("record '\(id)' has errors; fix them before changing it (`bestiary check` lists them)", at: SourceLocation(path: path), stage: "import")]
                    + errors)
        }
        return ExistingRecord(id: id, path: path, fileID: fileID, text: String(decoding: data, as: UTF8.self), animal: animal)
    }

    /// Why `content/animals/ID.md` cannot be created for `id`, when a file is already in the way.
    public func obstacle(toCreating id: String) -> String? {
        let path = newRecordPath(id)
        guard fileSystem.info(fullPath(path)) != nil else { return nil }
        if let other = ids[path] {
            return "\(path) already holds the record '\(other)' (its 'id:' says so), so '\(id)' cannot be written there"
        }
        return "\(path) exists but cannot be read as a record; fix or remove it first (`bestiary check` says what is wrong)"
    }
}
