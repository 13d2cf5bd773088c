import BestiaryStorage
import Foundation

/// What the folders below a complete output were: each subfolder's metadata (`lstat`) with its
/// change time (``FolderInfo``), taken just before the output was swapped in. A folder gains or
/// loses an entry only with a new modification time, and a tool that sets that time back after
/// (`rsync -a`, `tar -x`) gives it a new change time, so while both are unchanged it holds what
/// it held then:
/// the next-but-one build, which starts its staging folder from this output (then the spare,
/// ``OutputWriter/sparePath``), knows what the folder holds without listing it.
///
/// A folder changed too recently for a later change to show in its time (within the file
/// system's time resolution, as git's "racily clean" files) is recorded without metadata,
/// and listed by that build. The top folder is always listed (the swap renames it).
struct FolderStamps: Sendable, Equatable {
    /// Folders (paths below the top folder) with their metadata.
    var settled: [String: FolderInfo] = [:]
    /// Folders changed too recently to be known by their time.
    var recent: [String] = []

    /// Every folder stamped.
    var folders: [String] { Array(settled.keys) + recent }

    /// How long before the stamps were taken a folder must have last changed for its time to
    /// tell a later change: the kernel's clock tick for file systems that keep fractions of a
    /// second (at most 10 ms on Linux), the 2 seconds of ``FileInfo/racyNanoseconds`` for
    /// file systems that keep whole seconds.
    static let settledNanoseconds: (fractions: Int64, seconds: Int64) = (100_000_000, FileInfo.racyNanoseconds)

    /// Every folder holding one of `files` (paths below the top folder) and the folders above
    /// it, not the top folder itself.
    static func folders<S: Sequence>(of files: S) -> Set<String> where S.Element == String {
        var folders = Set<String>()
        for file in files {
            var path = Substring(file)
            while let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) {
                path = path[..<slash]
                if !folders.insert(String(path)).inserted { break }
            }
        }
        return folders
    }

    /// The stamps of `folders` below `top`; nil when one of them is not a folder there.
    ///
    /// When most folders, and at least `waitingFor` of them, changed just now (a build that linked
    /// every file anew, the first after a full build, does so in its last tenth of a second), it
    /// waits out the clock's resolution once, at most 0.1 s, and looks at those again: else the
    /// next-but-one build would walk them all (0.27 s for 20,000 folders; fewer than 5,000 are
    /// listed faster than the wait).
    static func take(below top: String, folders paths: [String], fileSystem: any FileSystem, waitingFor minimum: Int? = 5_000) -> FolderStamps? {
        let infos = fileSystem.folderInfos(below: top, paths)
        let now = FileFacts.nanoseconds(Date())
        var fractions = false
        for info in infos {
            guard let info, info.info.kind == .directory else { return nil }
            if info.lastChange % 1_000_000_000 != 0 { fractions = true }
        }
        let margin = fractions ? settledNanoseconds.fractions : settledNanoseconds.seconds
        var stamps = FolderStamps()
        stamps.settled.reserveCapacity(paths.count)
        var newest = Int64.min
        for (path, info) in zip(paths, infos) {
            guard let info else { continue }
            if info.lastChange < now - margin {
                stamps.settled[path] = info
            } else {
                stamps.recent.append(path)
                newest = max(newest, info.lastChange)
            }
        }
        if let minimum, fractions, stamps.recent.count >= minimum, stamps.recent.count * 4 > paths.count {
            let wait = newest + margin - FileFacts.nanoseconds(Date())
            if wait > 0 { Thread.sleep(forTimeInterval: Double(min(wait, margin)) / 1e9 + 0.001) }
            guard let again = take(below: top, folders: stamps.recent, fileSystem: fileSystem, waitingFor: nil) else { return nil }
            stamps.settled.merge(again.settled) { _, new in new }
            stamps.recent = again.recent
        }
        stamps.recent.sort()
        return stamps
    }

    static let header = "bestiary-folders 2"

    /// Writes the stamps of the folders below the folder whose identity is `folder`
    /// (``OutputRecord/folderIdentity(of:_:)``), atomically; removes the file for none.
    static func save(_ stamps: FolderStamps?, _ path: String, folder: String, fileSystem: any FileSystem) {
        guard let stamps else {
            try? fileSystem.remove(path)
            return
        }
        CacheFile.write(path, header: Self.header, tool: folder, fileSystem: fileSystem) { w in
            w.dictionary(stamps.settled) { w, folder in
                w.info(folder.info)
                w.int(folder.changeTime)
            }
            w.strings(stamps.recent)
        }
    }

    /// The stamps in `path`, when they are those of the folder whose identity is `folder`.
    static func load(_ path: String, folder: String, fileSystem: any FileSystem) -> FolderStamps? {
        guard var r = CacheFile.reader(path, header: header, tool: folder, fileSystem: fileSystem),
            let settled = r.dictionary({ r -> FolderInfo? in
                guard let info = r.info(), let changeTime = r.int() else { return nil }
                return FolderInfo(info: info, changeTime: changeTime)
            }), let recent = r.strings(), r.atEnd
        else { return nil }
        return FolderStamps(settled: settled, recent: recent)
    }

    /// Whether every settled folder below `top` still has its metadata, and every recent one is
    /// still a folder (not a link: it is listed, and what it holds removed).
    func hold(below top: String, fileSystem: any FileSystem) -> Bool {
        let folders = Array(settled)
        let infos = fileSystem.folderInfos(below: top, folders.map(\.key) + recent)
        return zip(folders, infos).allSatisfy { $0.value == $1 } && infos.dropFirst(folders.count).allSatisfy { $0?.info.kind == .directory }
    }
}

