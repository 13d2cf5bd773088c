import BestiaryStorage

/// The regular files below `content/` as the build's walk over its inputs found them (`lstat`,
/// descending real folders only), by path from the site root: each one's metadata, and the
/// knowledge that no symbolic link lies on its way, so it is inside `content/`. What the build
/// reads is taken from here instead of asking the file system again for each of them (a
/// 10,000-animal site's records and media are 20,000 `stat` calls and 10,000 `realpath`s).
///
/// A path the walk did not list as a regular file (a link, or spelled another way, such as
/// `media/./fox.ogg`) is not here: the loader then asks the file system, as without a listing.
/// A file changed after the walk is read as it is then. A record, translation or media file the
/// build reads is looked at again once read: one that changed meanwhile is not kept under the
/// walk's metadata, and the build records no walk of its inputs, so the next build reads it again
/// (``ContentLoader/Result/readAfterAChange``).
public struct ListedFiles: Sendable {
    private var files: [String: FileInfo] = [:]

    /// What the walk found, each path from the site root: only regular files are kept.
    public init(_ found: [(path: String, info: FileInfo?)]) {
        files.reserveCapacity(found.count)
        for (path, info) in found {
            if let info, info.kind == .file { files[path] = info }
        }
    }

    /// The walk's metadata of the regular file at `path` (from the site root), if it listed one.
    public func file(_ path: String) -> FileInfo? { files[path] }

    public var count: Int { files.count }

    /// How many of the regular files listed are below `prefix` (a folder's path from the site
    /// root, with its closing slash).
    public func count(below prefix: String) -> Int {
        files.keys.reduce(0) { $0 + ($1.utf8.starts(with: prefix.utf8) ? 1 : 0) }
    }
}
