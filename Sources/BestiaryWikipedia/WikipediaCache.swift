import BestiaryContent
import BestiaryDiagnostics
import BestiaryStorage
import Foundation

/// The Wikipedia cache of a site root: `content/wikipedia/` (DESIGN.md §2).
///
/// ```
/// content/wikipedia/de/rotfuchs-1a2b3c4d5e6f7a8b.json   one entry per (language, canonical title)
/// content/wikipedia/images/SHA256.jpg                   lead images, by content
/// ```
/// Every write is atomic (temporary file + rename), entries are written only after their
/// images, so a fetch killed at any moment leaves either the old entry or the new one with all
/// its files. The index from requested titles to entries is rebuilt from the entries'
/// `requested` lists on ``load()``: it cannot drift from them. `build` reads the cache through
/// ``load()`` and never touches the network.
public struct WikipediaCache: Sendable {
    /// The site root (the folder holding `content/`).
    public let root: String
    public let fileSystem: any FileSystem
    /// Kept between builds by the preview: entries and image checks by file metadata.
    public var memo: CacheMemo?
    /// Kept between one-shot builds, in a file next to the output: image checks by file metadata.
    public var facts: FileFacts?
    /// Kept between one-shot builds, in a file next to the output: decoded entries by file
    /// metadata (``KeptEntries``).
    public var kept: KeptByFile<WikipediaEntry>?

    /// Largest image stored (bytes); larger downloads are refused.
    public static let maxImageBytes = 10 << 20
    /// Largest entry file read.
    public static let maxEntryBytes = 1 << 20

    public init(
        root: String, fileSystem: any FileSystem = LocalFileSystem(), memo: CacheMemo? = nil, facts: FileFacts? = nil,
        kept: KeptByFile<WikipediaEntry>? = nil
    ) {
        self.root = root
        self.fileSystem = fileSystem
        self.memo = memo
        self.facts = facts
        self.kept = kept
    }

    /// `content/wikipedia` under the root.
    public var directory: String { Catalog.contentDirectory(root: root) + "/wikipedia" }
    /// Paths in diagnostics are relative to the site root.
    public static let relativeDirectory = "content/wikipedia"
    /// Image paths in entries are relative to `content/`.
    public static let imagesFolder = "wikipedia/images"

    /// The entry file of a (language, canonical title), relative to the site root.
    public static func relativeEntryPath(language: String, canonicalTitle: String) -> String {
        "\(relativeDirectory)/\(CacheFileName.languageFolder(language))/\(CacheFileName.stem(language: language, canonicalTitle: canonicalTitle)).json"
    }

    public func entryPath(language: String, canonicalTitle: String) -> String {
        absolute(Self.relativeEntryPath(language: language, canonicalTitle: canonicalTitle))
    }

    /// A path relative to the site root made usable for the file system.
    public func absolute(_ relativeToRoot: String) -> String {
        root == "." ? relativeToRoot : root + "/" + relativeToRoot
    }

    /// The file of an image path relative to `content/` (as stored in ``ImageRendition/path``).
    public func imageFile(_ contentRelativePath: String) -> String {
        Catalog.contentDirectory(root: root) + "/" + contentRelativePath
    }

    // MARK: Reading

