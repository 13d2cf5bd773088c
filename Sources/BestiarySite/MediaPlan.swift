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

/// Hashes every media file the catalogue uses (in parallel) and plans where it goes.
enum MediaPlanner {
    /// With a `memo`, a file whose size, time and inode are those of last time is not read again.
    static func plan(_ catalog: Catalog, fileSystem: any FileSystem, memo: BuildMemo? = nil) throws(DiagnosticError) -> [String: MediaRecord] {
        let files = catalog.mediaFiles.values.sorted { $0.path < $1.path }
        let content = catalog.contentDirectory
        // File metadata is the memo's key; a build without a memo does not need it.
        let infos = files.map { memo == nil ? nil : fileSystem.infoFollowingLinks(content + "/" + $0.path) }
        let results = Parallel.map(Array(zip(files, infos)), chunk: 8) { (file, info) -> Result<MediaRecord, Diagnostic> in
            let full = content + "/" + file.path
            if let info, let known = memo?.mediaRecord(file.path, info: info) { return .success(known) }
            do {
                let data = try fileSystem.read(full)
                let size = file.format.kind == .image ? ImageSize.of(data, format: file.format) : nil
                return .success(MediaRecord(
                    contentPath: file.path, fullPath: full, sha256: Hashing.sha256Hex(data), bytes: data.count, format: file.format,
                    width: size?.width, height: size?.height))
            } catch {
                return .failure(.error("cannot read media file: \(error)", at: SourceLocation(path: "content/" + file.path), stage: "media"))
            }
        }
        var plan: [String: MediaRecord] = [:]
        var bag = DiagnosticBag()
        for result in results {
            switch result {
            case .success(let record): plan[record.contentPath] = record
            case .failure(let d): bag.append(d)
            }
        }
        try bag.throwIfErrors()
        if let memo {
            var known: [String: (FileInfo, MediaRecord)] = [:]
            for (file, info) in zip(files, infos) { if let info, let record = plan[file.path] { known[file.path] = (info, record) } }
            memo.keepMedia(known)
        }
        return plan
    }
}
