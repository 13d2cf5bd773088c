import BestiaryDiagnostics
import BestiaryStorage
import Foundation

/// The write stage: puts a complete build in place in one step, so `output/` is always either the
/// previous build or the new one, never a mix (DESIGN.md §4).
///
/// Files are written into a staging folder next to the output (same file system), which is then
/// exchanged with the output folder (`renameat2(RENAME_EXCHANGE)` on Linux). A failure or a kill
/// before the exchange leaves the previous output untouched; the staging folder of an
/// interrupted build is removed by the next one.
struct OutputWriter {
    let fileSystem: any FileSystem
    let output: String

    /// Written into every output so the next build knows the folder is its own to replace.
    static let markerName = ".bestiary-output"
    static let markerText = "{\"generator\":\"bestiary\",\"format\":1}\n"

    var parent: String {
        guard let slash = output.lastIndex(of: "/") else { return "." }
        let p = String(output[..<slash])
        return p.isEmpty ? "/" : p
    }

    var name: String {
        output.split(separator: "/").last.map(String.init) ?? output
    }

    func stagingPath() -> String {
        (parent == "." ? "" : parent + "/") + ".\(name).bestiary-staging-\(getpid())"
    }

    /// Refuses to replace a folder that is not a Bestiary output, and removes leftovers of killed builds.
    func prepare() throws(DiagnosticError) {
        if let info = fileSystem.info(output) {
            guard info.kind == .directory else {
                throw DiagnosticError(.error("\(output) exists and is not a folder; remove it or choose another --output", stage: "write"))
            }
            let entries = (try? fileSystem.entries(in: output)) ?? []
            if !entries.isEmpty && fileSystem.info(output + "/" + Self.markerName) == nil {
                throw DiagnosticError(.error(
                    "\(output) holds files that bestiary did not make; refusing to replace it. Remove it or choose another --output",
                    stage: "write"))
            }
        }
        // A killed in-place commit is finished first: its staging folder holds the rest of it.
        // One that cannot be finished (its staging folder gone, another output folder) is
        // dropped: without a record, this build writes the whole output anew, which repairs it.
        do {
            if try recover() { OutputRecord.forget(self) }
        } catch {
            try? fileSystem.remove(journalPath)
            OutputRecord.forget(self)
        }
        let prefix = ".\(name).bestiary-staging-"
        for entry in (try? fileSystem.entries(in: parent)) ?? [] where entry.name.hasPrefix(prefix) {
            let pid = Int32(entry.name.dropFirst(prefix.count)) ?? 0
            if pid != getpid() && (pid <= 0 || kill(pid, 0) != 0) {
                try? fileSystem.remove((parent == "." ? "" : parent + "/") + entry.name)
            }
        }
    }

    /// Writes `files` into a fresh staging folder, then swaps it in. Returns the index of what it
    /// wrote (the files keep their metadata through the swap).
    func write(_ files: [OutputFile]) throws(DiagnosticError) -> OutputIndex {
        let staging = try begin()
        try staging.add(files)
        try staging.commit()
        return OutputIndex(entries: staging.entries)
    }

    /// Starts a new output in a fresh staging folder next to the output. Files can be added from
    /// several threads; nothing replaces the output until ``Staging/commit()``. A staging folder
    /// dropped without a commit (the build failed) is removed.
    func begin() throws(DiagnosticError) -> Staging {
        try prepare()
        let path = stagingPath()
        do {
            try fileSystem.remove(path)
            try fileSystem.createDirectory(path)
        } catch {
            throw DiagnosticError(.error("cannot write the site: \(error); \(output) is unchanged", stage: "write"))
        }
        return Staging(writer: self, path: path)
    }

    final class Staging: @unchecked Sendable {
        let writer: OutputWriter
        let path: String
        private var committed = false
        private let lock = NSLock()
        private var written: [String: OutputIndex.Entry] = [:]

        init(writer: OutputWriter, path: String) {
            self.writer = writer
            self.path = path
        }

        deinit {
            if !committed { try? writer.fileSystem.remove(path) }
        }

        /// The staged files are in the output now (an in-place commit): nothing left to remove.
        func markCommitted() {
            committed = true
        }

