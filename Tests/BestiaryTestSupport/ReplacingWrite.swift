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