/// The folders of a new output (below its top folder): those of the output it replaces and of
/// the files this build wrote, or, when files went from a folder that may have gone with them,
/// those of all its files. A folder holding a file this build wrote has not gone: a rebuild after
/// an edit removes the catalogue under its old name and writes the new one beside it, and listing
/// the folders of the output's 83,800 files for that took about 1.5 % of its CPU.
struct OutputFolders: Sendable {
    private let previous: FolderStamps?
    private let recent: Set<String>
    private let added: Set<String>

    init(previous stamps: FolderStamps?, files: some Sequence<String>, written: some Sequence<String>, removed: [String]) {
        let writtenFolders = stamps == nil ? [] : FolderStamps.folders(of: written)
        let folderMayGo = removed.contains { path in
            path.utf8.lastIndex(of: UInt8(ascii: "/")).map { !writtenFolders.contains(String(path[..<$0])) } ?? false
        }
        if let stamps, !folderMayGo {
            let recent = Set(stamps.recent)
            previous = stamps
            self.recent = recent
            added = writtenFolders.filter { stamps.settled[$0] == nil && !recent.contains($0) }
        } else {
            previous = nil
            recent = []
            added = FolderStamps.folders(of: files)
        }
    }

    func contains(_ folder: String) -> Bool { previous?.settled[folder] != nil || recent.contains(folder) || added.contains(folder) }

    var all: [String] { (previous?.folders ?? []) + added }
}

/// The spare (the output a reusing build replaced, ``OutputWriter/sparePath``) as the record of
/// the output that replaced it describes it: its folders' stamps (taken when it was complete) and
/// where it differs from that output. Every other file in it is the output's very file (a hard
/// link, same inode), which the next build checks anyway.
struct SpareRecord: Sendable {
    /// The identity of the spare's top folder (``OutputRecord/folderIdentity(of:_:)``).
    var folder: String
    var stamps: FolderStamps
    /// Paths where the spare holds another file than the output, or one the output lacks, or
    /// lacks one the output has: the files the build that made the output wrote or removed.
    var differs: [String]
}