        /// What was written so far, by output path: each file's identity and its metadata once
        /// written (a rename into the output keeps both).
        var entries: [String: OutputIndex.Entry] {
            lock.lock()
            defer { lock.unlock() }
            return written
        }

        /// Writes one file into the staging folder (its folders are made as needed). Thread-safe.
        func add(_ file: OutputFile) throws {
            let target = path + "/" + file.path
            switch file.content {
            case .data(let data): try writer.fileSystem.writeNew(data, to: target)
            case .file(let source): try writer.fileSystem.link(source, to: target)
            }
            guard let identity = writer.identity(of: file), let info = writer.fileSystem.info(target) else {
                throw FileSystemError(operation: "write", path: target, reason: "it is not there after writing")
            }
            lock.lock()
            written[file.path] = OutputIndex.Entry(identity: identity, written: info)
            lock.unlock()
        }

        /// Writes many files, in parallel, their folders made first.
        func add(_ files: [OutputFile]) throws(DiagnosticError) {
            do {
                var directories = Set<String>()
                for file in files {
                    var p = file.path
                    while let slash = p.lastIndex(of: "/") {
                        p = String(p[..<slash])
                        if !directories.insert(p).inserted { break }
                    }
                }
                for dir in directories.sorted() { try writer.fileSystem.createDirectory(path + "/" + dir) }
                try Parallel.map(files, minimumChunk: 64) { file in try add(file) }
            } catch {
                throw DiagnosticError(.error("cannot write the site: \(error); \(writer.output) is unchanged", stage: "write"))
            }
        }

        /// Puts the staged output in place of the previous one in one step, then removes the previous.
        func commit() throws(DiagnosticError) {
            let fs = writer.fileSystem
            do {
                try fs.writeNew(Data(OutputWriter.markerText.utf8), to: path + "/" + OutputWriter.markerName)
                if fs.info(writer.output) != nil {
                    try fs.exchange(path, writer.output)
                } else {
                    try fs.move(path, to: writer.output)
                    committed = true
                    return
                }
            } catch {
                throw DiagnosticError(.error("cannot write the site: \(error); \(writer.output) is unchanged", stage: "write"))
            }
            committed = true
            // The folder now holds the previous output.
            writer.removeTree(path)
        }
    }

    // MARK: In place, journaled

    /// The journal of an in-place commit, next to the output (like the staging folder).
    var journalPath: String {
        (parent == "." ? "" : parent + "/") + ".\(name).bestiary-journal"
    }

    static let journalHeader = "bestiary-journal 1"

    /// Moves the files staged in `staging` into the output, over the files they replace, and
    /// removes `removals`: the one-record rebuild's commit, which touches only what changed
    /// instead of replacing every file of a 10,000-animal site.
    ///
    /// Everything that can fail slowly (rendering, writing bytes, a full disk) happened before,
    /// into the staging folder, so a failed build leaves the output as it was. The commit itself
    /// is renames only: it first writes a journal of them, ignores Ctrl-C and termination while it
    /// runs them (milliseconds), then deletes the journal. A build killed in between (power loss,
    /// SIGKILL) leaves the journal, and the next build finishes the renames before anything
    /// else (``recover()``): the output is half old and half new only until then.
    func commitInPlace(_ staging: Staging, removals: [String]) throws(DiagnosticError) {
        let fs = fileSystem
        let puts = staging.entries.keys.sorted()
        // The staging folder by its name (it is next to the output) and the output folder by its
        // identity: a journal is finished only into the folder it was written for.
        let stagingName = staging.path.split(separator: "/").last.map(String.init) ?? staging.path
        var journal = Self.journalHeader + "\nstaging\t" + stagingName + "\noutput\t" + (OutputRecord.folderIdentity(self) ?? "-") + "\n"
        for p in puts { journal += "put\t" + p + "\n" }
        for p in removals.sorted() { journal += "remove\t" + p + "\n" }
        do {
            try fs.writeAtomically(Data(journal.utf8), to: journalPath)
        } catch {
            throw DiagnosticError(.error("cannot write the site: \(error); \(output) is unchanged", stage: "write"))
        }
        let restore = Self.holdSignals()
        defer { restore() }
        do {
            try apply(staging: staging.path, puts: puts, removals: removals)
        } catch {
            // The staging folder holds the rest of the commit: kept for the next build.
            staging.markCommitted()
            throw DiagnosticError(.error(
                "cannot update the site: \(error); \(output) is partly updated: \(journalPath) lists what is left, and the next build finishes it or writes the output anew",
                stage: "write"))
        }
        try? fs.remove(journalPath)
        staging.markCommitted()
        try? fs.remove(staging.path)
    }

