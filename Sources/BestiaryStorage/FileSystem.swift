import Foundation

/// What kind of thing a path names, as `lstat` sees it (symbolic links are not followed).
public enum FileKind: Sendable, Hashable {
    case file
    case directory
    case symlink
    case other
}

/// What the pipeline needs to know about a file without reading it.
public struct FileInfo: Sendable, Hashable {
    public var kind: FileKind
    public var size: Int
    /// Modification time in nanoseconds since 1970; used only as a change hint, never in output.
    public var modificationTime: Int64
    public var inode: UInt64
    public var device: UInt64

    public init(kind: FileKind, size: Int, modificationTime: Int64, inode: UInt64 = 0, device: UInt64 = 0) {
        self.kind = kind
        self.size = size
        self.modificationTime = modificationTime
        self.inode = inode
        self.device = device
    }
}

/// A folder's ``FileInfo`` and its change time (`st_ctime`, nanoseconds since 1970): the time its
/// metadata last changed, which the system sets to the clock's and no tool can set back. A tool
/// that changes a folder and then sets its modification time back (`rsync -a`, `tar -x`) leaves
/// its change time new.
public struct FolderInfo: Sendable, Hashable {
    public var info: FileInfo
    public var changeTime: Int64

    public init(info: FileInfo, changeTime: Int64) {
        self.info = info
        self.changeTime = changeTime
    }

    /// The later of the modification and the change time: the folder is known by its metadata
    /// only once this is older than the clock's resolution.
    public var lastChange: Int64 { max(info.modificationTime, changeTime) }
}

/// One entry of a directory listing.
public struct DirectoryEntry: Sendable, Hashable {
    public var name: String
    public var kind: FileKind
    /// The entry's inode number as the directory lists it (`d_ino`), when the file system says.
    public var inode: UInt64?

    public init(name: String, kind: FileKind, inode: UInt64? = nil) {
        self.name = name
        self.kind = kind
        self.inode = inode
    }
}

/// A failed file operation: which operation, which path, and the system's reason.
public struct FileSystemError: Error, Hashable, Sendable, CustomStringConvertible {
    public var operation: String
    public var path: String
    public var reason: String
    /// The `errno` value when the failure came from the system, else 0.
    public var code: Int32

    public init(operation: String, path: String, reason: String, code: Int32 = 0) {
        self.operation = operation
        self.path = path
        self.reason = reason
        self.code = code
    }

    public var isNotFound: Bool { code == ENOENT }

    public var description: String { "cannot \(operation) \(path): \(reason)" }
}

/// Every file operation of the pipeline goes through this protocol, so tests can inject faults
/// (a disk that fills up half way through a build) and the stages stay independent of the host.
///
/// Paths are plain strings with `/` separators; relative paths resolve against the process's
/// working directory, as POSIX does.
public protocol FileSystem: Sendable {
    /// The whole file.
    func read(_ path: String) throws -> Data
    /// At most the first `count` bytes (to recognise a file by its magic number).
    func readPrefix(_ path: String, count: Int) throws -> Data
    /// Replaces `path` atomically: readers see the old bytes or the new ones, never a mix
    /// (temporary file in the same directory, then `rename`). Creates parent directories.
    /// `data` may point into its caller's buffer (``writeAtomically(bytes:to:)``): it must not be kept
    /// after the call returns.
    func writeAtomically(_ data: Data, to path: String) throws
    /// ``writeAtomically(_:to:)`` of `parts` one after the other (``LocalFileSystem`` does not join
    /// them first).
    func writeAtomically(parts: [Data], to path: String) throws
    /// Creates a new file that nobody reads yet (inside a staging directory): no temporary file.
    /// Creates parent directories.
    func writeNew(_ data: Data, to path: String) throws
    /// ``writeNew(_:to:)`` of `parts` one after the other, without joining them first.
    func writeNew(parts: [Data], to path: String) throws
    /// `lstat`: nil when nothing is at `path`.
    func info(_ path: String) -> FileInfo?
    /// `stat`: follows symbolic links; nil when nothing is there or the link dangles.
    func infoFollowingLinks(_ path: String) -> FileInfo?
    /// The entries of a directory, sorted by name (byte order) so that walks are deterministic.
    func entries(in directory: String) throws -> [DirectoryEntry]
    /// ``entries(in:)`` in the order the system lists them: for a caller to which the order is
    /// of no matter (a folder of 39,000 media files is listed on every rebuild).
    func unorderedEntries(in directory: String) throws -> [DirectoryEntry]
    /// ``read(_:)``, for a file only Bestiary writes and only by replacing it whole (what a
    /// build keeps next to its output, the previous output's files): without a copy where the
    /// system can map it. A file cut short by someone else while its bytes are held would end
    /// the process (`SIGBUS`), so never for the site's own sources.
    func readShared(_ path: String) throws -> FileBytes
    /// ``readShared(_:)`` as one `Data` (which may be changed like any other: the file never is),
    /// for the same files only.
    func readMapped(_ path: String) throws -> Data
    /// ``entries(in:)`` with each entry's ``info(_:)`` (nil when it went meanwhile).
    func entriesWithInfo(in directory: String) throws -> [(entry: DirectoryEntry, info: FileInfo?)]
    /// ``info(_:)`` of each of `paths` below `directory` (relative to it), in parallel, with each
    /// one's change time: for folders whose metadata stands for what they hold (``FolderInfo``).
    func folderInfos(below directory: String, _ paths: [String]) -> [FolderInfo?]
    /// The canonical absolute path with every symbolic link resolved.
    func realPath(_ path: String) throws -> String
    /// `mkdir -p`.
    func createDirectory(_ path: String) throws
    /// `rm -rf`; no error when nothing is there.
    func remove(_ path: String) throws
    /// ``remove(_:)`` of a folder Bestiary made and its process owns (a staging folder, the spare
    /// output), even when someone made it read-only (`chmod -R a-w output`, which the next build
    /// makes its spare): its folders are made writable by their owner first.
    func removeOwned(_ path: String) throws
    /// `rename(2)`.
    func move(_ source: String, to destination: String) throws
    /// Swaps two paths in one step where the system can (Linux `renameat2`), else in two renames.
    func exchange(_ a: String, _ b: String) throws
    /// Makes `destination` have the bytes of `source`, sharing storage where possible (hard link).
    /// Callers must never write into the result in place: files are replaced, never modified.
    func link(_ source: String, to destination: String) throws
    /// ``link(_:to:)`` of what `source` leads to when it is a symbolic link (the link itself
    /// otherwise: Linux's `link` does not follow one, and a media file that was a relative link
    /// became a link in the output that led nowhere).
    func linkFollowingLinks(_ source: String, to destination: String) throws
    /// The permission bits (`st_mode & 0o7777`) of what `path` leads to; nil when unknown.
    func permissions(_ path: String) -> UInt16?
}

