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
    /// Removes a discarded tree in another process (``BuildOptions/removesInBackground``).
    var removesInBackground: (@Sendable (String) -> Bool)?

    init(fileSystem: any FileSystem, output: String, removesInBackground: (@Sendable (String) -> Bool)? = nil) {
        self.fileSystem = fileSystem
        self.output = output
        self.removesInBackground = removesInBackground
    }

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

    /// Where a reusing build leaves the output it replaced (``Staging/commit(keepingPrevious:)``),
    /// for the next reusing build to start its staging folder from: most of its files are hard
    /// links to the output's, and its folders exist, so that build changes a few entries instead
    /// of making 20,000 folders and 80,000 links (ext4 allocates an inode per folder).
    var sparePath: String {
        (parent == "." ? "" : parent + "/") + ".\(name).bestiary-spare"
    }

    /// What a discarded tree is renamed to before it is removed in the background
    /// (``discard(_:)``): `.NAME.bestiary-trash-PID-N`, PID this process's, N at random. The
    /// process that removes it holds a lock on the folder while it works: a tree nobody holds is
    /// a leftover, to remove again (``removeLeftovers()``).
    static let trashInfix = ".bestiary-trash-"

    /// How long a discarded tree of this user's may wait for its removal in the background before
    /// a build removes it itself: a remover that cannot work here (it starts, then fails) is not
    /// started again and again without a word.
    static let trashPatience: Int64 = 600_000_000_000

    /// The discarded trees this build made or handed to a remover, by path: not leftovers to it
    /// (a second look moments later would start a second remover before the first one holds its
    /// lock; the end of the build would make one that is starting give up). Shared by the copies
    /// of this writer.
    private let handedOn = LockedPaths()

    /// Whether `suffix` (what follows `.NAME.bestiary-trash-`) is one a build makes: `PID-N`,
    /// two numbers. (`.x.bestiary-trash-y.bestiary-state` is another output's, one named
    /// `x.bestiary-trash-y`; a user's `.x.bestiary-trash-5` is not a tree a build discarded.)
    static func isTrashSuffix(_ suffix: Substring) -> Bool {
        let parts = suffix.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.count <= 10 && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    /// `path` as an absolute path (a relative one is below the current folder), for a process
    /// that works from another folder.
    private func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// Removes a folder tree the output no longer needs (the output a full build replaced, the
    /// spare) in another process when the build was given one (``removesInBackground``): renamed
    /// out of the way at once, it goes while the build ends. Else, or when it cannot be renamed
    /// or no process started, here.
    func discard(_ path: String) {
        // (Another user's tree, root's output replaced by a user's build, would stay for good:
        // removed here as far as it can be, what stays is named once the build is done.)
        if let removesInBackground, Self.isOwn(path) {
            let trash = (parent == "." ? "" : parent + "/") + ".\(name)\(Self.trashInfix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            if (try? fileSystem.move(path, to: trash)) != nil {
                // A remover holds a lock on the tree while it works, which tells a later build
                // that it is still going: where a folder cannot be locked (some network file
                // systems), the tree is removed here.
                guard case .acquired = FileLock.tryAcquireFolder(trash) else {
                    removeTree(trash)
                    return
                }
                handedOn.insert(trash)
                if !removesInBackground(absolute(trash)) { removeTree(trash) }
                return
            }
        }
        removeTree(path)
    }

    /// The stamps of the output's folders (``FolderStamps``), and of the spare's: kept beside them,
    /// each naming the folder it describes, and moved with it when the output becomes the spare.
    var foldersPath: String { (parent == "." ? "" : parent + "/") + ".\(name).bestiary-folders" }
    var spareFoldersPath: String { (parent == "." ? "" : parent + "/") + ".\(name).bestiary-spare-folders" }

    /// Locked by `bestiary serve` for its whole session (``SiteBuilder/holdForPreview()``): a
    /// one-shot build of the same output refuses while it is held.
    var servingPath: String { (parent == "." ? "" : parent + "/") + ".\(name).bestiary-serving" }

    /// Refuses to replace a folder that is not a Bestiary output, and removes leftovers of killed builds.
    func prepare() throws(DiagnosticError) {
        try refuseForeignOutput()
        // Earlier versions of Bestiary moved changed files into the output one by one, journaled:
        // a journal it left means the output may be a mix, so this build writes it anew.
        let journal = (parent == "." ? "" : parent + "/") + ".\(name).bestiary-journal"
        if fileSystem.info(journal) != nil {
            OutputRecord.forget(self)
            try? fileSystem.remove(journal)
        }
        removeLeftovers()
    }

    /// Refuses a folder that is not a Bestiary output (a file, or a folder of other files): what
    /// a build checks first, before it leaves anything next to it, and again before it writes.
    func refuseForeignOutput() throws(DiagnosticError) {
        guard let info = fileSystem.info(output) else { return }
        if info.kind == .symlink {
            // A build replaces the output folder whole (a rename), which would replace the link,
            // not write where it leads.
            let target = (try? fileSystem.realPath(output)).map { " (to \($0))" } ?? ""
            throw DiagnosticError(.error(
                "\(output) is a symbolic link\(target); bestiary replaces its output folder whole and does not follow links: give --output the folder itself, or remove the link",
                stage: "write"))
        }
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

    /// Removes the leftovers of killed builds: staging folders (`.NAME.bestiary-staging-PID`) and
    /// the temporary files of atomic writes next to the output (`.NAME.bestiary-state.tmp-PID-N`)
    /// whose process is gone. Also done by a build that finds the output up to date (a build
    /// stopped by Ctrl-C leaves a copy of the site behind).
    func removeLeftovers() {
        for name in leftoverNames() {
            let path = (parent == "." ? "" : parent + "/") + name
            // A discarded tree whose removal stopped (or never started): again in the background,
            // unless it has waited too long for that already.
            if name.hasPrefix(".\(self.name)\(Self.trashInfix)"), Self.isOwn(path), !changedLongAgo(name), let removesInBackground,
                case .acquired = FileLock.tryAcquireFolder(path)
            {
                handedOn.insert(path)
                if removesInBackground(absolute(path)) { continue }
            }
            try? fileSystem.removeOwned(path)
        }
    }

    /// Whether the entry `name` next to the output last changed (`st_ctime`: made, renamed) more
    /// than ``trashPatience`` ago.
    private func changedLongAgo(_ name: String) -> Bool {
        guard let changed = fileSystem.folderInfos(below: parent, [name]).first??.changeTime else { return false }
        return changed < FileFacts.nanoseconds(Date()) - Self.trashPatience
    }

    /// What a build left next to the output that this process cannot remove: a staging folder or
    /// a spare output of a build run as another user (root), which it may not write into either.
    /// Named once the build is done, with what to do.
    func stuckLeftovers() -> [String] {
        // (A discarded tree of this user's is handed to another process, or removed here once it
        // waited too long: only another user's stays for good.)
        let trash = ".\(name)\(Self.trashInfix)"
        let prefix = parent == "." ? "" : parent + "/"
        var stuck = leftoverNames().filter { !$0.hasPrefix(trash) || !Self.isOwn(prefix + $0) }
        // (A spare of this user's made read-only goes at the next build: ``begin(reusingSpare:spare:)``.)
        if fileSystem.info(sparePath)?.kind == .directory, !Self.isWritable(sparePath), !Self.isOwn(sparePath) {
            stuck.append(".\(name).bestiary-spare")
        }
        return stuck.filter { fileSystem.info((parent == "." ? "" : parent + "/") + $0) != nil }
    }

    /// Whether this process's user owns `path`.
    static func isOwn(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0 && st.st_uid == geteuid()
    }

    /// The leftovers of killed builds next to the output (their process is gone).
    private func leftoverNames() -> [String] {
        var names: [String] = []
        let prefix = ".\(name).bestiary-staging-"
        let trash = ".\(name)\(Self.trashInfix)"
        for entry in (try? fileSystem.entries(in: parent)) ?? [] {
            let pid: Int32
            if entry.name.hasPrefix(prefix) {
                pid = Int32(entry.name.dropFirst(prefix.count)) ?? 0
            } else if entry.name.hasPrefix(trash) {
                // Only a name a build made (`PID-N`): `.x.bestiary-trash-y.bestiary-state` is
                // another output's (one named `x.bestiary-trash-y`). Not a tree this build
                // discarded or handed on, nor one a remover holds; one that cannot be locked at
                // all (some network file systems) is a leftover.
                let path = (parent == "." ? "" : parent + "/") + entry.name
                guard Self.isTrashSuffix(entry.name.dropFirst(trash.count)), !handedOn.contains(path) else { continue }
                if case .held = FileLock.tryAcquireFolder(path) { continue }
                names.append(entry.name)
                continue
            } else if entry.name.hasPrefix(".\(name).bestiary-"), let tmp = entry.name.range(of: ".tmp-") {
                pid = Int32(entry.name[tmp.upperBound...].prefix { $0 != "-" }) ?? 0
            } else {
                continue
            }
            // (A process of another user answers EPERM: it is alive.)
            if AtomicWriteLeftovers.isGone(pid) { names.append(entry.name) }
        }
        return names
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
    ///
    /// With `reusingSpare`, the staging folder starts as the output an earlier reusing build
    /// replaced (``sparePath``), when there is one: whatever it holds is checked in one walk in
    /// ``Staging/linkFromOutput(_:holding:folders:removed:)`` and anything not part of the new build is removed then.
    /// With `spare` (what the record of the output says of the spare), a spare whose folders'
    /// stamps still hold is not walked (``Staging/linkKnowing(_:_:holding:folders:removed:)``):
    /// they are checked from here on, and the first file added waits for them (this build's
    /// writes change its folders).
    func begin(reusingSpare: Bool = false, spare: SpareRecord? = nil) throws(DiagnosticError) -> Staging {
        try prepare()
        let path = stagingPath()
        do {
            try fileSystem.removeOwned(path)
            // A spare this process may not write into (the output was made read-only before the
            // last build replaced it, or another user built it: root) is not written into: it goes
            // if it can, and this build stages anew either way.
            let spareUsable = fileSystem.info(sparePath)?.kind == .directory && Self.isWritable(sparePath)
            if reusingSpare, !spareUsable, fileSystem.info(sparePath)?.kind == .directory { try? fileSystem.removeOwned(sparePath) }
            if reusingSpare, spareUsable, (try? fileSystem.move(sparePath, to: path)) != nil {
                let fs = fileSystem
                let known = spare.map { spare in
                    Background {
                        OutputRecord.folderIdentity(of: path, fs) == spare.folder && spare.stamps.hold(below: path, fileSystem: fs) ? spare : nil
                    }
                }
                return Staging(writer: self, path: path, holdsPrevious: true, spare: known)
            }
            try fileSystem.createDirectory(path)
        } catch {
            throw DiagnosticError(.error("cannot write the site: \(error)\(whereHint(error)); \(output) is unchanged", stage: "write"))
        }
        return Staging(writer: self, path: path, holdsPrevious: false)
    }

    final class Staging: @unchecked Sendable {
        let writer: OutputWriter
        let path: String
        private var committed = false
        private let lock = NSLock()
        private var written: [String: OutputIndex.Entry] = [:]
        /// The folder started as an earlier output (``OutputWriter/begin(reusingSpare:)``): its
        /// entries may be hard links to the output's files, so a file is never written in place,
        /// always unlinked first, and what the build does not make is removed before the swap.
        let holdsPrevious: Bool
        /// What the spare this folder started as holds, when its folders' stamps held.
        var spare: SpareRecord? { spareCheck?.value() ?? nil }
        private let spareCheck: Background<SpareRecord?, Never>?

        init(writer: OutputWriter, path: String, holdsPrevious: Bool, spare: Background<SpareRecord?, Never>? = nil) {
            self.writer = writer
            self.path = path
            self.holdsPrevious = holdsPrevious
            spareCheck = spare
        }

        deinit {
            _ = spareCheck?.value()  // not a thread left looking at a folder that goes
            if !committed { try? writer.fileSystem.removeOwned(path) }
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
            _ = spareCheck?.value()  // the spare's folders are looked at before any changes
            let target = path + "/" + file.path
            func write() throws {
                // Writing into a linked file would change the output's copy too.
                if holdsPrevious { try writer.fileSystem.remove(target) }
                switch file.content {
                case .data(let data): try writer.fileSystem.writeNew(data, to: target)
                case .parts(let parts): try writer.fileSystem.writeNew(parts: parts, to: target)
                case .file(let source): try writer.fileSystem.linkFollowingLinks(source, to: target)
                }
            }
            do { try write() } catch where holdsPrevious {
                // A file of the earlier output where one of this file's folders belongs (put there
                // by another hand): the folders are made, that file removed, and it is written again.
                try makeDirectories(of: [file.path])
                try write()
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
                try makeDirectories(of: files.lazy.map(\.path))
                // Not grouped by folder, as ``linkFromOutput(_:holding:folders:removed:)`` is: a
                // full build stages the packs' 24,555 media links here while render runs, and
                // grouped, its peak rose by 4–6 MB (three full builds each, 2026-12-07).
                _ = try Parallel.map(files, chunk: 64) { file in try add(file) }
            } catch {
                throw DiagnosticError(.error("cannot write the site: \(error); \(writer.output) is unchanged", stage: "write"))
            }
        }

        /// Hard-links files of the current output into the staging folder as they are (their
        /// index entries stay those of the output), in parallel, their missing folders made first.
        /// `index` is every file of the new output: what the previous build's record says each
        /// unchanged file is (every path given was checked against it already, so the output's
        /// files need not be read again) and what this staging folder wrote.
        ///
        /// A staging folder that started as the spare (``holdsPrevious``) is walked once: a file
        /// stays where the directory lists the very file (inode) the index has at its path, which
        /// is so for all but the few the last build changed; any other entry goes, a file put
        /// there by hand or an older version of a page included. Only what is then missing is
        /// linked. A spare whose folders' stamps held (``spare``) is not walked but where they
        /// cannot tell (``linkKnowing(_:_:holding:folders:removed:)``); `folders` are those of
        /// the new output, `removed` the output's files it no longer has.
        func linkFromOutput(
            _ paths: [String], holding index: RebuiltIndex, folders: OutputFolders, removed: [String]
        ) throws(DiagnosticError) {
            let fs = writer.fileSystem
            do {
                var missing = paths
                if let spare, try linkKnowing(spare, paths, holding: index, folders: folders, removed: removed) { return }
                if holdsPrevious {
                    // What this build wrote here is kept by its path: a file system may list
                    // another number than `stat` gives (FUSE without `use_ino`, FAT), and then
                    // only the output's files are linked again, never this build's removed.
                    let staged = entries
                    let (found, seen) = try prune { child, inode in
                        staged[child] != nil || (inode != nil && index[child]?.written.inode == inode)
                    }
                    if found == index.count { return }
                    let present = Set(seen.joined())
                    missing = paths.filter { !present.contains($0) }
                }
                try makeDirectories(of: missing)
                try Parallel.forEach(missing, groupedBy: OutputWriter.folder(of:)) { file in
                    try fs.link(writer.output + "/" + file, to: path + "/" + file)
                }
            } catch {
                throw DiagnosticError(.error("cannot write the site: \(error); \(writer.output) is unchanged", stage: "write"))
            }
        }

        /// A folder of the staging tree (with its parents); a file of the earlier output in its
        /// way is removed first.
        private func makeDirectory(_ relative: String) throws {
            _ = spareCheck?.value()
            let fs = writer.fileSystem
            let target = path + "/" + relative
            if holdsPrevious, let info = fs.info(target) {
                // An earlier output's folder is kept as it is (one lstat instead of a failing mkdir).
                if info.kind == .directory { return }
                try fs.remove(target)
            }
            try fs.createDirectory(target)
        }

        /// Makes the folders of `files` (with their parents), parents first: those that hold other
        /// folders of the list depth by depth, then the rest (a folder per page: `animals/ID`,
        /// `en/animals/ID`) all at once, grouped by the folder they go into, so that no two threads
        /// make folders in one folder at a time (``Parallel/forEach(_:groupedBy:_:)``).
        func makeDirectories<S: Sequence>(of files: S) throws where S.Element == String {
            let directories = FolderStamps.folders(of: files)
            let parents = Set(directories.lazy.map { OutputWriter.folder(of: $0) })
            let holding = directories.filter { parents.contains(Substring($0)) }
            let byDepth = Dictionary(grouping: holding) { $0.utf8.count { $0 == UInt8(ascii: "/") } }
            for depth in byDepth.keys.sorted() {
                try Parallel.forEach(byDepth[depth]!.sorted(), groupedBy: OutputWriter.folder(of:)) { try makeDirectory($0) }
            }
            let rest = directories.filter { !parents.contains(Substring($0)) }.sorted()
            try Parallel.forEach(rest, groupedBy: OutputWriter.folder(of:)) { try makeDirectory($0) }
        }

        /// Removes every file and folder of the staging tree but the files `keeps` accepts (by
        /// path and the inode its directory lists, nil when the file system does not say) and
        /// the folders holding them; top-level folders in parallel. Returns how many files it
        /// kept, and their paths.
        private func prune(keeping keeps: @Sendable (String, UInt64?) -> Bool) throws -> (Int, [[String]]) {
            let fs = writer.fileSystem
            // Whether `relative` (a folder) still holds something kept.
            func walk(_ relative: String, _ kept: inout [String]) throws -> Bool {
                var holds = false
                for entry in try fs.unorderedEntries(in: relative.isEmpty ? path : path + "/" + relative) {
                    let child = relative.isEmpty ? entry.name : relative + "/" + entry.name
                    if entry.kind == .directory, try walk(child, &kept) {
                        holds = true
                    } else if entry.kind != .directory, keeps(child, entry.inode) {
                        kept.append(child)
                        holds = true
                    } else {
                        try fs.remove(path + "/" + child)
                    }
                }
                return holds
            }
            let top = try fs.entries(in: path)
            let kept = try Parallel.map(top, chunk: 1) { entry -> [String] in
                if entry.name == OutputWriter.markerName { return [] }
                var kept: [String] = []
                if entry.kind == .directory {
                    if try !walk(entry.name, &kept) { try fs.remove(path + "/" + entry.name) }
                } else if keeps(entry.name, entry.inode) {
                    kept.append(entry.name)
                } else {
                    try fs.remove(path + "/" + entry.name)
                }
                return kept
            }
            return (kept.reduce(0) { $0 + $1.count }, kept)
        }

        /// Puts the staged output in place of the previous one in one step, then removes the
        /// previous one, or with `keepingPrevious` keeps it as the next reusing build's starting
        /// point (``OutputWriter/sparePath``).
        func commit(keepingPrevious: Bool = false) throws(DiagnosticError) {
            let fs = writer.fileSystem
            do {
                let marker = path + "/" + OutputWriter.markerName
                if holdsPrevious { try fs.remove(marker) }
                try fs.writeNew(Data(OutputWriter.markerText.utf8), to: marker)
                if fs.info(writer.output) != nil {
                    try fs.exchange(path, writer.output)
                } else {
                    try fs.move(path, to: writer.output)
                    committed = true
                    return
                }
            } catch {
                throw DiagnosticError(.error("cannot write the site: \(error)\(writer.whereHint(error)); \(writer.output) is unchanged", stage: "write"))
            }
            committed = true
            // The folder now holds the previous output.
            if keepingPrevious, fs.info(writer.sparePath) == nil, (try? fs.move(path, to: writer.sparePath)) != nil { return }
            writer.discard(path)
            // A full build's files share nothing with an older spare: it would only be relinked.
            if !keepingPrevious, fs.info(writer.sparePath) != nil { writer.discard(writer.sparePath) }
        }
    }

    // MARK: Reusing the previous output

    /// The one-record rebuild's commit: `staging` holds only the files whose bytes changed; the
    /// unchanged files (`unchanged`, paths in the output) are hard-linked into it from the output
    /// (no bytes copied, and each keeps its inode and metadata, so the build record still
    /// describes it), then the staging folder is swapped in like a full build's. The output is
    /// therefore the previous one or the new one at every moment, whatever kills the build.
    /// `beforeSwap` runs once the staging folder is complete, just before it replaces the output.
    /// Returns the stamps of the new output's folders (``FolderStamps``), taken once it is
    /// complete, before the swap; nil when they could not be taken. `removed`: the files of the
    /// output the new one no longer has; `previousFolders`: the stamps of the output's folders.
    func commitReusing(
        _ staging: Staging, unchanged: [String], index: RebuiltIndex, removed: [String], previousFolders: FolderStamps?,
        foreign: inout [String], beforeSwap: () -> Void
    ) throws(DiagnosticError) -> FolderStamps? {
        // The new output's folders: the output's and those of the files this build added, unless
        // files went from a folder that may have gone with them.
        let folders = OutputFolders(previous: previousFolders, files: index.keys, written: staging.entries.keys, removed: removed)
        try staging.linkFromOutput(unchanged, holding: index, folders: folders, removed: removed)
        do {
            // What the previous output had at the top: its files, and the folders of those the new one drops.
            let removedTop = Set(removed.map { String($0.prefix { $0 != "/" }) })
            foreign = try keepForeign(into: staging, index: index, folders: folders, removed: removedTop)
        } catch {
            throw DiagnosticError(.error("cannot keep the files put into \(output) by hand: \(error); \(output) is unchanged", stage: "write"))
        }
        let stamps = FolderStamps.take(below: staging.path, folders: folders.all, fileSystem: fileSystem)
        beforeSwap()
        try staging.commit(keepingPrevious: true)
        return stamps
    }

    /// Files and folders at the top of the output that no build made (a `CNAME` or a
    /// `.nojekyll` put there by hand): neither the new output's (`index`, `folders`), nor what
    /// the previous output had and the new one drops (`removed`: top-level names), nor the marker. They are
    /// hard-linked into `staging` as they are (a folder's tree too: its files, symbolic links and
    /// empty folders; sockets and pipes, which no site publishes, are left out), so a rebuild
    /// never deletes them; returns their names, sorted. (A build that writes the whole output
    /// anew has no record to tell them from an older build's files, and leaves them out.)
    func keepForeign(
        into staging: Staging, index: RebuiltIndex, folders: OutputFolders, removed: Set<String>
    ) throws -> [String] {
        var kept: [String] = []
        for entry in try fileSystem.unorderedEntries(in: output) {
            let name = entry.name
            guard name != Self.markerName, index[name] == nil, !folders.contains(name), !removed.contains(name),
                fileSystem.info(staging.path + "/" + name) == nil
            else { continue }
            try linkTree(name, kind: entry.kind, into: staging)
            kept.append(name)
        }
        return kept.sorted()
    }

    /// Links `relative` (below the output) into `staging` at the same path: a folder made anew and
    /// its entries linked in turn, a file or a symbolic link hard-linked (a link itself, not what
    /// it points to: Linux's `link` does not follow it).
    private func linkTree(_ relative: String, kind: FileKind, into staging: Staging) throws {
        let source = output + "/" + relative, target = staging.path + "/" + relative
        switch kind {
        case .directory:
            try fileSystem.createDirectory(target)
            for entry in try fileSystem.entries(in: source) { try linkTree(relative + "/" + entry.name, kind: entry.kind, into: staging) }
        case .file, .symlink:
            try fileSystem.link(source, to: target)
        case .other:
            break
        }
    }

    /// Removes a folder tree, its subfolders in parallel.
    func removeTree(_ path: String) {
        let fs = fileSystem
        let top = (try? fs.entries(in: path)) ?? []
        _ = Parallel.map(top, chunk: 1) { entry in try? fs.remove(path + "/" + entry.name) }
        // What a read-only folder kept.
        try? fs.removeOwned(path)
    }

    /// What a failure to stage or swap the output says of where the output is: a build makes the
    /// new output next to the old one and swaps the two by renaming, so the folder holding it
    /// must be writable, and the output cannot be a mount point. Empty for other failures.
    func whereHint(_ error: any Error) -> String {
        guard let error = error as? FileSystemError else { return "" }
        let holder = parent == "." ? "the current folder" : parent
        switch error.code {
        case EBUSY:
            return " (\(output) is a mount point, which a build cannot swap for the new output: build into a folder inside it, --output \(output)/site, and publish that)"
        case EACCES, EPERM, EROFS:
            return " (a build makes the new output next to \(output) and swaps the two, so \(holder) must be writable; or build elsewhere with --output)"
        default:
            return ""
        }
    }

    /// Whether this process may add and remove entries in `folder` (its top only: a folder below
    /// it made read-only alone fails the build at its first write there, naming it).
    static func isWritable(_ folder: String) -> Bool { access(folder, W_OK) == 0 }

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
        case .data, .parts: return file.dataSHA256
        case .file(let source): return fileSystem.infoFollowingLinks(source).map(Self.identity(linking:))
        }
    }

    /// The identity of an output file that links the media file `info` describes.
    static func identity(linking info: FileInfo) -> String {
        "file \(info.device) \(info.inode) \(info.size) \(info.modificationTime)"
    }

    /// The file at `path` in the output is as `index` says it was written: nobody changed,
    /// replaced or removed it since.
    func isAsWritten(_ path: String, in index: OutputIndex) -> Bool {
        guard let entry = index.entries[path] else { return false }
        return fileSystem.info(output + "/" + path) == entry.written
    }

    /// The index of the output when it holds exactly `files` and the marker, no other file: each
    /// at its path, a linked file the very media file (its inode) or a copy of its bytes, any other
    /// file these bytes (read and compared). Nil otherwise. Folders are not compared: an empty one
    /// made by hand stays. For a preview that starts on an output a build left up to date and
    /// takes it as it is (``SiteBuilder/adoptsOutput``), with no record of it to go by.
    func index(ifHolding files: [OutputFile]) -> OutputIndex? {
        guard holdsOutput, let present = filePaths(), present == Set(files.map(\.path)).union([Self.markerName]) else { return nil }
        let fs = fileSystem
        let output = self.output
        let entries = Parallel.map(files, chunk: 64) { file -> (String, OutputIndex.Entry)? in
            let target = output + "/" + file.path
            guard let current = fs.info(target), current.kind == .file else { return nil }
            switch file.content {
            case .file(let source):
                guard let info = fs.infoFollowingLinks(source), info.size == current.size else { return nil }
                // A copy where the file system could not link (another device): the same bytes.
                if info.inode != current.inode || info.device != current.device {
                    guard let copy = try? fs.read(target), let original = try? fs.read(source), copy == original else { return nil }
                }
                return (file.path, OutputIndex.Entry(identity: Self.identity(linking: info), written: current))
            case .data, .parts:
                guard current.size == file.byteCount, let bytes = try? fs.read(target), bytes == file.bytes, let identity = identity(of: file) else { return nil }
                return (file.path, OutputIndex.Entry(identity: identity, written: current))
            }
        }
        var index = OutputIndex()
        index.entries.reserveCapacity(entries.count)
        for entry in entries {
            guard let (path, value) = entry else { return nil }
            index.entries[path] = value
        }
        return index
    }

    /// Every file below the output folder, by path relative to it (the marker included); nil when
    /// it holds anything but files and folders or cannot be listed.
    private func filePaths() -> Set<String>? {
        var paths = Set<String>()
        var folders = [""]
        while let folder = folders.popLast() {
            guard let entries = try? fileSystem.unorderedEntries(in: folder.isEmpty ? output : output + "/" + folder) else { return nil }
            for entry in entries {
                let path = folder.isEmpty ? entry.name : folder + "/" + entry.name
                switch entry.kind {
                case .file: paths.insert(path)
                case .directory: folders.append(path)
                default: return nil
                }
            }
        }
        return paths
    }

    /// Brings the output from `previous` to `files` in place: writes only files whose bytes differ
    /// from what the index says is there (or that were touched since), each atomically (a new file
    /// renamed over the old), and removes files no longer built. Returns the new index and the
    /// paths that changed. Readers may see some files new and others old until it returns, so
    /// only the preview updates in place; a crash in between is repaired by the next build, which
    /// starts without an index and writes the whole output anew.
    ///
    /// What a file names is there before it: files at new paths first (content-hashed assets, the
    /// catalogue, media, a version's manifest), new pages next, then the files at paths the output
    /// had (pages, the service worker, `latest.json`), and only then are the files no longer built
    /// removed. So at every moment each page is the old one or the new one, and everything it
    /// links resolves (a page naming a stylesheet not written yet came back unstyled: found by a
    /// tester), whenever the update is read or stopped.
    ///
    /// Files in `unchanged` are known to have the bytes they had when `previous` was made (pages
    /// the render memo reused): their identity is taken from the index, not hashed again.
    ///
    /// `sources` gives the metadata the build's walk found for a media file (by its path, as the
    /// output's links name it), nil where it has none. With it, the folders holding the media
    /// links are stamped (``FolderStamps``) before anything in them is looked at, and a link in a
    /// folder whose stamp is still the one the last update took is not looked at when its media
    /// file has the metadata the link had when it was written: the folder holds the entries it
    /// held then (it gains or loses one only with a new time), each the inode the index says, and
    /// that inode is the media file (one changed in place is a changed media file). 63,665 `lstat`
    /// calls in every rebuild of the bench corpus otherwise.
    func update(
        _ files: [OutputFile], previous: consuming OutputIndex, unchanged: Set<String> = [], sources: (@Sendable (String) -> FileInfo?)? = nil
    ) throws(DiagnosticError) -> (OutputIndex, Set<String>) {
        guard holdsOutput else {
            throw DiagnosticError(.error("\(output) is not the output this preview wrote", stage: "write"))
        }
        let fs = fileSystem
        let output = self.output
        // The new index is the previous one with what changed set in it, not made anew: 83,000
        // inserts, and the old table freed, on one core in every rebuild of the bench corpus
        // (the preview hands its index over, so it is changed in place).
        var index = previous
        let before = index.entries.count
        // Stamped now, before any of their links is looked at: a change made while this update
        // runs gives the folder a time after its stamp, so the next update looks again.
        var stamps: FolderStamps? = nil
        var trusted = Set<Substring>()
        if sources != nil {
            var folders = Set<Substring>()
            var last: Substring? = nil
            for file in files {
                guard case .file = file.content else { continue }
                let folder = Self.folder(of: file.path)
                if folder != last { folders.insert(folder); last = folder }
            }
            folders.remove("")
            stamps = FolderStamps.take(below: output, folders: folders.map(String.init), fileSystem: fs, waitingFor: nil)
            if let now = stamps, let then = index.linkFolders {
                for (folder, info) in now.settled where then.settled[folder] == info { trusted.insert(Substring(folder)) }
            }
        }
        index.linkFolders = nil
        do {
            let (updates, found) = try changes(files, previous: index, unchanged: unchanged, trusted: trusted, sources: sources)
            // The previous entries no file found (each path once: when every path of the previous
            // index is still built, none went), by their places in its table, before it changes:
            // not a set of the 83,000 paths made and looked up again.
            let gone = found.count < before ? OutputIndex.keys(of: index.entries, notAt: found) : []
            var changed = Set<String>()
            for update in updates {
                index.entries[update.path] = update.entry
                if update.changed { changed.insert(update.path) }
            }
            for path in gone { index.entries[path] = nil }
            try Parallel.forEach(gone, groupedBy: OutputWriter.folder(of:)) { path in try fs.remove(output + "/" + path) }
            changed.formUnion(gone)
            removeEmptyFolders(above: gone)
            // A folder this update wrote into or removed from has a newer time than its stamp.
            if var stamps {
                for update in updates { stamps.settled[String(Self.folder(of: update.path))] = nil }
                for path in gone { stamps.settled[String(Self.folder(of: path))] = nil }
                index.linkFolders = stamps
            }
            return (index, changed)
        } catch let error as DiagnosticError {
            throw error
        } catch {
            throw DiagnosticError(.error("cannot update the site: \(error); the next build writes it anew", stage: "write"))
        }
    }

    /// What ``update(_:previous:unchanged:)`` changes in the output: each file whose entry is not
    /// the previous index's any more (written anew, or found another way), and the places in the
    /// previous index's table of the entries of `files` it has. Writes the files in the three
    /// groups' order.
    private func changes(
        _ files: [OutputFile], previous: borrowing OutputIndex, unchanged: Set<String>, trusted: Set<Substring>,
        sources: (@Sendable (String) -> FileInfo?)?
    ) throws -> (updates: [(path: String, entry: OutputIndex.Entry, changed: Bool)], found: [Dictionary<String, OutputIndex.Entry>.Index]) {
        let fs = fileSystem
        let output = self.output
        let entries = previous.entries
        // The three groups, in order (see above), each file with its previous entry (looked up
        // once: 83,000 paths on the bench corpus).
        var phases: [[(file: OutputFile, old: OutputIndex.Entry?)]] = [[], [], []]
        phases[2].reserveCapacity(files.count)
        var found: [Dictionary<String, OutputIndex.Entry>.Index] = []
        found.reserveCapacity(files.count)
        for file in files {
            if let place = entries.index(forKey: file.path) {
                found.append(place)
                phases[2].append((file, entries.values[place]))
            } else {
                phases[file.path.hasSuffix(".html") ? 1 : 0].append((file, nil))
            }
        }
        var updates: [(path: String, entry: OutputIndex.Entry, changed: Bool)] = []
        for phase in phases where !phase.isEmpty {
            updates += try Parallel.map(phase, chunk: 64) { file, old -> (path: String, entry: OutputIndex.Entry, changed: Bool)? in
                // A link in a folder that kept its stamp, to a media file as it was when linked (see
                // ``update(_:previous:unchanged:sources:)``).
                if case .file(let source) = file.content, let old, !trusted.isEmpty, trusted.contains(Self.folder(of: file.path)),
                    let info = sources?(source), info.kind == .file, info == old.written, OutputChecks.identity(old.identity, links: info)
                {
                    return nil
                }
                let target = output + "/" + file.path
                let current = fs.info(target)
                // A linked file is its media file (a hard link: one inode) under a name made from its
                // bytes' hash: while the link is as written, the media file is what it was, and is
                // not looked at again.
                if case .file = file.content, let old, let current, current == old.written, OutputChecks.identity(old.identity, links: current) {
                    return nil
                }
                let known = unchanged.contains(file.path) ? old?.identity : nil
                guard let identity = known ?? identity(of: file) else {
                    throw DiagnosticError(.error("cannot read \(file.path)'s source", stage: "write"))
                }
                if let old, old.identity == identity, let current, current == old.written {
                    return nil
                }
                if case .file(let source) = file.content, let current, let s = fs.infoFollowingLinks(source),
                    current.inode == s.inode && current.device == s.device
                {
                    return (file.path, OutputIndex.Entry(identity: identity, written: current), old?.identity != identity)
                }
                let slash = target.lastIndex(of: "/")!
                let temporary = String(target[..<slash]) + "/.bestiary-new-\(getpid())-" + target[target.index(after: slash)...]
                switch file.content {
                case .data(let data): try fs.writeNew(data, to: temporary)
                case .parts(let parts): try fs.writeNew(parts: parts, to: temporary)
                case .file(let source): try fs.linkFollowingLinks(source, to: temporary)
                }
                try fs.move(temporary, to: target)
                guard let written = fs.info(target) else { throw DiagnosticError(.error("\(file.path) vanished", stage: "write")) }
                return (file.path, OutputIndex.Entry(identity: identity, written: written), true)
            }.compactMap { $0 }
        }
        return (updates, found)
    }

    /// The folder of `path` (below the output), up to its last slash (found in the UTF-8 bytes,
    /// not by `Character`): "" for the top folder.
    static func folder(of path: String) -> Substring {
        path.utf8.lastIndex(of: UInt8(ascii: "/")).map { path[..<$0] } ?? ""
    }

    /// Removes the folders above `paths` (files removed from the output) that are empty now,
    /// each looked at once, the deepest first. Looking at each file's parents in turn listed the
    /// folder of every animal again per removed file: removing 2,000 records took the preview
    /// 8–14 s (found by a team of editors).
    private func removeEmptyFolders(above paths: [String]) {
        var folders = Set<Substring>()
        for path in paths {
            var p = Substring(path)
            while let slash = p.lastIndex(of: "/") {
                p = p[..<slash]
                guard folders.insert(p).inserted else { break }
            }
        }
        let deepestFirst = folders.sorted { a, b in
            let (da, db) = (a.utf8.count { $0 == UInt8(ascii: "/") }, b.utf8.count { $0 == UInt8(ascii: "/") })
            return da != db ? da > db : a < b
        }
        for folder in deepestFirst {
            let dir = output + "/" + folder
            guard let entries = try? fileSystem.unorderedEntries(in: dir), entries.isEmpty else { continue }
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
    /// The preview's: the stamps of the folders holding its media links (`media/`,
    /// `packs/media/`), taken by the last update before it looked at them, less those it wrote
    /// into (``OutputWriter/update(_:previous:unchanged:sources:)``).
    var linkFolders: FolderStamps?

    /// The keys of `entries` at none of the places `found` (in its table: any order, repeats
    /// allowed), in the table's order: the files a build no longer makes, found without a set of
    /// the 83,000 paths it makes and a lookup of each key in it.
    static func keys(of entries: [String: Entry], notAt found: [Dictionary<String, Entry>.Index]) -> [String] {
        var keys: [String] = []
        var places = found.sorted().makeIterator()
        var next = places.next()
        for place in entries.indices {
            guard place == next else {
                keys.append(entries.keys[place])
                continue
            }
            while next == place { next = places.next() }
        }
        return keys
    }
}

/// The index of the output a one-shot rebuild makes: the previous output's (`old`), with the
/// files it staged (and the paths it spells with other bytes) set, and those it no longer makes
/// taken out. Looked up through the changes, where a copy of the old table was made before:
/// 83,000 entries on the bench corpus, whose copy took about 0.12 s of a one-record rebuild, most
/// of it the kernel zeroing 10 MB of new pages (stop 89, `perf`), and which the write waited for.
struct RebuiltIndex: Sendable {
    let old: [String: OutputIndex.Entry]
    /// Entries set by this build, under its bytes of their paths.
    let set: [String: OutputIndex.Entry]
    /// Keys of `old` this build no longer makes.
    let removed: Set<String>

    init(old: [String: OutputIndex.Entry], set: [String: OutputIndex.Entry], removed: some Sequence<String>) {
        self.old = old
        self.set = set
        self.removed = Set(removed)
    }

    /// (Looked up by name, not first by length: a name in another Unicode form is the same key.)
    subscript(path: String) -> OutputIndex.Entry? {
        if let entry = set[path] { return entry }
        if removed.contains(path) { return nil }
        return old[path]
    }

    /// The number of files of the new output.
    var count: Int { old.count - removed.count + set.keys.count { old[$0] == nil } }

    /// The new output's paths (in no order), set entries under this build's bytes; made as they
    /// are iterated (only a build without the output's folder stamps, or whose removed files
    /// may have taken a folder with them, goes over them: ``OutputFolders``).
    var keys: some Sequence<String> {
        let kept = old.keys.lazy.filter { [set, removed] path in set[path] == nil && !removed.contains(path) }
        return [AnySequence(kept), AnySequence(set.keys)].joined()
    }

    /// The new index as a table of its own: a copy of the old one, changed (when the record is made whole).
    var entries: [String: OutputIndex.Entry] {
        var entries = old
        for path in removed { entries[path] = nil }
        for (path, entry) in set {
            entries[path] = nil
            entries[path] = entry
        }
        return entries
    }
}

/// Whether each file a rebuild makes is already in the output as the previous build's record
/// says (``OutputWriter/identity(of:)`` and ``OutputWriter/isAsWritten(_:in:)``), with fewer
/// system calls: a file of the output that is a hard link of its media file is found in its
/// folder's listing (the inode the folder lists), one `getdents` for thousands of files, instead
/// of one `lstat` each; and a media file is taken as the build's earlier stages saw it (the
/// bytes they hashed), not looked at again.
struct OutputChecks: Sendable {
    let writer: OutputWriter
    let index: OutputIndex
    /// By path in the output: the inode its folder lists for each file of the folders listed.
    private let listed: [String: UInt64]
    /// The folders not listed: each still has the stamp taken when the last build's output was
    /// complete, so it lists what it listed then, each file the inode the index says.
    private let stamped: Set<Substring>

    /// The media files' metadata as the build's earlier stages saw them (``FileFacts/infos()``), by path.
    private let sources: [String: FileInfo]

    /// Lists the folders of the output where `files` link media files, but those that still
    /// have their stamps (``FolderStamps``, of the output the index describes: 39,000 entries
    /// of `media/` and 25,000 of `packs/media/` on the bench corpus, listed by every rebuild
    /// otherwise). `sources` saves a `stat` of each media file the build looked at already.
    init(writer: OutputWriter, index: OutputIndex, files: [OutputFile], sources: [String: FileInfo] = [:], stamps: FolderStamps? = nil) {
        self.writer = writer
        self.index = index
        self.sources = sources
        var folders = Set<Substring>()
        // Files come in runs of one folder (25,000 links in `packs/media/`): a folder is hashed
        // into the set once per run, not once per file (about 2 % of a one-record rebuild's CPU).
        var last: Substring?
        for file in files {
            guard case .file = file.content else { continue }
            let folder = OutputWriter.folder(of: file.path)
            if folder == last { continue }
            folders.insert(folder)
            last = folder
        }
        var stamped = Set<Substring>()
        if let stamps {
            let candidates = folders.filter { stamps.settled[String($0)] != nil }.map(String.init)
            for (folder, info) in zip(candidates, writer.fileSystem.folderInfos(below: writer.output, candidates))
            where info != nil && info == stamps.settled[folder] {
                stamped.insert(Substring(folder))
            }
        }
        self.stamped = stamped
        var listed: [String: UInt64] = [:]
        for folder in folders.sorted() where !stamped.contains(folder) {
            let entries = (try? writer.fileSystem.unorderedEntries(in: folder.isEmpty ? writer.output : writer.output + "/" + folder)) ?? []
            listed.reserveCapacity(listed.count + entries.count)
            for entry in entries where entry.kind == .file {
                if let inode = entry.inode { listed[folder.isEmpty ? entry.name : folder + "/" + entry.name] = inode }
            }
        }
        self.listed = listed
    }

    /// Nil when the output's file at `file.path` is the one the record describes and holds what
    /// `file` would; else the file to stage, with the SHA-256 of its bytes when this check
    /// computed it (so that staging does not hash them again).
    func changed(_ file: OutputFile) -> OutputFile? {
        guard let entry = index.entries[file.path] else { return file }
        switch file.content {
        case .data, .parts:
            // Another size is other bytes: not hashed here, only once as it is staged (a rebuild's
            // catalogue and changed list pages are megabytes each).
            guard file.byteCount == entry.written.size, let digest = file.dataSHA256 else { return file }
            return digest == entry.identity && writer.isAsWritten(file.path, in: index) ? nil : file.knowing(sha256: digest)
        case .file(let source):
            guard let info = sources[source] ?? writer.fileSystem.infoFollowingLinks(source), Self.identity(entry.identity, links: info)
            else { return file }
            let written = entry.written
            // Written as a hard link of the media file, whose metadata are still those recorded:
            // the output's file is unchanged while its folder lists that very inode at its path
            // (a file replaced or removed there is another inode, or none; one changed in place
            // changed the media file too).
            if written.kind == .file, written.inode == info.inode, written.device == info.device, written.size == info.size,
                written.modificationTime == info.modificationTime
            {
                if !stamped.isEmpty, stamped.contains(OutputWriter.folder(of: file.path)) { return nil }
                return listed[file.path] == info.inode ? nil : file
            }
            return writer.isAsWritten(file.path, in: index) ? nil : file
        }
    }

    /// `recorded == OutputWriter.identity(linking: info)`, read number by number instead of made
    /// (63,000 strings per rebuild of the bench corpus otherwise).
    static func identity(_ recorded: String, links info: FileInfo) -> Bool {
        var bytes = recorded.utf8.makeIterator()
        for expected in "file ".utf8 {
            guard bytes.next() == expected else { return false }
        }
        // The next decimal number (a minus sign only where `signed`), up to a space or, for the
        // last, the end: nil for anything else, an overflow included.
        func number(signed: Bool, last: Bool) -> (negative: Bool, magnitude: UInt64)? {
            var value: UInt64 = 0
            var negative = false
            var digits = 0
            while let b = bytes.next() {
                if b == UInt8(ascii: " ") { return last || digits == 0 ? nil : (negative, value) }
                if b == UInt8(ascii: "-"), signed, digits == 0, !negative { negative = true; continue }
                guard b >= 48, b <= 57 else { return nil }
                let (times10, o1) = value.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(UInt64(b - 48))
                if o1 || o2 { return nil }
                value = sum
                digits += 1
            }
            return last && digits > 0 ? (negative, value) : nil
        }
        func equals(_ n: (negative: Bool, magnitude: UInt64)?, _ expected: UInt64) -> Bool {
            guard let n, !n.negative else { return false }
            return n.magnitude == expected
        }
        guard equals(number(signed: false, last: false), info.device), equals(number(signed: false, last: false), info.inode),
            info.size >= 0, equals(number(signed: false, last: false), UInt64(info.size)),
            let time = number(signed: true, last: true)
        else { return false }
        let t = info.modificationTime
        return time.negative ? t < 0 && time.magnitude == t.magnitude : t >= 0 && time.magnitude == UInt64(t)
    }
}

extension SiteBuilder {
    /// Removes a folder tree a build discarded (``BuildOptions/removesInBackground``): what
    /// `bestiary build` starts itself for, by the hidden command `bestiary remove-trash PATH`.
    /// Only a folder named as a build names one (`.NAME.bestiary-trash-PID-N`) next to an output's
    /// lock (`.NAME.bestiary-lock`), never a link followed. It holds a lock on the folder while it
    /// works (a later build hands a tree nobody holds to another remover); a tree another process
    /// holds, or that is gone, is left alone. What it cannot remove (another user's files) it
    /// leaves as a killed build's staging folder, which the next build tries once more and names
    /// with what to do, rather than starting a removal of it again and again.
    public static func removeDiscarded(at path: String, fileSystem fs: any FileSystem = LocalFileSystem()) throws(DiagnosticError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let prefix = folder == "." ? "" : folder + "/"
        guard name.hasPrefix("."), let infix = name.range(of: OutputWriter.trashInfix, options: .backwards),
            infix.lowerBound > name.index(after: name.startIndex), OutputWriter.isTrashSuffix(name[infix.upperBound...]),
            case let output = String(name[name.index(after: name.startIndex)..<infix.lowerBound]),
            fs.info(prefix + ".\(output).bestiary-lock") != nil
        else {
            throw DiagnosticError(.error(
                "\(path) is not a folder a build discarded (.NAME\(OutputWriter.trashInfix)PID-N, next to an output's .NAME.bestiary-lock); nothing removed",
                stage: "write"))
        }
        guard case .acquired(let lock) = FileLock.tryAcquireFolder(path), let held = lock.identity,
            let info = fs.info(path), info.kind == .directory, info.device == held.device, info.inode == held.inode
        else { return }
        let writer = OutputWriter(fileSystem: fs, output: prefix + output)
        writer.removeTree(path)
        if fs.info(path) != nil { try? fs.move(path, to: writer.stagingPath()) }
        withExtendedLifetime(lock) {}
    }
}
