#if os(Linux)
import Foundation
import Glibc

/// Watches `content/` and `templates/` of a site root recursively with Linux inotify.
///
/// inotify watches one folder per watch descriptor, so every folder below the roots gets one, and
/// folders that appear later get one as soon as their creation is seen (their files, which may
/// have been written before the watch existed, are reported by a scan). The site root itself is
/// watched for `content/` or `templates/` appearing, disappearing or being replaced.
///
/// Modifications are taken from `IN_CLOSE_WRITE` (a writer finished) rather than `IN_MODIFY` (a
/// writer is half way through), and `IN_ATTRIB` is not watched at all: the build hard-links media
/// from `content/` into the output, which changes their link count and would otherwise trigger a
/// rebuild after every rebuild.
final class InotifyWatcher: FileWatcher, @unchecked Sendable {
    static let subtrees = WatchedFolders.names

    private let root: String
    private let sink: @Sendable (WatchSignal) -> Void
    private var fd: Int32 = -1
    private var wake: [Int32] = [-1, -1]
    /// Watch descriptor → folder relative to the root ("" is the root itself). Touched only by
    /// `start()` before the reader thread exists, then only by the reader thread.
    private var folders: [Int32: String] = [:]
    /// Watch descriptor of a folder holding files that links below the roots lead to → the name
    /// of such a file in it → the links (relative to the root) that lead to it. Touched as
    /// `folders` is.
    private var linkTargets: [Int32: [String: Set<String>]] = [:]
    private let finished = DispatchSemaphore(value: 0)
    private var running = false

    private static let folderMask = UInt32(
        IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
    private static let rootMask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ONLYDIR)
    /// Added to whatever watch the folder of a link's target already has (it may be one of ours).
    private static let targetMask = UInt32(IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ONLYDIR | IN_MASK_ADD)

    /// For tests: behave as if the system's watch limit were this many watches.
    private let watchLimit: Int?

    init(root: String, watchLimit: Int? = nil, sink: @escaping @Sendable (WatchSignal) -> Void) {
        self.root = root
        self.watchLimit = watchLimit
        self.sink = sink
    }

    deinit {
        if fd >= 0 { close(fd) }
        if wake[0] >= 0 { close(wake[0]); close(wake[1]) }
    }

    private func absolute(_ relative: String) -> String {
        relative.isEmpty ? root : (root == "." ? relative : root + "/" + relative)
    }

    func start() throws(WatchSetupError) {
        fd = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        guard fd >= 0 else {
            throw WatchSetupError(description: "inotify is unavailable (\(String(cString: strerror(errno))))")
        }
        guard pipe(&wake) == 0 else {
            throw WatchSetupError(description: "cannot create a pipe (\(String(cString: strerror(errno))))")
        }
        let rootWatch = inotify_add_watch(fd, root, Self.rootMask)
        guard rootWatch >= 0 else {
            throw WatchSetupError(description: "cannot watch \(root): \(String(cString: strerror(errno)))")
        }
        folders[rootWatch] = ""
        for subtree in Self.subtrees {
            if let problem = addTree(subtree, reportFiles: false) {
                throw WatchSetupError(description: problem)
            }
        }
        running = true
        let thread = Thread { [self] in
            readLoop()
            finished.signal()
        }
        thread.name = "bestiary.preview.inotify"
        thread.start()
    }

    func stop() {
        guard running else { return }
        running = false
        var byte: UInt8 = 1
        _ = write(wake[1], &byte, 1)
        finished.wait()
    }

    /// Adds watches for `relative` and every folder below it. Returns a problem when the system
    /// refuses (out of watches), nil otherwise (a folder that vanished meanwhile is no problem).
    private func addTree(_ relative: String, reportFiles: Bool) -> String? {
        let path = absolute(relative)
        var st = stat()
        // The roots may be symbolic links to folders; folders below them are not followed.
        let statResult = relative.contains("/") ? lstat(path, &st) : stat(path, &st)
        guard statResult == 0, (st.st_mode & S_IFMT) == S_IFDIR else { return nil }
        let mask = Self.folderMask | (relative.contains("/") ? UInt32(IN_DONT_FOLLOW) : 0)
        let overLimit = watchLimit.map { folders.count >= $0 } ?? false
        let wd = overLimit ? -1 : inotify_add_watch(fd, path, mask)
        if wd < 0 {
            let code = overLimit ? ENOSPC : errno
            if code == ENOSPC {
                return "the system's inotify watch limit is reached (fs.inotify.max_user_watches)"
            }
            if code == ENOENT || code == ENOTDIR { return nil }
            return "cannot watch \(relative): \(String(cString: strerror(code)))"
        }
        folders[wd] = relative
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var children: [(String, mode_t)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            let child = relative + "/" + name
            var cst = stat()
            guard lstat(absolute(child), &cst) == 0 else { continue }
            children.append((child, cst.st_mode & S_IFMT))
        }
        for (child, type) in children.sorted(by: { $0.0 < $1.0 }) {
            if type == S_IFDIR {
                if WatchFilter.isJunkName(String(child.split(separator: "/").last ?? "")) { continue }
                if let problem = addTree(child, reportFiles: reportFiles) { return problem }
                continue
            }
            if type == S_IFLNK, let problem = watchTarget(of: child) { return problem }
            if reportFiles { sink(.changed(child, .created)) }
        }
        return nil
    }