    /// The renames of an in-place commit (again, when ``recover()`` finishes an interrupted one: a
    /// file already moved is not in the staging folder any more).
    private func apply(staging: String, puts: [String], removals: [String]) throws {
        let fs = fileSystem
        var made = Set<String>()
        for p in puts {
            let source = staging + "/" + p
            guard fs.info(source) != nil else {
                // Moved already (a commit being finished again), or lost: then it cannot be finished.
                if fs.info(output + "/" + p) == nil { throw FileSystemError(operation: "finish", path: source, reason: "the staged file is gone") }
                continue
            }
            if let slash = p.lastIndex(of: "/") {
                let dir = String(p[..<slash])
                if made.insert(dir).inserted { try fs.createDirectory(output + "/" + dir) }
            }
            try fs.move(source, to: output + "/" + p)
        }
        for p in removals {
            do {
                try fs.remove(output + "/" + p)
            } catch let error as FileSystemError where error.isNotFound {
                continue
            }
            removeEmptyParents(of: p)
        }
    }

    /// Finishes an in-place commit a killed build left (its journal is there). Returns whether
    /// there was one: the output is then complete, but no index describes it any more.
    @discardableResult
    func recover() throws(DiagnosticError) -> Bool {
        let fs = fileSystem
        guard let data = try? fs.read(journalPath) else { return false }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        let name = lines.count >= 3 && lines[1].hasPrefix("staging\t") ? String(lines[1].dropFirst("staging\t".count)) : ""
        guard lines.first == Self.journalHeader, name.hasPrefix(".\(self.name).bestiary-staging-"), !name.contains("/"),
            lines[2] == "output\t" + (OutputRecord.folderIdentity(self) ?? "-")
        else {
            throw DiagnosticError(.error("\(journalPath) is not a journal of this output folder", stage: "write"))
        }
        let staging = (parent == "." ? "" : parent + "/") + name
        var puts: [String] = []
        var removals: [String] = []
        for line in lines.dropFirst(3) {
            if line.hasPrefix("put\t") { puts.append(String(line.dropFirst(4))) }
            if line.hasPrefix("remove\t") { removals.append(String(line.dropFirst(7))) }
        }
        let restore = Self.holdSignals()
        defer { restore() }
        do {
            try apply(staging: staging, puts: puts, removals: removals)
        } catch {
            throw DiagnosticError(.error("cannot finish the interrupted update of \(output) (\(journalPath)): \(error)", stage: "write"))
        }
        try? fs.remove(journalPath)
        try? fs.remove(staging)
        return true
    }

    /// Ignores SIGINT, SIGTERM and SIGHUP until the returned function is called (a signal that
    /// arrives meanwhile is dropped: the renames it would interrupt take milliseconds).
    static func holdSignals() -> () -> Void {
        let numbers = [SIGINT, SIGTERM, SIGHUP]
        let previous = numbers.map { signal($0, SIG_IGN) }
        return {
            for (number, handler) in zip(numbers, previous) { signal(number, handler) }
        }
    }

    /// Removes a folder tree, its subfolders in parallel.
    func removeTree(_ path: String) {
        let fs = fileSystem
        let top = (try? fs.entries(in: path)) ?? []
        Parallel.map(top, minimumChunk: 1) { entry in try? fs.remove(path + "/" + entry.name) }
        try? fs.remove(path)
    }

    // MARK: In place

    /// The output folder is there and carries the marker of a Bestiary output (it was not
    /// removed or replaced by something else since it was written).
    var holdsOutput: Bool {
        fileSystem.info(output + "/" + Self.markerName) != nil
    }

