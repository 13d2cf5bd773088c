import BestiaryContent
import BestiaryDiagnostics
import BestiaryRender
import BestiaryStorage
import Foundation

/// A media file of the catalogue with its content hash: the one place media bytes are read in a
/// build, so the site and the packs agree on every digest.
public struct MediaRecord: Sendable, Hashable {
    /// Relative to `content/`.
    public var contentPath: String
    /// Absolute or root-relative path to read or link it from.
    public var fullPath: String
    public var sha256: String
    public var bytes: Int
    public var format: MediaFormat
    public var width: Int?
    public var height: Int?

    /// `media/0123456789abcdef.ogg`: the content hash only. A readable name would give the quiz's
    /// answer away in the audio element's URL.
    public var sitePath: String {
        "media/\(sha256.prefix(16)).\(format.fileExtension)"
    }
}

extension MediaRecord {
    /// What ``FileFacts`` keeps of a record: what was read from the file's bytes.
    var facts: [String] { [sha256, String(bytes), width.map(String.init) ?? "", height.map(String.init) ?? ""] }

    init?(file: MediaFile, fullPath: String, facts: [String]) {
        guard facts.count == 4, let bytes = Int(facts[1]) else { return nil }
        func dimension(_ s: String) -> Int?? { s.isEmpty ? .some(nil) : Int(s).map { .some($0) } }
        guard let width = dimension(facts[2]), let height = dimension(facts[3]) else { return nil }
        self.init(contentPath: file.path, fullPath: fullPath, sha256: facts[0], bytes: bytes, format: file.format, width: width, height: height)
    }
}

/// Hashes every media file the catalogue uses (in parallel) and plans where it goes.
enum MediaPlanner {
    /// The start of a media file's fact's kind (``FileFacts``): `media ogg`, the format it was read as.
    static let factPrefix = "media "

    /// With a `memo` (the preview) or `facts` (kept by the last one-shot build), a file whose
    /// size, time and inode are those of last time is not read again. `listed`: the walk's
    /// metadata of files, taken instead of a `stat` of each.
    static func plan(
        _ catalog: Catalog, fileSystem: any FileSystem, memo: BuildMemo? = nil, facts: FileFacts? = nil, listed: ListedFiles? = nil
    ) throws(DiagnosticError) -> [String: MediaRecord] {
        try planAndWarn(catalog, fileSystem: fileSystem, memo: memo, facts: facts, listed: listed).plan
    }

    /// What the media stage made: each file's record by path under `content/`, the warnings, and
    /// the files (by that path) read with other metadata than they were looked up by (the walk's,
    /// or a `stat` just before): changed meanwhile, so what was read is not the file that metadata
    /// describes. None of those is kept for later builds, and a build that read one records no
    /// walk of its inputs (a file put back as it was, with its time, would have been taken as
    /// unchanged, and what was read of it as its record).
    struct Planned {
        var plan: [String: MediaRecord]
        var warnings: [Diagnostic]
        var readAfterAChange: [String]
    }

