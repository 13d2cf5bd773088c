import Foundation

/// What a build learned from reading a file's bytes (a media file's SHA-256 and size, whether a
/// cached picture matches the hash it is named by), kept from one `bestiary build` to the next,
/// in another process, under the file's metadata (size, time, inode, device). A file whose
/// metadata is unchanged is not read again: on the 10,000-animal bench corpus this is 10,000
/// media files and 29,110 pictures not hashed by a rebuild after one edit. The preview keeps the same facts in memory instead.
///
/// Each fact has a kind (the question asked, such as `media` or `image png <sha256>`) and a
/// list of strings (the answer); a fact is used only for the same kind and the same metadata.
/// The file (`.NAME.bestiary-files`, next to the output) names the `bestiary` binary in its
/// header: one written by another binary, damaged or missing is ignored (every file is read).
/// Once a build has read its media and pictures (they are true of the files whatever happens to
/// the build afterwards), it is replaced atomically by the facts that build used, except those
/// about files changed in the last seconds before it began: a file changed again within the
/// file system's time resolution would keep its metadata (git's "racily clean" files), so such
/// a file is read again by the next build. Thread-safe.
public final class FileFacts: @unchecked Sendable {
    struct Fact {
        var kind: String
        var values: [String]
    }

    static let header = "bestiary-files 3"

    private let kept: KeptByFile<Fact>
    public var tool: String { kept.tool }
    /// Facts taken from the file since it was loaded.
    public var hits: Int { kept.hits }

    /// `keyPrefix`: what every path asked about begins with, the site root and a slash
    /// (``KeptByFile/keyPrefix``).
    public init(tool: String, keyPrefix: String, started: Date = Date()) {
        kept = KeptByFile(header: Self.header, tool: tool, keyPrefix: keyPrefix, started: started)
    }

    private init(_ kept: KeptByFile<Fact>) { self.kept = kept }

    /// `date` in nanoseconds since 1970, as ``FileInfo/modificationTime``.
    public static func nanoseconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970 * 1e9) }

    /// The facts in `path`, or none when the file is missing, damaged or not for `tool`.
    public static func load(_ path: String, tool: String, keyPrefix: String, fileSystem: any FileSystem, started: Date = Date()) -> FileFacts {
        FileFacts(KeptByFile.load(path, header: header, tool: tool, keyPrefix: keyPrefix, fileSystem: fileSystem, started: started) { r in
            guard let kind = r.string(), let values = r.strings() else { return nil }
            return Fact(kind: kind, values: values)
        })
    }

    /// Writes the facts used since loading, but for racy files (atomically; on failure the
    /// file is removed). When every fact came from the file and all were used, the file already
    /// holds exactly these (a rebuild that read no media file) and is left as it is.
    public func save(_ path: String, fileSystem: any FileSystem) {
        kept.save(path, fileSystem: fileSystem) { w, fact in
            w.string(fact.kind)
            w.strings(fact.values)
        }
    }

    /// The metadata of every media file and picture this build looked at, by path.
    public func infos() -> [String: FileInfo] { kept.infos() }

    /// Drops every fact held in memory (after ``save(_:fileSystem:)``, when nothing more will be
    /// asked: 40,000 facts are about 16 MB).
    public func forget(leavingToExit: Bool = false) { kept.forget(leavingToExit: leavingToExit) }

    /// The answer to `kind` for the file at `path` when it had `info`; nil when unknown.
    public func lookup(_ path: String, info: FileInfo, kind: String) -> [String]? {
        kept.lookup(path, info: info) { $0.kind == kind }?.values
    }

    /// The rest of the kind of the fact kept for the file at `path` when it had `info`, if its
    /// kind starts with `prefix` (`ogg` for `media ogg`); nil when unknown.
    public func kind(of path: String, info: FileInfo, prefix: String) -> Substring? {
        kept.lookup(path, info: info) { $0.kind.hasPrefix(prefix) }.map { $0.kind.dropFirst(prefix.count) }
    }

    /// Keeps for the next build every fact about a file of `folder` (a path ending in `/`) whose
    /// metadata is the one `listed` gives it, without a lookup of each by the caller: for a caller
    /// that knows its check of those files stands. Returns how many files had a fact.
    public func useAll(in folder: String, listed: [(entry: DirectoryEntry, info: FileInfo?)]) -> Int {
        kept.useAll(listed.lazy.compactMap { entry, info in info.map { (folder + entry.name, $0) } })
    }

    /// Records the answer to `kind` for the file at `path` with `info`.
    public func keep(_ path: String, info: FileInfo, kind: String, values: [String]) {
        kept.keep(path, info: info, Fact(kind: kind, values: values))
    }
}
