import BestiaryDiagnostics
@testable import BestiarySite
import BestiaryStorage
import BestiaryTestSupport
import Foundation

/// Builds `root` into `output` with a fixed SOURCE_DATE_EPOCH. Never writes into `root` (no
/// content/packs.lock): tests build the fixtures in place.
@discardableResult
func build(
    root: String, output: String, fileSystem: any FileSystem = LocalFileSystem(), baseURL: String? = nil, force: Bool = false
) throws(DiagnosticError) -> BuildReport {
    var options = BuildOptions(
        root: root, output: output, baseURL: baseURL, environment: ["SOURCE_DATE_EPOCH": "1767225600"], fileSystem: fileSystem,
        time: FixedTimeSource(Date(timeIntervalSince1970: 1_767_225_600)))
    options.recordsPackVersions = false
    options.force = force
    return try SiteBuilder(options: options).build()
}

/// A copy of a fixture site in a temporary directory (tests never edit fixtures in place).
func copyOfFixture(_ name: String, into directory: TemporaryDirectory) throws -> String {
    let root = directory.appending(name)
    try Fixtures.copy("sites/\(name)", to: root)
    return root
}

/// Folder stamps in tests (``FolderStamps``).
enum FolderStampTesting {
    /// How long a test waits for the folders it just changed to count as settled: longer than
    /// ``FolderStamps/settledNanoseconds`` allows a file system that keeps fractions of a second.
    /// Setting a folder's time back instead would not do: that gives it a new change time. (On a
    /// file system that keeps whole seconds a folder needs 2 s to settle: these tests assume one
    /// that keeps fractions, as ext4, tmpfs, btrfs and XFS do.)
    static let settling = Double(FolderStamps.settledNanoseconds.fractions) / 1e9 + 0.05
}

/// The local file system, counting the `lstat` calls, hard links and other questions asked at
/// paths that contain `watching` (a staging folder's name, say).
final class CountingFileSystem: PassingFileSystem, @unchecked Sendable {
    let watching: String
    private let lock = NSLock()
    private(set) var infos = 0
    private(set) var links = 0
    /// `stat` calls (following links), `realpath`s, reads of a file's first bytes, folder listings.
    private(set) var followed = 0, resolved = 0, prefixes = 0, listings = 0
    /// The files read whole, and those whose first bytes were read.
    private(set) var read: [String] = [], readPrefixes: [String] = []

    init(watching: String) { self.watching = watching }

    private func count(_ path: String, _ counter: ReferenceWritableKeyPath<CountingFileSystem, Int>) {
        if path.contains(watching) { lock.withLock { self[keyPath: counter] += 1 } }
    }

    override func info(_ path: String) -> FileInfo? {
        count(path, \.infos)
        return base.info(path)
    }
    override func folderInfos(below directory: String, _ paths: [String]) -> [FolderInfo?] {
        for path in paths { count(directory + "/" + path, \.infos) }
        return base.folderInfos(below: directory, paths)
    }
    override func infoFollowingLinks(_ path: String) -> FileInfo? {
        count(path, \.followed)
        return base.infoFollowingLinks(path)
    }
    override func realPath(_ path: String) throws -> String {
        count(path, \.resolved)
        return try base.realPath(path)
    }
    override func entries(in directory: String) throws -> [DirectoryEntry] {
        count(directory, \.listings)
        return try base.entries(in: directory)
    }
    override func read(_ path: String) throws -> Data {
        if path.contains(watching) { lock.withLock { read.append(path) } }
        return try base.read(path)
    }
    override func readPrefix(_ path: String, count n: Int) throws -> Data {
        count(path, \.prefixes)
        if path.contains(watching) { lock.withLock { readPrefixes.append(path) } }
        return try base.readPrefix(path, count: n)
    }
    override func link(_ source: String, to destination: String) throws {
        count(destination, \.links)
        try base.link(source, to: destination)
    }
}

/// The local file system, but its folder listings give another inode than `stat` does (as FUSE
/// file systems without `use_ino` and FAT can).
final class MislistingFileSystem: PassingFileSystem, @unchecked Sendable {
    override func entries(in directory: String) throws -> [DirectoryEntry] {
        try base.entries(in: directory).map { DirectoryEntry(name: $0.name, kind: $0.kind, inode: $0.inode.map { $0 &+ 1 }) }
    }
}

/// The local file system, but the first read of `path` runs `change` first: a file edited after
/// a build's walk, before the build reads it.
final class RacingFileSystem: PassingFileSystem, @unchecked Sendable {
    let path: String
    private let change: @Sendable () -> Void
    private let lock = NSLock()
    private var done = false

    init(path: String, change: @escaping @Sendable () -> Void) {
        self.path = path
        self.change = change
    }

    /// Whether `path` was read, and changed just before.
    var fired: Bool { lock.withLock { done } }

    override func read(_ path: String) throws -> Data {
        if path == self.path, lock.withLock({ !done }) {
            change()
            lock.withLock { done = true }
        }
        return try base.read(path)
    }
}

/// Runs `change` once, just before the `listing`th listing of `directory` (the build's walk of
/// the inputs lists the records' folder first, the loader's own walk second).
final class ListingRacingFileSystem: PassingFileSystem, @unchecked Sendable {
    let directory: String
    let listing: Int
    private let change: @Sendable () -> Void
    private let lock = NSLock()
    private var listings = 0

    init(directory: String, listing: Int, change: @escaping @Sendable () -> Void) {
        self.directory = directory
        self.listing = listing
        self.change = change
    }

    /// Whether the folder was listed that many times, and changed just before the last of them.
    var fired: Bool { lock.withLock { listings >= listing } }

    override func entries(in directory: String) throws -> [DirectoryEntry] {
        if directory == self.directory {
            let count = lock.withLock {
                listings += 1
                return listings
            }
            if count == listing { change() }
        }
        return try base.entries(in: directory)
    }
}