extension FileSystem {
    public func permissions(_ path: String) -> UInt16? { nil }

    public func writeNew(parts: [Data], to path: String) throws { try writeNew(OutputFile.joined(parts), to: path) }

    public func writeAtomically(parts: [Data], to path: String) throws { try writeAtomically(OutputFile.joined(parts), to: path) }

    public func linkFollowingLinks(_ source: String, to destination: String) throws {
        let target = info(source)?.kind == .symlink ? ((try? realPath(source)) ?? source) : source
        try link(target, to: destination)
    }

    public func exists(_ path: String) -> Bool { info(path) != nil }
    public func removeOwned(_ path: String) throws { try remove(path) }

    public func unorderedEntries(in directory: String) throws -> [DirectoryEntry] { try entries(in: directory) }

    public func readShared(_ path: String) throws -> FileBytes { FileBytes(copying: try read(path)) }
    public func readMapped(_ path: String) throws -> Data { try read(path) }

    public func entriesWithInfo(in directory: String) throws -> [(entry: DirectoryEntry, info: FileInfo?)] {
        let entries = try entries(in: directory)
        let infos = Parallel.map(entries, chunk: 256) { info(directory + "/" + $0.name) }
        return Array(zip(entries, infos))
    }

    /// A file system that keeps no change time gives the modification time as one.
    public func folderInfos(below directory: String, _ paths: [String]) -> [FolderInfo?] {
        Parallel.map(paths, chunk: 256) { path in
            info(directory + "/" + path).map { FolderInfo(info: $0, changeTime: $0.modificationTime) }
        }
    }

    public func isDirectory(_ path: String) -> Bool { infoFollowingLinks(path)?.kind == .directory }

    public func readString(_ path: String) throws -> String {
        let data = try read(path)
        guard let s = String(data: data, encoding: .utf8) else {
            throw FileSystemError(operation: "read", path: path, reason: "not valid UTF-8")
        }
        return s
    }

    public func writeAtomically(_ string: String, to path: String) throws {
        try writeAtomically(Data(string.utf8), to: path)
    }

    /// ``writeAtomically(_:to:)`` of an array's bytes, from the array's own buffer: a copy into
    /// `Data` would hold them twice (32 MB for the Wikipedia entries, 25 MB for the output's
    /// record on the bench corpus) and touch as many new pages.
    public func writeAtomically(bytes: [UInt8], to path: String) throws {
        try bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return try writeAtomically(Data(), to: path) }
            // Only read, and not kept after the call (the protocol's rule), so never freed by `Data`.
            try writeAtomically(Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: buffer.count, deallocator: .none), to: path)
        }
    }

    /// Every regular file below `directory`, as paths relative to it, sorted. Symbolic links are
    /// reported (not followed) through `onSymlink` so callers can decide whether they may leave.
    public func walkFiles(in directory: String, onSymlink: (String) -> Void = { _ in }) throws -> [String] {
        var result: [String] = []
        func visit(_ relative: String) throws {
            let full = relative.isEmpty ? directory : directory + "/" + relative
            for entry in try entries(in: full) {
                let rel = relative.isEmpty ? entry.name : relative + "/" + entry.name
                switch entry.kind {
                case .directory: try visit(rel)
                case .file: result.append(rel)
                case .symlink: onSymlink(rel)
                case .other: break
                }
            }
        }
        try visit("")
        return result
    }
}