    /// ``plan(_:fileSystem:memo:facts:listed:)`` with a warning for each file read now that others
    /// may not read (``MediaIntegrity/unreadableByOthers(mode:path:)``) or that was cut short
    /// (``MediaIntegrity/problem(_:format:)``, a copy that stopped half way): a build from nothing,
    /// as a CI's is, reads every file, and said them only in `check`. A file taken from what was
    /// kept is not asked again; a file cut short or damaged is never kept, so every build that
    /// runs its stages says it.
    static func planAndWarn(
        _ catalog: Catalog, fileSystem: any FileSystem, memo: BuildMemo? = nil, facts: FileFacts? = nil, listed: ListedFiles? = nil
    ) throws(DiagnosticError) -> Planned {
        let files = catalog.mediaFiles.values.sorted { $0.path < $1.path }
        let content = catalog.contentDirectory
        // File metadata is the key of what is kept; a build that keeps nothing does not need it.
        let infos = files.map { file in
            memo == nil && facts == nil
                ? nil : listed?.file("content/" + file.path) ?? fileSystem.infoFollowingLinks(content + "/" + file.path)
        }
        // Each record, whether it may be kept for later builds, what to warn of it, and whether it
        // was read after a change.
        let results = Parallel.map(Array(zip(files, infos)), chunk: 8) { (file, info) -> Result<(MediaRecord, Bool, [String], Bool), Diagnostic> in
            let full = content + "/" + file.path, kind = factPrefix + file.format.rawValue
            if let info, let known = memo?.mediaRecord(file.path, info: info) { return .success((known, true, [], false)) }
            if let info, let values = facts?.lookup(full, info: info, kind: kind),
                let known = MediaRecord(file: file, fullPath: full, facts: values)
            {
                return .success((known, true, [], false))
            }
            do {
                let data = try fileSystem.read(full)
                let size = file.format.kind == .image ? ImageSize.of(data, format: file.format) : nil
                let record = MediaRecord(
                    contentPath: file.path, fullPath: full, sha256: Hashing.sha256Hex(data), bytes: data.count, format: file.format,
                    width: size?.width, height: size?.height)
                // Kept only when the bytes read are still of the format load found: a file replaced
                // between the two stages by one of another format, under a time it kept (`mv`,
                // `rsync -t`), would otherwise be taken with the wrong format by later builds.
                let sameFormat = MediaSniffer.sniff(data.prefix(MediaSniffer.headerLength)) == file.format
                let damage = MediaIntegrity.problem(data, format: file.format)
                // Looked at again once read (one `stat` per file read, none per file taken as known).
                let changed = info.map { fileSystem.infoFollowingLinks(full) != $0 } ?? false
                let keep = sameFormat && damage?.leavesWhole != false && !changed
                if let info, keep { facts?.keep(full, info: info, kind: kind, values: record.facts) }
                let unreadable = fileSystem.permissions(full).flatMap { MediaIntegrity.unreadableByOthers(mode: $0, path: file.path) }
                let said = [damage?.description, unreadable].compactMap { $0 }.map { "\(file.format.kind == .sound ? "sound" : "picture") '\(file.path)': \($0)" }
                return .success((record, keep, said, changed))
            } catch {
                return .failure(.error("cannot read media file: \(error)", at: SourceLocation(path: "content/" + file.path), stage: "media"))
            }
        }
        var plan: [String: MediaRecord] = [:]
        var unkept = Set<String>()
        var bag = DiagnosticBag()
        var warnings: [Diagnostic] = []
        var readAfterAChange: [String] = []
        for result in results {
            switch result {
            case .success(let (record, keep, said, changed)):
                plan[record.contentPath] = record
                if !keep { unkept.insert(record.contentPath) }
                if changed { readAfterAChange.append(record.contentPath) }
                warnings += said.map { .warning($0, at: SourceLocation(path: "content/" + record.contentPath), stage: "media") }
            case .failure(let d): bag.append(d)
            }
        }
        try bag.throwIfErrors()
        if let memo {
            var known: [String: (FileInfo, MediaRecord)] = [:]
            for (file, info) in zip(files, infos) {
                if let info, let record = plan[file.path], !unkept.contains(file.path) { known[file.path] = (info, record) }
            }
            memo.keepMedia(known)
        }
        return Planned(plan: plan, warnings: warnings, readAfterAChange: readAfterAChange)
    }

    /// The pictures too large to show well (``ImageSize/problem(width:height:format:)``), by path:
    /// `check` says the same of them.
    static func sizeProblems(_ plan: [String: MediaRecord]) -> [Diagnostic] {
        plan.values.compactMap { record -> (String, String)? in
            guard let width = record.width, let height = record.height,
                let problem = ImageSize.problem(width: width, height: height, format: record.format)
            else { return nil }
            return (record.contentPath, problem)
        }.sorted { $0.0 < $1.0 }.map { path, problem in
            .warning("picture '\(path)': \(problem)", at: SourceLocation(path: "content/" + path), stage: "media")
        }
    }
}
