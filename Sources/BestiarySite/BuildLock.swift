import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One build at a time per output: `bestiary build`, a second `build` and the preview's
/// rebuilds take an exclusive lock on `.NAME.bestiary-lock` next to the output for the whole
/// build, so two of them never read the same pack history and each record a different version
/// under the same number. A build that finds the lock taken waits for it. The file stays (removing
/// it would let a waiting build lock a file nobody else sees); the kernel releases the lock when
/// its process ends, however it ends.
final class BuildLock {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The lock on `path`, waiting for it if another build holds it (`waiting` is called first;
    /// there is no time limit: a build stopped with Ctrl-Z keeps the others waiting). Nil when the file cannot be opened (a folder this user cannot write: the build then
    /// fails where it writes, with that message).
    static func acquire(_ path: String, waiting: () -> Void) -> BuildLock? {
        var descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if descriptor < 0, errno == ENOENT {
            // The output's folder is not there yet (a first build into `dist/site`): made now,
            // as the write stage would make it, so that two first builds lock the same file.
            let folder = (path as NSString).deletingLastPathComponent
            try? FileManager.default.createDirectory(atPath: folder.isEmpty ? "." : folder, withIntermediateDirectories: true)
            descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else { return nil }
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
        return BuildLock(descriptor: descriptor)
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