    /// What a file in the output is: the digest of its bytes, or the identity of the media file it
    /// links (device, inode, size, time).
    func identity(of file: OutputFile) -> String? {
        switch file.content {
        case .data(let data): return Hashing.sha256Hex(data)
        case .file(let source):
            guard let info = fileSystem.infoFollowingLinks(source) else { return nil }
            return "file \(info.device) \(info.inode) \(info.size) \(info.modificationTime)"
        }
    }

    /// The file at `path` in the output is as `index` says it was written: nobody changed,
    /// replaced or removed it since.
    func isAsWritten(_ path: String, in index: OutputIndex) -> Bool {
        guard let entry = index.entries[path] else { return false }
        return fileSystem.info(output + "/" + path) == entry.written
    }

    /// Brings the output from `previous` to `files` in place: writes only files whose bytes differ
    /// from what the index says is there (or that were touched since), each atomically (a new file
    /// renamed over the old), and removes files no longer built. Returns the new index and the
    /// paths that changed. Readers may see some files new and others old until it returns, so
    /// only the preview updates in place; a crash in between is repaired by the next build, which
    /// starts without an index and writes the whole output anew.
    ///
    /// Files in `unchanged` are known to have the bytes they had when `previous` was made (pages
    /// the render memo reused): their identity is taken from the index, not hashed again.
    func update(_ files: [OutputFile], previous: OutputIndex, unchanged: Set<String> = []) throws(DiagnosticError) -> (OutputIndex, Set<String>) {
        guard holdsOutput else {
            throw DiagnosticError(.error("\(output) is not the output this preview wrote", stage: "write"))
        }
        let fs = fileSystem
        let output = self.output
        let results: [(String, OutputIndex.Entry, Bool)]
        do {
            results = try Parallel.map(files, minimumChunk: 64) { file -> (String, OutputIndex.Entry, Bool) in
                let target = output + "/" + file.path
                let known = unchanged.contains(file.path) ? previous.entries[file.path]?.identity : nil
                guard let identity = known ?? identity(of: file) else {
                    throw DiagnosticError(.error("cannot read \(file.path)'s source", stage: "write"))
                }
                let current = fs.info(target)
                if let old = previous.entries[file.path], old.identity == identity, let current, current == old.written {
                    return (file.path, old, false)
                }
                if case .file(let source) = file.content, let current, let s = fs.infoFollowingLinks(source),
                    current.inode == s.inode && current.device == s.device
                {
                    return (file.path, OutputIndex.Entry(identity: identity, written: current), previous.entries[file.path]?.identity != identity)
                }
                let slash = target.lastIndex(of: "/")!
                let temporary = String(target[..<slash]) + "/.bestiary-new-\(getpid())-" + target[target.index(after: slash)...]
                switch file.content {
                case .data(let data): try fs.writeNew(data, to: temporary)
                case .file(let source): try fs.link(source, to: temporary)
                }
                try fs.move(temporary, to: target)
                guard let written = fs.info(target) else { throw DiagnosticError(.error("\(file.path) vanished", stage: "write")) }
                return (file.path, OutputIndex.Entry(identity: identity, written: written), true)
            }
            var index = OutputIndex()
            var changed = Set<String>()
            for (path, entry, didChange) in results {
                index.entries[path] = entry
                if didChange { changed.insert(path) }
            }
            for path in previous.entries.keys where index.entries[path] == nil {
                try fs.remove(output + "/" + path)
                changed.insert(path)
                removeEmptyParents(of: path)
            }
            return (index, changed)
        } catch let error as DiagnosticError {
            throw error
        } catch {
            throw DiagnosticError(.error("cannot update the site: \(error); the next build writes it anew", stage: "write"))
        }
    }

    private func removeEmptyParents(of path: String) {
        var p = path
        while let slash = p.lastIndex(of: "/") {
            p = String(p[..<slash])
            let dir = output + "/" + p
            guard let entries = try? fileSystem.entries(in: dir), entries.isEmpty else { return }
            try? fileSystem.remove(dir)
        }
    }
}

/// What the write stage put in the output folder: each file's identity (see
/// ``OutputWriter/identity(of:)``) and the metadata it had once written, to tell later whether
/// anyone touched it since.
struct OutputIndex: Sendable {
    struct Entry: Sendable {
        var identity: String
        var written: FileInfo
    }

    var entries: [String: Entry] = [:]
}
