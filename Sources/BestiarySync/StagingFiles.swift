import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Plain POSIX calls for the staging folder: a first sync stages thousands of small files, and
/// `FileManager` on Linux spends many system calls on each (removing 10,000 files took 20 s
/// with `removeItem`, well under one with `unlink`).
enum StagingFiles {
    /// The size of the regular file at `path`, or nil.
    static func size(_ path: String) -> Int? {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(st.st_size)
    }

    static func exists(_ path: String) -> Bool { size(path) != nil }

    /// Removes a file; no error when it is not there.
    static func remove(_ path: String) {
        _ = unlink(path)
    }

    /// `rename(2)`.
    static func move(_ source: String, to destination: String) throws {
        guard rename(source, destination) == 0 else {
            throw SyncError(.store, "cannot rename \(source): \(String(cString: strerror(errno)))")
        }
    }

    /// `rmdir(2)`: removes the folder only when it is empty; no error otherwise.
    static func removeEmptyFolder(_ path: String) {
        _ = rmdir(path)
    }

    /// Every entry of the folder at `path` (none when it is not there).
    static func entries(_ path: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    }

    /// What ``lockExclusively(_:)`` got.
    enum Lock {
        /// Held until the descriptor is closed.
        case held(Int32)
        /// Another sync holds it.
        case busy
        /// No lock to be had here (a read-only folder, a file system without `flock`): the sync
        /// goes on without one, as the build does (`FileLock`).
        case unavailable
    }

    /// An exclusive `flock(2)` on the file at `path` (made when missing; opened read-only when it
    /// cannot be written, which `flock` allows).
    static func lockExclusively(_ path: String) -> Lock {
        var fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if fd < 0 { fd = open(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return .unavailable }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            close(fd)
            return busy ? .busy : .unavailable
        }
        return .held(fd)
    }

    /// Creates an empty file unless one is there.
    static func touch(_ path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT, 0o644)
        guard fd >= 0 else { throw SyncError(.store, "cannot create \(path): \(String(cString: strerror(errno)))") }
        close(fd)
    }
}

/// The lock one sync of a store holds (`STORE.lock`, an exclusive `flock`) from before the store
/// is opened until this value is released: a second sync of the same store, in this process or
/// another, is refused (``SyncError/Reason/busy``) when the lock is still held after
/// ``busyGrace`` (a second). Where no lock can be had (a read-only folder, a file system without
/// `flock`), it is held without one.
///
/// The grace is for a lock that outlives its sync by a moment: a process the app starts copies
/// every descriptor it holds, the lock's included, and keeps the lock until it runs its program
/// (`O_CLOEXEC` closes it only then). A sync started right after another ended was refused once
/// so, as "busy", in the test suite, whose other tests start processes.
public final class StoreLock: @unchecked Sendable {
    public let path: String
    private let descriptor: Int32?

    private init(path: String, descriptor: Int32?) {
        self.path = path
        self.descriptor = descriptor
    }

    /// `STORE.lock`, the file locked for the store at `store`.
    public static func path(forStoreAt store: String) -> String { store + ".lock" }

    /// How long a held lock is waited for before a sync is refused as busy.
    public static let busyGrace: Duration = .seconds(1)

    /// The lock of the store at `store` (its file need not exist yet), waited for up to
    /// ``busyGrace`` (asleep, not holding a thread of the caller's executor).
    public static func acquire(forStoreAt store: String) async throws(SyncError) -> StoreLock {
        let path = Self.path(forStoreAt: store)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: busyGrace)
        while true {
            switch StagingFiles.lockExclusively(path) {
            case .held(let descriptor): return StoreLock(path: path, descriptor: descriptor)
            case .unavailable: return StoreLock(path: path, descriptor: nil)
            case .busy:
                guard clock.now < deadline else {
                    throw SyncError(.busy, "another sync of this store is running (it holds \(path)); let it finish, then sync again")
                }
                do {
                    try await Task.sleep(for: .milliseconds(20))
                } catch {
                    throw SyncError(.cancelled, "the sync was cancelled while another held the store's lock; the store is unchanged")
                }
            }
        }
    }

    deinit {
        if let descriptor { close(descriptor) }
    }
}