    /// Reads every entry. Damaged entries are left out and reported as warnings (stage `enrich`);
    /// they are fetched again by the next `bestiary fetch`.
    public func load() -> WikipediaSnapshot {
        var entries: [WikipediaSnapshot.Key: WikipediaEntry] = [:]
        var diagnostics: [Diagnostic] = []
        guard fileSystem.isDirectory(directory) else {
            return WikipediaSnapshot(cache: self, entries: [:], diagnostics: [])
        }
        let languages = ((try? fileSystem.entries(in: directory)) ?? []).filter { $0.kind == .directory && $0.name != "images" && !$0.name.hasPrefix(".") }
        for folder in languages {
            // Listed with each file's metadata (one `fstatat` relative to the folder each).
            let names = ((try? fileSystem.entriesWithInfo(in: directory + "/" + folder.name)) ?? [])
                .filter { $0.entry.kind == .file && $0.entry.name.hasSuffix(".json") && !$0.entry.name.hasPrefix(".") }
            /// An entry read, with where it belongs when that is not where it is.
            typealias Read = (relative: String, result: Swift.Result<WikipediaEntry, CacheEntryFile.Damage>, belongs: String?)
            let prefix = Self.relativeDirectory + "/" + folder.name + "/"
            let results = Parallel.map(names) { name -> Read in
                let relative = prefix + name.entry.name
                let full = absolute(relative)
                func checked(_ result: Swift.Result<WikipediaEntry, CacheEntryFile.Damage>) -> Read {
                    guard case .success(let entry) = result else { return (relative, result, nil) }
                    let belongs = Self.relativeEntryPath(language: entry.language, canonicalTitle: entry.canonicalTitle)
                    return (relative, result, belongs == relative ? nil : belongs)
                }
                guard memo != nil || kept != nil, let info = name.info ?? fileSystem.infoFollowingLinks(full) else {
                    return checked(readEntry(relative))
                }
                if let known = memo?.entry(relative, info: info) { return checked(known) }
                // Only entries where they belong are kept: one taken from there needs no check.
                if let entry = kept?.lookup(full, info: info) { return (relative, .success(entry), nil) }
                let read = checked(readEntry(relative))
                memo?.keepEntry(relative, info: info, read.result)
                if let kept, case .success(let entry) = read.result, read.belongs == nil { kept.keep(full, info: info, entry) }
                return read
            }
            entries.reserveCapacity(entries.count + results.count)
            for (relative, result, belongs) in results {
                switch result {
                case .success(let entry):
                    if let belongs {
                        diagnostics.append(.warning(
                            "this entry belongs in \(belongs); it is not used (was it renamed by hand?)",
                            at: SourceLocation(path: relative), stage: "enrich"))
                        continue
                    }
                    entries[WikipediaSnapshot.Key(language: entry.language, title: entry.canonicalTitle)] = entry
                case .failure(let damage):
                    diagnostics.append(.warning(
                        "damaged Wikipedia cache entry: \(damage.reason); it is not used, and `bestiary fetch` fetches it again",
                        at: SourceLocation(path: relative), stage: "enrich"))
                }
            }
        }
        memo?.forgetUnseen()
        // Every image the entries name, checked by its bytes against the SHA-256 it is named by:
        // a damaged picture is never copied into the site or published in a pack under a hash
        // its bytes do not have (apps would refuse the pack).
        var renditions: [String: ImageRendition] = [:]
        for entry in entries.values { for r in entry.image?.renditions ?? [] { renditions[r.path] = r } }
        let named = renditions.values.sorted { $0.path < $1.path }
        // The pictures' folder listed with each file's metadata, instead of a `stat` by path each.
        var listed: [String: FileInfo] = [:]
        let imagesFolder = Catalog.contentDirectory(root: root) + "/" + Self.imagesFolder
        for (entry, info) in (try? fileSystem.entriesWithInfo(in: imagesFolder)) ?? [] where entry.kind == .file {
            if let info { listed[Self.imagesFolder + "/" + entry.name] = info }
        }
        let checks = Parallel.map(named, chunk: 16) { imageIsIntact($0, verifyHash: true, info: listed[$0.path]) }
        var intact = Set<String>()
        for (rendition, ok) in zip(named, checks) {
            if ok {
                intact.insert(rendition.path)
            } else {
                diagnostics.append(.warning(
                    "this picture is missing or damaged (its bytes are not the SHA-256 it is named by); it is not used, and `bestiary fetch` downloads it again",
                    at: SourceLocation(path: "content/" + rendition.path), stage: "enrich"))
            }
        }
        return WikipediaSnapshot(cache: self, entries: entries, diagnostics: diagnostics, intactImages: intact)
    }