    /// When `link` (relative to the root) is a symbolic link to a file, watches the folder that
    /// file is in. Returns a problem when the system refuses for want of watches.
    private func watchTarget(of link: String) -> String? {
        guard let resolved = realpath(absolute(link), nil) else { return nil }
        let target = String(cString: resolved)
        free(resolved)
        var st = stat()
        guard stat(target, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, let slash = target.lastIndex(of: "/") else { return nil }
        let folder = slash == target.startIndex ? "/" : String(target[..<slash])
        let name = String(target[target.index(after: slash)...])
        let overLimit = watchLimit.map { folders.count + linkTargets.keys.count { folders[$0] == nil } >= $0 } ?? false
        let wd = overLimit ? -1 : inotify_add_watch(fd, folder, Self.targetMask)
        if wd < 0 {
            return (overLimit ? ENOSPC : errno) == ENOSPC ? "the system's inotify watch limit is reached (fs.inotify.max_user_watches)" : nil
        }
        linkTargets[wd, default: [:]][name, default: []].insert(link)
        return nil
    }

    /// Forgets `link` as a link to watch the target of (it was removed or replaced).
    private func forgetLink(_ link: String) {
        for (wd, names) in linkTargets {
            for (name, links) in names where links.contains(link) {
                linkTargets[wd]?[name]?.remove(link)
                if linkTargets[wd]?[name]?.isEmpty == true { linkTargets[wd]?[name] = nil }
            }
            // A folder watched for no link any more, and not one of the site's: its watch goes.
            if linkTargets[wd]?.isEmpty == true {
                linkTargets[wd] = nil
                if folders[wd] == nil { inotify_rm_watch(fd, wd) }
            }
        }
    }

    private func removeWatches(under relative: String) {
        for (wd, folder) in folders where folder == relative || folder.hasPrefix(relative + "/") {
            inotify_rm_watch(fd, wd)
            folders[wd] = nil
        }
    }

    private func readLoop() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0)]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                sink(.failed("inotify poll failed: \(String(cString: strerror(errno)))"))
                return
            }
            if fds[1].revents != 0 { return }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                sink(.failed("reading inotify events failed: \(String(cString: strerror(errno)))"))
                return
            }
            handle(buffer, count: count)
        }
    }

    private func handle(_ buffer: [UInt8], count: Int) {
        buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset + 16 <= count {
                let wd = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameBytes = raw[(offset + 16)..<min(offset + 16 + length, count)].prefix(while: { $0 != 0 })
                offset += 16 + length
                // A name that is not UTF-8 cannot be named to the rebuild (its path, decoded,
                // is no file): the build looks at everything and says what is wrong with it. It
                // was taken for a file that came and went, and the preview stayed green while
                // `bestiary build` failed (found by a team of editors).
                guard let name = String(validating: nameBytes, as: UTF8.self) else {
                    // Only in the folders the build reads (content/ and templates/ below the
                    // root), not for a name at the root or beside a linked file.
                    if let folder = folders[wd], !folder.isEmpty { sink(.lostTrack) }
                    continue
                }
                event(wd: wd, mask: mask, name: name)
            }
        }
    }

    private func has(_ mask: UInt32, _ flag: Int32) -> Bool { mask & UInt32(bitPattern: flag) != 0 }

    private func event(wd: Int32, mask: UInt32, name: String) {
        if has(mask, IN_Q_OVERFLOW) {
            sink(.lostTrack)
            return
        }
        if has(mask, IN_IGNORED) {
            folders[wd] = nil
            linkTargets[wd] = nil
            return
        }
        // A file that links below the roots lead to was written, replaced or removed.
        if !has(mask, IN_ISDIR), let links = linkTargets[wd]?[name],
            has(mask, IN_CLOSE_WRITE) || has(mask, IN_MOVED_TO) || has(mask, IN_CREATE) || has(mask, IN_DELETE) || has(mask, IN_MOVED_FROM)
        {
            for link in links.sorted() { sink(.changed(link, .modified)) }
        }
        guard let folder = folders[wd] else { return }
        let isFolder = has(mask, IN_ISDIR)
        if folder.isEmpty {
            // The site root: only content/ and templates/ matter.
            guard Self.subtrees.contains(name) else { return }
            removeWatches(under: name)
            if has(mask, IN_CREATE) || has(mask, IN_MOVED_TO), let problem = addTree(name, reportFiles: false) {
                sink(.failed(problem))
                return
            }
            sink(.lostTrack)
            return
        }
        if has(mask, IN_DELETE_SELF) || has(mask, IN_MOVE_SELF) {
            if Self.subtrees.contains(folder) {
                removeWatches(under: folder)
                sink(.lostTrack)
            }
            return
        }
        guard !name.isEmpty else { return }
        let path = folder + "/" + name
        if isFolder {
            if WatchFilter.isJunkName(name) { return }
            if has(mask, IN_CREATE) || has(mask, IN_MOVED_TO) {
                if let problem = addTree(path, reportFiles: true) { sink(.failed(problem)) }
            } else if has(mask, IN_DELETE) || has(mask, IN_MOVED_FROM) {
                // Every file below it went with it; which ones is not known here.
                removeWatches(under: path)
                sink(.lostTrack)
            }
            return
        }
        if has(mask, IN_DELETE) || has(mask, IN_MOVED_FROM) {
            forgetLink(path)
            sink(.changed(path, .removed))
        } else if has(mask, IN_CREATE) || has(mask, IN_MOVED_TO) {
            var st = stat()
            if lstat(absolute(path), &st) == 0, (st.st_mode & S_IFMT) == S_IFLNK {
                forgetLink(path)
                if let problem = watchTarget(of: path) { sink(.failed(problem)) }
            }
            sink(.changed(path, .created))
        } else if has(mask, IN_CLOSE_WRITE) {
            sink(.changed(path, .modified))
        }
    }
}
#endif
