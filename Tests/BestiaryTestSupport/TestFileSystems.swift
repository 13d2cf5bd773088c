import BestiaryStorage
import Foundation

/// The local file system with every call passed on; test file systems change a few.
open class PassingFileSystem: FileSystem, @unchecked Sendable {
    public let base = LocalFileSystem()

    public init() {}

    open func read(_ path: String) throws -> Data { try base.read(path) }
    open func readPrefix(_ path: String, count: Int) throws -> Data { try base.readPrefix(path, count: count) }
    open func writeAtomically(_ data: Data, to path: String) throws { try base.writeAtomically(data, to: path) }
    open func writeNew(_ data: Data, to path: String) throws { try base.writeNew(data, to: path) }
    open func info(_ path: String) -> FileInfo? { base.info(path) }
    open func infoFollowingLinks(_ path: String) -> FileInfo? { base.infoFollowingLinks(path) }
    open func entries(in directory: String) throws -> [DirectoryEntry] { try base.entries(in: directory) }
    open func realPath(_ path: String) throws -> String { try base.realPath(path) }
    open func createDirectory(_ path: String) throws { try base.createDirectory(path) }
    open func remove(_ path: String) throws { try base.remove(path) }
    open func move(_ source: String, to destination: String) throws { try base.move(source, to: destination) }
    open func exchange(_ a: String, _ b: String) throws { try base.exchange(a, b) }
    open func link(_ source: String, to destination: String) throws { try base.link(source, to: destination) }
    open func folderInfos(below directory: String, _ paths: [String]) -> [FolderInfo?] { base.folderInfos(below: directory, paths) }
}

/// A file system that fails after N writes (a full disk half way through a build), or after N
/// renames into a folder (a commit that stops half way).
public final class FailingFileSystem: PassingFileSystem, @unchecked Sendable {
    public let failAfter: Int
    /// When set, hard links of files in this folder are counted and fail, not writes.
    public let linksFrom: String?
    private let lock = NSLock()
    private var counted = 0

    public init(failAfter: Int, linksFrom: String? = nil) {
        self.failAfter = failAfter
        self.linksFrom = linksFrom
    }

    private func count(write path: String) throws {
        guard linksFrom == nil else { return }
        try fail(path, "write", "No space left on device", code: 28)
    }

    private func fail(_ path: String, _ operation: String, _ reason: String, code: Int32) throws {
        let n = lock.withLock { counted += 1; return counted }
        if n > failAfter { throw FileSystemError(operation: operation, path: path, reason: reason, code: code) }
    }

    override public func writeAtomically(_ data: Data, to path: String) throws { try count(write: path); try base.writeAtomically(data, to: path) }
    override public func writeNew(_ data: Data, to path: String) throws { try count(write: path); try base.writeNew(data, to: path) }
    override public func link(_ source: String, to destination: String) throws {
        if let folder = linksFrom, source.hasPrefix(folder + "/") { try fail(source, "link", "Input/output error", code: EIO) }
        try count(write: destination)
        try base.link(source, to: destination)
    }
}
