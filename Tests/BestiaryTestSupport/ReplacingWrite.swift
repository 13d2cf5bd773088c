import Foundation

extension Data {
    /// Writes as `write(to:options: .atomic)` does: a new file, complete, renamed over `path`
    /// (which gets a new inode: tests of rebuilds rely on that), made beside the system's
    /// temporary folder, not in a watched site. Foundation's atomic write left an empty
    /// `/tmp/TemporaryDirectory.*` folder behind for each write (about 350 per `make test`).
    public func writeReplacing(toFile path: String) throws {
        let temporary = FileManager.default.temporaryDirectory.path + "/bestiary-write-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        try write(to: URL(fileURLWithPath: temporary))
        if rename(temporary, path) != 0 {
            let error = errno
            unlink(temporary)
            // Another file system than the temporary folder's: a plain write.
            guard error == EXDEV else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
            try write(to: URL(fileURLWithPath: path))
        }
    }
}

extension String {
    /// ``Data/writeReplacing(toFile:)`` of the string's UTF-8 bytes.
    public func writeReplacing(toFile path: String) throws {
        try Data(utf8).writeReplacing(toFile: path)
    }
}

/// Writes `data` over the file at `path` in place: the same file (inode), so its folder does not
/// change either.
public func overwriteInPlace(_ path: String, _ data: Data) {
    guard let handle = FileHandle(forWritingAtPath: path) else { return }
    handle.write(data)
    handle.closeFile()
}

/// Puts `data` in place into the file at `path` with the times it had (`before`): what a walk
/// lists of it is then what it was, as after a second change within the file system clock's
/// resolution. Throws unless it is the same file of the same size after.
public func overwriteKeepingMetadata(_ path: String, _ data: Data, as before: stat) throws {
    overwriteInPlace(path, data)
    var now = stat()
    guard utimensat(AT_FDCWD, path, [before.st_atim, before.st_mtim], 0) == 0, stat(path, &now) == 0,
        now.st_ino == before.st_ino, now.st_size == before.st_size, now.st_mtim.tv_sec == before.st_mtim.tv_sec,
        now.st_mtim.tv_nsec == before.st_mtim.tv_nsec
    else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
}

/// Sets the modification time of the file (or link itself) at `path` a minute ahead: a build's
/// walk finds it changed just before it began however late it begins (on a busy machine, more
/// than 2 s after the write).
public func markJustChanged(_ path: String) throws {
    let omit = (1 << 30) - 2  // UTIME_OMIT: the access time left as it is
    var times = [timespec(tv_sec: 0, tv_nsec: omit), timespec(tv_sec: time(nil) + 60, tv_nsec: 0)]
    guard utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0 else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
    }
}
