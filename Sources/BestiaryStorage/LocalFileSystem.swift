import CBestiarySystem
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real file system, through POSIX calls (Foundation's `FileManager` is several times slower
/// for the tens of thousands of small files a big site has).
public struct LocalFileSystem: FileSystem {
    public init() {}

    private func failure(_ operation: String, _ path: String, _ code: Int32 = errno) -> FileSystemError {
        FileSystemError(operation: operation, path: path, reason: String(cString: strerror(code)), code: code)
    }

    public func read(_ path: String) throws -> Data {
        try withFileToRead(path) { fd, size in try readAll(fd, size, path) }
    }

    /// Mapped read-only, its pages mapped at once (`MAP_POPULATE`: one call instead of a fault
    /// per page); read as ``read(_:)`` does when it cannot be mapped (empty, or a size the
    /// system does not give, as in `/proc`).
    public func readShared(_ path: String) throws -> FileBytes {
        try withFileToRead(path) { fd, size in
            if let base = Self.map(fd, size) { return FileBytes(mapping: base, count: size) }
            return FileBytes(copying: try readAll(fd, size, path))
        }
    }

    /// One `Data` over a private mapping of the file (a page written is copied: the file never
    /// changes), so it may be changed like any other `Data`; read as ``read(_:)`` does when it
    /// cannot be mapped so.
    public func readMapped(_ path: String) throws -> Data {
        try withFileToRead(path) { fd, size in
            // Populated while read-only, so that no page is copied before it is written; then
            // writable (which a strict commit limit may refuse: then read).
            if let base = Self.map(fd, size) {
                if mprotect(base, size, PROT_READ | PROT_WRITE) == 0 {
                    return Data(bytesNoCopy: base, count: size, deallocator: .custom { pointer, count in munmap(pointer, count) })
                }
                munmap(base, size)
            }
            return try readAll(fd, size, path)
        }
    }

    /// `size` bytes of `fd` mapped read-only and populated; nil when empty or refused.
    private static func map(_ fd: Int32, _ size: Int) -> UnsafeMutableRawPointer? {
        #if os(Linux)
        let flags = MAP_PRIVATE | MAP_POPULATE
        #else
        let flags = MAP_PRIVATE
        #endif
        guard size > 0, let base = mmap(nil, size, PROT_READ, flags, fd, 0), base != MAP_FAILED else { return nil }
        return base
    }

    /// What ``read(_:)`` reads from an open file.
    private func readAll(_ fd: Int32, _ size: Int, _ path: String) throws -> Data {
        var data = Data(count: size)
        let total = try data.withUnsafeMutableBytes { try readUpTo(size, into: $0.baseAddress, from: fd, path) }
        if total < size { data.removeSubrange(total...) }
        try readRest(fd, path) {
            data.append(contentsOf: $0)
            return true
        }
        return data
    }

    /// `path` opened for reading (not a folder), with its size as `fstat` gives it.
    private func withFileToRead<T>(_ path: String, _ body: (Int32, Int) throws -> T) throws -> T {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("read", path) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw failure("read", path) }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            throw FileSystemError(operation: "read", path: path, reason: "is a directory", code: EISDIR)
        }
        return try body(fd, Int(st.st_size))
    }

    /// Reads until `size` bytes are in `buffer` or the file ends; returns how many.
    private func readUpTo(_ size: Int, into buffer: UnsafeMutableRawPointer?, from fd: Int32, _ path: String) throws -> Int {
        guard let buffer else { return 0 }
        var total = 0
        while total < size {
            let n = Glibc_read(fd, buffer + total, size - total)
            if n < 0 {
                if errno == EINTR { continue }
                throw failure("read", path)
            }
            if n == 0 { break }
            total += n
        }
        return total
    }

    /// What a file that grew while it was read holds after what was read, or a stream to its end
    /// (64 KiB at a time, in a buffer not cleared first: most reads of a file find nothing more),
    /// until `append` says to stop.
    private func readRest(_ fd: Int32, _ path: String, _ append: (UnsafeRawBufferPointer) -> Bool) throws {
        try withUnsafeTemporaryAllocation(byteCount: 65536, alignment: 16) { chunk in
            while true {
                let n = Glibc_read(fd, chunk.baseAddress!, 65536)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw failure("read", path)
                }
                if n == 0 { break }
                guard append(UnsafeRawBufferPointer(rebasing: chunk[0..<n])) else { break }
            }
        }
    }

    public func readPrefix(_ path: String, count: Int) throws -> Data {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("read", path) }
        defer { close(fd) }
        var data = Data(count: count)
        var total = 0
        try data.withUnsafeMutableBytes { buf in
            while total < count {
                let n = Glibc_read(fd, buf.baseAddress! + total, count - total)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw failure("read", path)
                }
                if n == 0 { break }
                total += n
            }
        }
        data.count = total
        return data
    }

    private func writeAll(_ fd: Int32, _ data: Data, _ path: String) throws {
        try data.withUnsafeBytes { buf in
            var off = 0
            while off < buf.count {
                let n = Glibc_write(fd, buf.baseAddress! + off, buf.count - off)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw failure("write", path)
                }
                off += n
            }
        }
    }

    private func parent(_ path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let p = String(path[..<slash])
        return p.isEmpty ? "/" : p
    }

    /// Whether the process's umask takes read or search rights from the group or others (077):
    /// then every file this writes is set to 0644 and every folder it makes to 0755 explicitly.
    /// Under umask 077 a build's pages were 0600 and a web server answered 403, and reused by the
    /// next builds (a spare output) they stayed so after the umask was mended (found by an IT
    /// person); the output's modes are also the same on every machine. Read from
    /// `/proc/self/status` (setting the umask to read it would race with other threads).
    static let adjustsModes: Bool = {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
            let mask = Int(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8)
        else { return true }
        return mask & 0o055 != 0
    }()

    public func writeAtomically(_ data: Data, to path: String) throws {
        try writeAtomically(parts: [data], to: path)
    }

    public func writeAtomically(parts: [Data], to path: String) throws {
        if let dir = parent(path) { try createDirectory(dir) }
        let tmp = "\(path).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("write", path) }
        if Self.adjustsModes { fchmod(fd, 0o644) }
        do {
            for data in parts { try writeAll(fd, data, path) }
            guard fsync(fd) == 0 else { throw failure("write", path) }
            close(fd)
        } catch {
            close(fd)
            unlink(tmp)
            throw error
        }
        guard rename(tmp, path) == 0 else {
            let e = failure("write", path)
            unlink(tmp)
            throw e
        }
    }

    public func writeNew(_ data: Data, to path: String) throws {
        try writeNew(parts: [data], to: path)
    }

    public func writeNew(parts: [Data], to path: String) throws {
        var fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 && errno == ENOENT, let dir = parent(path) {
            try createDirectory(dir)
            fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        }
        guard fd >= 0 else { throw failure("write", path) }
        defer { close(fd) }
        if Self.adjustsModes { fchmod(fd, 0o644) }
        for data in parts { try writeAll(fd, data, path) }
    }

    private static func kind(_ mode: mode_t) -> FileKind {
        switch mode & S_IFMT {
        case S_IFREG: .file
        case S_IFDIR: .directory
        case S_IFLNK: .symlink
        default: .other
        }
    }

    private static func nanoseconds(_ t: timespec) -> Int64 { Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec) }

    private static func makeInfo(_ st: stat) -> FileInfo {
        #if canImport(Darwin)
        let mtime = nanoseconds(st.st_mtimespec)
        #else
        let mtime = nanoseconds(st.st_mtim)
        #endif
        return FileInfo(
            kind: kind(st.st_mode), size: Int(st.st_size), modificationTime: mtime,
            inode: UInt64(st.st_ino), device: UInt64(st.st_dev))
    }

    public func info(_ path: String) -> FileInfo? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return Self.makeInfo(st)
    }

    public func infoFollowingLinks(_ path: String) -> FileInfo? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Self.makeInfo(st)
    }

    public func entries(in directory: String) throws -> [DirectoryEntry] {
        guard let dir = opendir(directory) else { throw failure("list", directory) }
        defer { closedir(dir) }
        return list(dir, directory)
    }

    public func unorderedEntries(in directory: String) throws -> [DirectoryEntry] {
        guard let dir = opendir(directory) else { throw failure("list", directory) }
        defer { closedir(dir) }
        return list(dir, directory, sorted: false)
    }

    /// The entries of the open folder `dir` (at `directory`), sorted by name in byte order.
    private func list(_ dir: OpaquePointer, _ directory: String, sorted: Bool = true) -> [DirectoryEntry] {
        var result: [DirectoryEntry] = []
        while let ent = readdir(dir) {
            let name = withUnsafePointer(to: ent.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            var kind: FileKind
            var inode: UInt64? = UInt64(ent.pointee.d_ino)
            switch Int32(ent.pointee.d_type) {
            case Int32(DT_REG): kind = .file
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_LNK): kind = .symlink
            case Int32(DT_UNKNOWN):
                let found = self.info(directory + "/" + name)
                kind = found?.kind ?? .other
                inode = found?.inode
            default: kind = .other
            }
            result.append(DirectoryEntry(name: name, kind: kind, inode: inode))
        }
        if sorted { result.sort { Self.precedesInByteOrder($0.name, $1.name) } }
        return result
    }

    /// `a.utf8.lexicographicallyPrecedes(b.utf8)` by `memcmp` over the strings' bytes (a folder of
    /// 29,000 pictures is sorted on every build; the generic comparison took most of its listing).
    /// Each string's bytes are read in place: a copy of each (to call `withUTF8`) was retained
    /// and released on every comparison, which made the sort 2.5 times slower.
    @inline(__always) static func precedesInByteOrder(_ a: String, _ b: String) -> Bool {
        let inPlace = a.utf8.withContiguousStorageIfAvailable { pa in
            b.utf8.withContiguousStorageIfAvailable { pb -> Bool in
                let n = min(pa.count, pb.count)
                if n > 0, let x = pa.baseAddress, let y = pb.baseAddress {
                    let c = memcmp(x, y, n)
                    if c != 0 { return c < 0 }
                }
                return pa.count < pb.count
            }
        }
        if let inPlace, let result = inPlace { return result }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// Each entry's `lstat` relative to the open folder (`fstatat`): the kernel looks up one
    /// name instead of walking the whole path again, on every core for a large folder.
    public func entriesWithInfo(in directory: String) throws -> [(entry: DirectoryEntry, info: FileInfo?)] {
        guard let dir = opendir(directory) else { throw failure("list", directory) }
        defer { closedir(dir) }
        // The same open folder lists the names and answers for them.
        let entries = list(dir, directory)
        return Array(zip(entries, Self.infos(at: dirfd(dir), entries.map(\.name))))
    }

    /// Each of `paths`' `lstat` relative to the open folder `fd`, in parallel.
    private static func infos(at fd: Int32, _ paths: [String]) -> [FileInfo?] {
        Parallel.map(paths, chunk: 256) { path -> FileInfo? in
            var st = stat()
            guard fstatat(fd, path, &st, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
            return makeInfo(st)
        }
    }

    /// Each `lstat` relative to the open folder (`fstatat`), with the change time: the kernel walks
    /// the few names below it, not the whole path again (a staging folder's 20,000 folders are
    /// looked at twice a build).
    public func folderInfos(below directory: String, _ paths: [String]) -> [FolderInfo?] {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return paths.map { _ in nil } }
        defer { close(fd) }
        return Parallel.map(paths, chunk: 256) { path -> FolderInfo? in
            var st = stat()
            guard fstatat(fd, path, &st, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
            #if canImport(Darwin)
            let ctime = Self.nanoseconds(st.st_ctimespec)
            #else
            let ctime = Self.nanoseconds(st.st_ctim)
            #endif
            return FolderInfo(info: Self.makeInfo(st), changeTime: ctime)
        }
    }

    public func permissions(_ path: String) -> UInt16? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return UInt16(st.st_mode & 0o7777)
    }

    public func realPath(_ path: String) throws -> String {
        guard let p = realpath(path, nil) else { throw failure("resolve", path) }
        defer { free(p) }
        return String(cString: p)
    }

    public func createDirectory(_ path: String) throws {
        if path.isEmpty { return }
        if mkdir(path, 0o755) == 0 {
            if Self.adjustsModes { chmod(path, 0o755) }
            return
        }
        let code = errno
        if code == EEXIST {
            if isDirectory(path) { return }
            throw FileSystemError(operation: "create directory", path: path, reason: "a file is in the way", code: EEXIST)
        }
        if code == ENOENT, let dir = parent(path), dir != path {
            try createDirectory(dir)
            if mkdir(path, 0o755) == 0 {
                if Self.adjustsModes { chmod(path, 0o755) }
                return
            }
            if errno == EEXIST && isDirectory(path) { return }
        }
        throw failure("create directory", path, code == ENOENT ? errno : code)
    }

    public func remove(_ path: String) throws {
        guard let inf = info(path) else { return }
        if inf.kind == .directory {
            for entry in try entries(in: path) {
                try remove(path + "/" + entry.name)
            }
            guard rmdir(path) == 0 || errno == ENOENT else { throw failure("remove", path) }
        } else {
            guard unlink(path) == 0 || errno == ENOENT else { throw failure("remove", path) }
        }
    }

    public func removeOwned(_ path: String) throws {
        do {
            try remove(path)
        } catch {
            // A folder made read-only: each folder below made writable by its owner, then removed.
            func makeWritable(_ folder: String) {
                var st = stat()
                guard lstat(folder, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else { return }
                if st.st_mode & 0o700 != 0o700 { chmod(folder, (st.st_mode & 0o7777) | 0o700) }
                for entry in (try? entries(in: folder)) ?? [] where entry.kind == .directory { makeWritable(folder + "/" + entry.name) }
            }
            makeWritable(path)
            try remove(path)
        }
    }

    public func move(_ source: String, to destination: String) throws {
        guard rename(source, destination) == 0 else { throw failure("move", source) }
    }

    public func exchange(_ a: String, _ b: String) throws {
        if cbestiary_exchange_paths(a, b) == 0 { return }
        let code = errno
        guard code == ENOSYS || code == EINVAL else { throw failure("exchange", a, code) }
        // No atomic exchange here: three renames, with a window in which `b` is missing.
        let aside = b + ".exchange-\(getpid())"
        try move(b, to: aside)
        try move(a, to: b)
        try move(aside, to: a)
    }

    public func link(_ source: String, to destination: String) throws {
        try link(source, to: destination, following: false)
    }

    /// With `linkat`'s `AT_SYMLINK_FOLLOW`: no call more than ``link(_:to:)`` makes.
    public func linkFollowingLinks(_ source: String, to destination: String) throws {
        try link(source, to: destination, following: true)
    }

    private func link(_ source: String, to destination: String, following: Bool) throws {
        let flags = following ? AT_SYMLINK_FOLLOW : 0
        if Glibc_linkat(source, destination, flags) == 0 { return }
        var code = errno
        if code == ENOENT, let dir = parent(destination) {
            try createDirectory(dir)
            if Glibc_linkat(source, destination, flags) == 0 { return }
            code = errno
        }
        if code == EEXIST {
            unlink(destination)
            if Glibc_linkat(source, destination, flags) == 0 { return }
            code = errno
        }
        // Different file systems or no hard links: copy the bytes.
        if code == EXDEV || code == EPERM || code == EMLINK || code == ENOTSUP {
            try writeNew(try read(source), to: destination)
            return
        }
        throw failure("link", destination, code)
    }
}

/// Streams: what is read to its end instead of by its size (`bestiary import -`, `<(curl …)`).
extension LocalFileSystem {
    /// Whether `path` (links followed) is a named pipe, such as the `/dev/fd/63` of a shell's
    /// `<(command)`: it has no size and is read to its end.
    public func isPipe(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFIFO
    }

    /// What an open descriptor such as standard input is, for a reader that takes files and streams.
    public enum Descriptor: Equatable, Sendable {
        /// A terminal: nobody piped anything in.
        case terminal
        /// Another device (`< /dev/zero`), which may never end.
        case device
        /// A regular file (`< dump.json`) of this many bytes.
        case file(size: Int)
        /// A pipe or a socket: read to its end.
        case stream
    }

    public func describe(_ fd: Int32) -> Descriptor {
        if isatty(fd) == 1 { return .terminal }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return .stream }
        switch st.st_mode & S_IFMT {
        case S_IFCHR, S_IFBLK: return .device
        case S_IFREG: return .file(size: Int(st.st_size))
        default: return .stream
        }
    }

    /// Everything `fd` gives until it ends, or nil once more than `limit` bytes came (nothing more
    /// is read then). `name` is the stream's name in an error.
    public func readStream(_ fd: Int32, limit: Int, name: String) throws -> [UInt8]? {
        var data: [UInt8] = []
        var tooMuch = false
        try readRest(fd, name) { chunk in
            tooMuch = data.count + chunk.count > limit
            if !tooMuch { data.append(contentsOf: chunk) }
            return !tooMuch
        }
        return tooMuch ? nil : data
    }

    /// ``readStream(_:limit:name:)`` of the pipe at `path`, opened for reading (which waits for a
    /// writer, as `cat` does).
    public func readStream(_ path: String, limit: Int) throws -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("read", path) }
        defer { close(fd) }
        return try readStream(fd, limit: limit, name: path)
    }
}

// Unambiguous names for the libc calls whose Swift names clash with our methods.
@inline(__always) private func Glibc_read(_ fd: Int32, _ buf: UnsafeMutableRawPointer, _ n: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(fd, buf, n)
    #else
    Darwin.read(fd, buf, n)
    #endif
}

@inline(__always) private func Glibc_write(_ fd: Int32, _ buf: UnsafeRawPointer, _ n: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, buf, n)
    #else
    Darwin.write(fd, buf, n)
    #endif
}

@inline(__always) private func Glibc_linkat(_ a: String, _ b: String, _ flags: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.linkat(AT_FDCWD, a, AT_FDCWD, b, flags)
    #else
    Darwin.linkat(AT_FDCWD, a, AT_FDCWD, b, flags)
    #endif
}