    /// One entry file, checked.
    public func readEntry(_ relativePath: String) -> Swift.Result<WikipediaEntry, CacheEntryFile.Damage> {
        let full = absolute(relativePath)
        if let info = fileSystem.infoFollowingLinks(full), info.size > Self.maxEntryBytes {
            return .failure(CacheEntryFile.Damage(reason: "it is \(info.size >> 10) KiB, more than an entry can be"))
        }
        do {
            return .success(try CacheEntryFile.decode(try fileSystem.read(full)))
        } catch let damage as CacheEntryFile.Damage {
            return .failure(damage)
        } catch {
            return .failure(CacheEntryFile.Damage(reason: "it cannot be read (\(error))"))
        }
    }

    /// Whether an image file is present with the recorded size and picture bytes; with
    /// `verifyHash`, also that its SHA-256 matches (reads the whole file).
    /// `info`: the file's metadata when the caller has it (a regular file's, as its folder lists it).
    public func imageIsIntact(_ rendition: ImageRendition, verifyHash: Bool, info listed: FileInfo? = nil) -> Bool {
        let path = imageFile(rendition.path)
        guard let info = listed ?? fileSystem.infoFollowingLinks(path), info.kind == .file, info.size == rendition.bytes else { return false }
        let check = verifyHash ? rendition.format + " " + rendition.sha256 : rendition.format
        if let known = memo?.image(path, info: info, check: check) { return known }
        let kind = "image " + check
        if let values = facts?.lookup(path, info: info, kind: kind) { return values == ["intact"] }
        let intact: Bool
        if verifyHash {
            let data = try? fileSystem.read(path)
            intact = data.map { Hashing.sha256Hex($0) == rendition.sha256 && ImageBytes.problem($0) == nil } ?? false
        } else {
            let head = try? fileSystem.readPrefix(path, count: MediaSniffer.headerLength)
            intact = head.map { MediaSniffer.sniff($0)?.rawValue == rendition.format } ?? false
        }
        memo?.keepImage(path, info: info, check: check, intact: intact)
        facts?.keep(path, info: info, kind: kind, values: [intact ? "intact" : "damaged"])
        return intact
    }

    // MARK: Writing (bestiary fetch)

    /// Stores checked picture bytes by content; returns the path relative to `content/` and the
    /// SHA-256. Writing the same bytes twice is a no-op.
    public func storeImage(_ data: Data, format: String) throws -> (path: String, sha256: String) {
        let sha = Hashing.sha256Hex(data)
        let ext = format == "jpeg" ? "jpg" : format
        let relative = "\(Self.imagesFolder)/\(sha).\(ext)"
        let full = imageFile(relative)
        if let info = fileSystem.info(full), info.kind == .file, info.size == data.count,
            let existing = try? fileSystem.read(full), Hashing.sha256Hex(existing) == sha
        {
            return (relative, sha)
        }
        try fileSystem.writeAtomically(data, to: full)
        return (relative, sha)
    }

    /// Writes an entry atomically (after its images are stored).
    public func write(_ entry: WikipediaEntry) throws {
        var e = entry
        e.requested = Array(Set(e.requested)).sorted()
        try fileSystem.writeAtomically(try CacheEntryFile.encode(e), to: entryPath(language: e.language, canonicalTitle: e.canonicalTitle))
    }

    /// Removes temporary files a killed writer left behind (`NAME.tmp-PID-RANDOM`, never read).
    public func removeStaleTemporaryFiles() {
        guard fileSystem.isDirectory(directory), let files = try? fileSystem.walkFiles(in: directory) else { return }
        for file in files where file.split(separator: "/").last?.contains(".tmp-") == true {
            try? fileSystem.remove(directory + "/" + file)
        }
    }

    /// The ISO 8601 form used for ``WikipediaEntry/fetchedAt``.
    public static func timestamp(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        f.timeZone = TimeZone(identifier: "UTC")
        return f.string(from: date)
    }
}
