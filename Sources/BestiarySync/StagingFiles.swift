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

    /// Creates an empty file unless one is there.
    static func touch(_ path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT, 0o644)
        guard fd >= 0 else { throw SyncError(.store, "cannot create \(path): \(String(cString: strerror(errno)))") }
        close(fd)
    }
}
