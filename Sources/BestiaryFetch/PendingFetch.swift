import BestiaryStorage
import BestiaryWikipedia
import Foundation

/// Work done for an article that is not finished yet: its summary body and the images already
/// stored. Saved (atomically) after each step under `content/wikipedia/.pending/`, so a fetch
/// killed in the middle of an article does not download that summary or those images again;
/// removed once the entry is written. Older than a day, it is ignored (asked for afresh).
struct PendingFetch: Codable, Sendable {
    var language: String
    var requested: String
    var etag: String?
    /// The summary response body, verbatim.
    var summary: String
    var renditions: [ImageRendition] = []
    var attributionFile: String?
    var attribution: ImageAttribution?
    /// Seconds since 1970.
    var savedAt: Double

    static let maxAge: Double = 24 * 3600
    static let folder = WikipediaCache.pendingFolder

    /// `content/wikipedia/.pending/LANG/STEM.json` for a requested title.
    static func path(in cache: WikipediaCache, language: String, requested: String) -> String {
        "\(cache.directory)/\(folder)/\(CacheFileName.languageFolder(language))/\(CacheFileName.stem(language: language, canonicalTitle: requested)).json"
    }

    static func load(from cache: WikipediaCache, language: String, requested: String, now: Date) -> PendingFetch? {
        let path = path(in: cache, language: language, requested: requested)
        guard cache.fileSystem.exists(path), let data = try? cache.fileSystem.read(path),
            let pending = try? JSONDecoder().decode(PendingFetch.self, from: data),
            pending.language == language, pending.requested == requested,
            now.timeIntervalSince1970 - pending.savedAt < maxAge
        else {
            try? cache.fileSystem.remove(path)
            return nil
        }
        return pending
    }

    /// `content/wikipedia/.pending/`, made with its `.gitignore` when it is not there (nothing in
    /// it is ever committed).
    @discardableResult
    static func prepareFolder(in cache: WikipediaCache) throws -> String {
        let folder = "\(cache.directory)/\(Self.folder)"
        if !cache.fileSystem.exists(folder + "/.gitignore") {
            try cache.fileSystem.writeAtomically("# Unfinished downloads of `bestiary fetch`; never commit them.\n*\n", to: folder + "/.gitignore")
        }
        return folder
    }

    func save(to cache: WikipediaCache) throws {
        try Self.prepareFolder(in: cache)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try cache.fileSystem.writeAtomically(try encoder.encode(self), to: Self.path(in: cache, language: language, requested: requested))
    }

    static func remove(from cache: WikipediaCache, language: String, requested: String) {
        try? cache.fileSystem.remove(path(in: cache, language: language, requested: requested))
    }
}

extension WikipediaCache {
    /// Why a fetch could not store what it asks for, or nil: each folder it writes into (the
    /// cache, its pictures, `.pending/` and the folders of `languages`) is made when missing, and
    /// must be writable. Run before any request, so that a fetch that cannot store its answers
    /// asks Wikipedia nothing (it used to ask for every article, then fail each at its write).
    /// A folder that is there is only looked at: a fetch that changes nothing changes no
    /// folder's time, which the next build's up-to-date check reads.
    public func writeProblem(languages: [String]) -> String? {
        let folders = [directory, imageFile(Self.imagesFolder), directory + "/" + PendingFetch.folder] + languages.map { directory + "/" + CacheFileName.languageFolder($0) }
        for folder in folders {
            do {
                if !fileSystem.isDirectory(folder) { try fileSystem.createDirectory(folder) }
            } catch {
                return "cannot write the Wikipedia cache: \(error)"
            }
            if access(folder, W_OK) != 0 {
                return "cannot write the Wikipedia cache: \(folder) is not writable (\(String(cString: strerror(errno))))"
            }
        }
        return nil
    }
}
