import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One process at a time: an exclusive `flock` on a file, held while the value lives.
///
/// One build at a time per output: `bestiary build`, a second `build` and the preview's
/// rebuilds take it on `.NAME.bestiary-lock` next to the output for the whole build, so two of
/// them never read the same pack history and each record a different version under the same
/// number; a one-shot build of a site with packs also holds it on `content/` itself, for builds
/// of one site into two outputs (``acquireFolder(_:waiting:)``). One fetch at a time per site:
/// `bestiary fetch` takes it on `content/wikipedia/.pending/lock`, so two fetches never ask Wikipedia for the same articles at
/// twice the polite rate. Whoever finds the lock taken waits for it. The file stays (removing it
/// would let a waiter lock a file nobody else sees); the kernel releases the lock when its process
/// ends, however it ends.
public final class FileLock: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The lock on `path`, waiting for it if another process holds it (`waiting` is called first;
    /// there is no time limit: a build stopped with Ctrl-Z keeps the others waiting). Nil when
    /// the file cannot be opened (a folder this user cannot write: the build or fetch then fails
    /// where it writes, with that message). It blocks its thread while it waits.
    public static func acquire(_ path: String, waiting: () -> Void) -> FileLock? {
        let descriptor = openCreating(path)
        guard descriptor >= 0 else { return nil }
        return lock(descriptor, waiting: waiting)
    }

    private static func lock(_ descriptor: Int32, waiting: () -> Void) -> FileLock? {
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK else {
                close(descriptor)
                return nil
            }
            waiting()
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    close(descriptor)
                    return nil
                }
            }
        }
        return FileLock(descriptor: descriptor)
    }

    /// The lock on the folder `path` itself (no file is made in it), waiting as ``acquire(_:waiting:)``
    /// does: what a one-shot build holds on `content/`, so that two builds of one site into two
    /// output folders never record the same pack version in `content/packs.lock` with different
    /// bytes (found by a CI maintainer). Nil when the folder cannot be opened.
    public static func acquireFolder(_ path: String, waiting: () -> Void) -> FileLock? {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        return lock(descriptor, waiting: waiting)
    }

    /// What ``tryAcquire(_:)`` found.
    public enum Attempt: Sendable {
        case acquired(FileLock)
        /// Another process (or another open of the file) holds it.
        case held
        /// The file cannot be opened or locked (a folder this user cannot write).
        case unavailable
    }

    /// The lock on `path` if nobody holds it, without waiting: what `bestiary build` asks of a
    /// preview's lock (`.NAME.bestiary-serving`, held by `bestiary serve` for its whole session).
    /// Without `creating`, a file that is not there is nobody's lock (`.unavailable`), and is not
    /// made: a build that only looks leaves nothing behind.
    public static func tryAcquire(_ path: String, creating: Bool = true) -> Attempt {
        tryLock(creating ? openCreating(path) : open(path, O_RDWR | O_CLOEXEC))
    }

    /// The lock on the open `descriptor` (closed unless locked) if nobody holds it.
    private static func tryLock(_ descriptor: Int32) -> Attempt {
        guard descriptor >= 0 else { return .unavailable }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let held = errno == EWOULDBLOCK
            close(descriptor)
            return held ? .held : .unavailable
        }
        return .acquired(FileLock(descriptor: descriptor))
    }

    /// The lock on the folder `path` itself if nobody holds it, without waiting: what the process
    /// removing a tree a build discarded holds on it while it works, and what a later build asks
    /// of it to tell a tree still being removed from one whose removal stopped (a process id in
    /// its name would not tell: the first process of a container is 1 in every container). A link
    /// is never followed (`.unavailable`), nor is anything made.
    public static func tryAcquireFolder(_ path: String) -> Attempt {
        tryLock(open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC))
    }

    /// The device and inode of what the lock was taken on (`fstat`), to check that a path still
    /// names it; nil when it cannot be asked.
    public var identity: (device: UInt64, inode: UInt64)? {
        var st = stat()
        guard fstat(descriptor, &st) == 0 else { return nil }
        return (UInt64(st.st_dev), UInt64(st.st_ino))
    }

    /// `path` opened for locking, made if missing, with its folder (a first build into
    /// `dist/site`, a first fetch: made now, as the writing would make it, so that two first runs
    /// lock the same file); a negative descriptor when that fails.
    private static func openCreating(_ path: String) -> Int32 {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor < 0, errno == ENOENT else { return descriptor }
        let folder = PathText.parent(path)
        try? FileManager.default.createDirectory(atPath: folder.isEmpty ? "." : folder, withIntermediateDirectories: true)
        return open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    }

    /// ``acquire(_:waiting:)`` on a thread of its own, so that waiting blocks no thread of
    /// Swift's concurrency pool (two waiters could take both of a 2-core machine's). The wait
    /// cannot be cancelled: it ends when the holder lets go (or its process ends).
    public static func acquireOnOwnThread(_ path: String, waiting: @escaping @Sendable () -> Void) async -> FileLock? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: acquire(path, waiting: waiting)) }
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
