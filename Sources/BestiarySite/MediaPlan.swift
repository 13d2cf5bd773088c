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
    static func plan(_ catalog: Catalog, fileSystem: any FileSystem) throws(DiagnosticError) -> [String: MediaRecord] {
        let files = catalog.mediaFiles.values.sorted { $0.path < $1.path }
        let content = catalog.contentDirectory
        let results = Parallel.map(files, minimumChunk: 8) { file -> Result<MediaRecord, Diagnostic> in
            let full = content + "/" + file.path
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
        return plan
    }
}