extension OutputWriter.Staging {
    /// ``linkFromOutput(_:holding:folders:removed:)`` for a staging folder that started as a
    /// spare whose stamps still hold (``OutputWriter/begin(reusingSpare:spare:)``): only the top
    /// folder and the folders changed just before the spare was complete are listed; elsewhere
    /// the spare is known to hold the output's files but for `spare.differs`, and those the new
    /// output no longer has (`removed`). Returns false, having changed nothing that matters, when
    /// it cannot tell (a listed folder is gone): the caller then walks the whole folder.
    func linkKnowing(
        _ spare: SpareRecord, _ paths: [String], holding index: RebuiltIndex, folders: OutputFolders, removed: [String]
    ) throws -> Bool {
        // A spare whose folders mostly changed just before it was complete (the output of a
        // build that linked every file anew) is walked whole: listing folder by folder costs more.
        if spare.stamps.recent.count * 4 > spare.stamps.settled.count { return false }
        let fs = writer.fileSystem
        let staged = entries
        // A path's folder, without making a string of it (this runs for every file of the site).
        let parent = OutputWriter.folder(of:)
        let listed = [""] + spare.stamps.recent
        let listedSet = Set(listed.map { Substring($0) })
        func isSpareFolder(_ folder: String) -> Bool { spare.stamps.settled[folder] != nil || listedSet.contains(Substring(folder)) }
        // 1. The listed folders: an entry stays when it is this build's or the very file the
        // index has at its path (as in the whole walk); stray files and folders go.
        let found = try Parallel.map(listed, chunk: 1) { folder -> [String]? in
            let full = folder.isEmpty ? path : path + "/" + folder
            guard let list = try? fs.unorderedEntries(in: full) else { return nil }
            var present: [String] = []
            for entry in list {
                let child = folder.isEmpty ? entry.name : folder + "/" + entry.name
                if folder.isEmpty && entry.name == OutputWriter.markerName { continue }  // replaced at the commit
                if entry.kind == .directory {
                    if !isSpareFolder(child) && !folders.contains(child) { try fs.remove(full + "/" + entry.name) }
                } else if staged[child] != nil || (entry.inode != nil && index[child]?.written.inode == entry.inode) {
                    present.append(child)
                } else {
                    try fs.remove(full + "/" + entry.name)
                }
            }
            return present
        }
        if found.contains(where: { $0 == nil }) { return false }
        let present = Set(found.lazy.compactMap { $0 }.joined())
        // 2. Elsewhere, what the spare holds is known: the output's files, but where it differs,
        // and those the new output no longer has.
        var missing: [String] = []
        let differs = Set(spare.differs)
        // (A path that is now a folder of the new output, this build's files in it, is kept.)
        for file in spare.differs where staged[file] == nil && !folders.contains(file) && !listedSet.contains(parent(file)) {
            try fs.remove(path + "/" + file)
            if index[file] != nil { missing.append(file) }
        }
        for file in removed where !differs.contains(file) && !folders.contains(file) && !listedSet.contains(parent(file)) {
            try fs.remove(path + "/" + file)
        }
        // Folders of the spare this build has nothing in (the topmost of each such tree): only
        // the folders of files that went, in the last build or this one, can be such (and not
        // where this build wrote a file).
        for folder in FolderStamps.folders(of: spare.differs + removed)
        where isSpareFolder(folder) && !folders.contains(folder) && staged[folder] == nil {
            let above = String(parent(folder))
            if above.isEmpty || folders.contains(above) { try fs.remove(path + "/" + folder) }
        }
        // 3. What the listed folders lack of the files this build keeps from the output.
        for file in paths where listedSet.contains(parent(file)) && !present.contains(file) { missing.append(file) }
        try makeDirectories(of: missing)
        try Parallel.forEach(missing, groupedBy: OutputWriter.folder(of:)) { file in
            try fs.link(writer.output + "/" + file, to: path + "/" + file)
        }
        return true
    }
}
