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
    /// The cache's folder as the build's walk over its inputs listed it; with it, ``load()``
    /// lists no entry folder itself (``Listing``).
    public var listing: Listing?

    /// `content/wikipedia/` as a build's walk over its inputs saw it: each language folder with
    /// its entry files and their metadata (name order), and the digest of the walk's lines for
    /// the whole folder (the pictures' folder by its own metadata: pictures are named by their
    /// SHA-256 and only ever added or removed whole, as the no-op check assumes).
    ///
    /// A build that read every entry intact and every picture intact, none of them changed just
    /// before it began, keeps that digest with the decoded entries (``KeptByFile/stamp``); the
    /// next build whose listing has the same digest takes them all as they are, without a lookup
    /// each (14,555 entries on the bench corpus). A picture changed in place changes no listing:
    /// the pictures' folder is listed with each file's metadata on every build, and the checks of
    /// the pictures stand only while it lists every file as it did (``picturesStamp(_:)``).
    public struct Listing: Sendable {
        public struct Folder: Sendable {
            public var name: String
            public var files: [(name: String, info: FileInfo)]

            public init(name: String, files: [(name: String, info: FileInfo)] = []) {
                self.name = name
                self.files = files
            }
        }

        public var folders: [Folder]
        public var stamp: String

        public init(folders: [Folder], stamp: String) {
            self.folders = folders
            self.stamp = stamp
        }
    }

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
        Catalog.pathPrefix(root: root) + relativeToRoot
    }

    /// The file of an image path relative to `content/` (as stored in ``ImageRendition/path``).
    public func imageFile(_ contentRelativePath: String) -> String {
        Catalog.contentDirectory(root: root) + "/" + contentRelativePath
    }

    // MARK: Reading

    /// Reads every entry. Damaged entries are left out and reported as warnings (stage `enrich`);
    /// they are fetched again by the next `bestiary fetch`.
    public func load() -> WikipediaSnapshot {
        guard listing != nil || fileSystem.isDirectory(directory) else {
            kept?.setStamp(nil)
            memo?.keepWhole(nil)
            return WikipediaSnapshot(cache: self, entries: [:], diagnostics: [])
        }
        // The preview's last build, when it read the cache's folder as this build's walk lists it
        // (never with kept entries, which must see every entry to be saved whole).
        let memoWhole = kept == nil ? memo.flatMap { memo in listing.flatMap { memo.whole(stamp: $0.stamp) } } : nil
        let keptRead = keptWhole()
        let read = keptRead ?? memoWhole.map { ($0.entries, [], true) } ?? readEntries()
        let entries = read.entries
        var diagnostics = read.diagnostics
        // The pictures' folder listed with each file's metadata, instead of a `stat` by path each.
        let imagesFolder = Catalog.contentDirectory(root: root) + "/" + Self.imagesFolder
        let imageFiles = (try? fileSystem.entriesWithInfo(in: imagesFolder)) ?? []
        // A one-shot build's counterpart of the preview's memo below: the entries the last build
        // kept whole, and the pictures' folder listing every file with the metadata it had when
        // that build found every picture they name intact and settled. Their checks stand, and
        // the file facts that vouched for them, each with the metadata listed now, are kept for
        // the next build without a lookup each. The facts are saved after the entries: when a
        // build stopped in between, fewer may be found than pictures are named, and then each
        // picture is checked as below (those without a fact read again). (A fact about a file
        // no entry names, with the metadata listed now, is true of it and is kept too.)
        let picturesStamp = read.whole && (kept != nil || memo != nil) ? Self.picturesStamp(imageFiles) : nil
        if let kept, keptRead != nil, let picturesStamp, Self.keptStamp(kept.stamp).pictures.map(String.init) == picturesStamp {
            var intact = Set<String>()
            intact.reserveCapacity(entries.count * 2)
            for entry in entries.values { for rendition in entry.image?.renditions ?? [] { intact.insert(rendition.path) } }
            let vouched = facts?.useAll(in: imageFile(Self.imagesFolder + "/"), listed: imageFiles)
            if (vouched ?? intact.count) >= intact.count {
                kept.setStamp(kept.stamp)
                var snapshot = WikipediaSnapshot(cache: self, entries: entries, diagnostics: [], intactImages: intact)
                snapshot.pictureFiles = imageFiles
                return snapshot
            }
        }
        // The same entries, whose pictures that build found intact and settled, and every picture
        // listed with the metadata it had then: their checks stand as they were (as each one's
        // would in the memo, looked up by its metadata below).
        if let memoWhole, memoWhole.pictures == picturesStamp {
            var snapshot = WikipediaSnapshot(
                cache: self, entries: memoWhole.entries, index: memoWhole.index, diagnostics: [], intactImages: memoWhole.intact)
            snapshot.pictureFiles = imageFiles
            snapshot.wholeStamp = memoWhole.wholeStamp
            return snapshot
        }
        // By name in the folder (a rendition's path less `images/`), not a path made for each.
        var listed: [Substring: FileInfo] = [:]
        listed.reserveCapacity(imageFiles.count)
        for (entry, info) in imageFiles where entry.kind == .file {
            if let info { listed[Substring(entry.name)] = info }
        }
        // Every image the entries name, checked by its bytes against the SHA-256 it is named by:
        // a damaged picture is never copied into the site or published in a pack under a hash
        // its bytes do not have (apps would refuse the pack). Checked on every build, the entries
        // taken whole or not, but for the preview's above: a picture changed in place changes no
        // listing the walk makes, only the pictures' folder's listing. (A check is taken from the
        // preview's memo or the file facts while the picture's metadata is what it was, and the
        // file settled, then.)
        // Each picture once, in the order of its path (29,110 on the bench corpus: a dictionary
        // grown one at a time took a tenth of this).
        var all: [ImageRendition] = []
        all.reserveCapacity(entries.count * 2)
        // By index: an entry taken out of the table by a `for` loop is a copy of all its fields.
        let values = entries.values
        for i in values.indices { if let renditions = values[i].image?.renditions { all.append(contentsOf: renditions) } }
        all.sort { $0.path < $1.path }
        var named: [ImageRendition] = []
        named.reserveCapacity(all.count)
        for rendition in all where named.last?.path != rendition.path { named.append(rendition) }
        all = []
        let prefix = Self.imagesFolder + "/"
        func listedInfo(_ path: String) -> FileInfo? { path.hasPrefix(prefix) ? listed[path.dropFirst(prefix.count)] : nil }
        let checks = Parallel.map(named, chunk: 16) { imageIsIntact($0, verifyHash: true, info: listedInfo($0.path)) }
        // Kept as a whole only when no picture is damaged or changed just before the build.
        let wholeStamp: String? = {
            guard read.whole, let stamp = listing?.stamp, !checks.contains(false) else { return nil }
            let settled = settledForNextBuild()
            return named.allSatisfy { listedInfo($0.path).map(settled) == true } ? stamp : nil
        }()
        var intact = Set<String>()
        for (rendition, ok) in zip(named, checks) {
            if ok {
                intact.insert(rendition.path)
            } else {
                diagnostics.append(.warning(
                    "\(Self.damagedPicture) (its bytes are not the SHA-256 it is named by)\(Self.pictureAdvice)",
                    at: SourceLocation(path: "content/" + rendition.path), stage: "enrich"))
            }
        }
        kept?.setStamp(wholeStamp.map { Self.keptStamp(entries: $0, pictures: picturesStamp) })
        var snapshot = WikipediaSnapshot(cache: self, entries: entries, diagnostics: diagnostics, intactImages: intact)
        snapshot.picturesChecked = named.count
        snapshot.pictureFiles = imageFiles
        let whole = wholeStamp.flatMap { stamp in
            picturesStamp.map { CacheMemo.Whole(stamp: stamp, entries: entries, index: snapshot.index, pictures: $0, intact: intact) }
        }
        memo?.keepWhole(whole)
        // What the memo kept is this very snapshot (no damaged entry or picture: no diagnostics).
        if memo != nil { snapshot.wholeStamp = whole?.wholeStamp }
        return snapshot
    }

    /// Read entries by (language, canonical title), the problems found, and whether they are the
    /// whole folder as listed: every entry file read intact where it belongs, kept, and not
    /// changed just before the build began.
    private typealias Entries = (entries: [WikipediaSnapshot.Key: WikipediaEntry], diagnostics: [Diagnostic], whole: Bool)

    /// The entries the last build kept, all of them, when they carry the digest of this build's
    /// listing (``Listing``): that build read every entry file of a folder listed the same, all
    /// intact and kept. Nil otherwise.
    private func keptWhole() -> Entries? {
        guard memo == nil, let kept, let listing, Self.keptStamp(kept.stamp).entries.map(String.init) == listing.stamp else { return nil }
        var entries: [WikipediaSnapshot.Key: WikipediaEntry] = [:]
        var all = kept.useAll()
        entries.reserveCapacity(all.count)
        // Moved out one by one, not copied.
        while let entry = all.popLast() { entries[WikipediaSnapshot.Key(language: entry.language, title: entry.canonicalTitle)] = entry }
        return (entries, [], true)
    }

    /// The stamp kept entries are saved under (``KeptByFile/stamp``): the digest of the entry
    /// folders' listing (``Listing/stamp``) they were all read from, and that of the pictures'
    /// folder listing when every picture the entries name was found intact.
    static func keptStamp(entries: String, pictures: String?) -> String {
        pictures.map { entries + " pictures " + $0 } ?? entries
    }

    /// The two parts of a kept stamp (nil when there is none; `pictures` nil when the stamp has
    /// none, as one saved before the pictures' part was kept).
    static func keptStamp(_ stamp: String?) -> (entries: Substring?, pictures: Substring?) {
        guard let stamp else { return (nil, nil) }
        guard let range = stamp.range(of: " pictures ") else { return (Substring(stamp), nil) }
        return (stamp[..<range.lowerBound], stamp[range.upperBound...])
    }

    /// The digest of the pictures' folder as listed (every entry's name, kind and metadata, in
    /// name order): a picture added, removed, replaced or changed in place changes it.
    static func picturesStamp(_ listed: [(entry: DirectoryEntry, info: FileInfo?)]) -> String {
        var feed = DigestFeed()
        feed.add(count: listed.count)
        func code(_ kind: FileKind) -> Int {
            switch kind {
            case .file: 0
            case .directory: 1
            case .symlink: 2
            case .other: 3
            }
        }
        for (entry, info) in listed {
            feed.add(entry.name)
            feed.add(code(entry.kind))
            guard let info else {
                feed.add(nil as Int?)
                continue
            }
            feed.add(code(info.kind))
            feed.add(info.size)
            feed.add(count: Int(info.modificationTime))
            feed.add(count: Int(bitPattern: UInt(info.inode)))
            feed.add(count: Int(bitPattern: UInt(info.device)))
        }
        return feed.finish()
    }

    /// Whether what this build read of a file with some metadata may be kept for the next build
    /// (by the preview's memo or the kept entries): it did not change just before the build began.
    private func settledForNextBuild() -> (FileInfo) -> Bool {
        if let kept {
            let started = kept.started
            return { $0.isSettled(before: started) }
        }
        if let memo { return memo.settledRule() }
        return { _ in false }
    }

    /// Every entry file in the language folders (as ``listing`` gives them, else as listed
    /// here), each taken from the preview's memo or the kept entries by its metadata, or read.
    private func readEntries() -> Entries {
        var entries: [WikipediaSnapshot.Key: WikipediaEntry] = [:]
        var diagnostics: [Diagnostic] = []
        // Kept whole by one of them: a build never has both (an entry the memo gave would not
        // reach the kept entries).
        var whole = (kept != nil) != (memo != nil)
        let settled = settledForNextBuild()
        let folders = listing?.folders.map(\.name) ?? ((try? fileSystem.entries(in: directory)) ?? [])
            .filter { $0.kind == .directory && $0.name != "images" && $0.name.utf8.first != UInt8(ascii: ".") }.map(\.name)
        for (i, folder) in folders.enumerated() {
            // Listed with each file's metadata (one `fstatat` relative to the folder each), one
            // folder at a time, unless the walk listed them.
            let files = listing?.folders[i].files ?? ((try? fileSystem.entriesWithInfo(in: directory + "/" + folder)) ?? []).compactMap { entry, info in
                info.map { (name: entry.name, info: $0) }
            }
            // Compared as bytes, as the walk's listing does (`hasPrefix` compares characters: a dot
            // followed by a combining mark is not a dot).
            let names = files.filter {
                $0.info.kind == .file && $0.name.utf8.count > 5 && $0.name.utf8.suffix(5).elementsEqual(".json".utf8)
                    && $0.name.utf8.first != UInt8(ascii: ".")
            }
            if whole { whole = names.allSatisfy { settled($0.info) } }
            /// An entry read, with where it belongs when that is not where it is.
            typealias Read = (relative: String, result: Swift.Result<WikipediaEntry, CacheEntryFile.Damage>, belongs: String?)
            let prefix = Self.relativeDirectory + "/" + folder + "/"
            let results = Parallel.map(names) { name -> Read in
                let relative = prefix + name.name
                let full = absolute(relative)
                func checked(_ result: Swift.Result<WikipediaEntry, CacheEntryFile.Damage>) -> Read {
                    guard case .success(let entry) = result else { return (relative, result, nil) }
                    let belongs = Self.relativeEntryPath(language: entry.language, canonicalTitle: entry.canonicalTitle)
                    return (relative, result, belongs == relative ? nil : belongs)
                }
                let info = name.info
                guard memo != nil || kept != nil else { return checked(readEntry(relative)) }
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
                        "\(Self.damagedEntry): \(damage.reason)\(Self.entryAdvice)",
                        at: SourceLocation(path: relative), stage: "enrich"))
                }
            }
        }
        memo?.forgetUnseen()
        return (entries, diagnostics, whole && diagnostics.isEmpty)
    }

    /// One entry file, checked.
    public func readEntry(_ relativePath: String) -> Swift.Result<WikipediaEntry, CacheEntryFile.Damage> {
        let full = absolute(relativePath)
        if let info = fileSystem.infoFollowingLinks(full) {
            // A pipe would block the build until something writes to it.
            if info.kind != .file { return .failure(CacheEntryFile.Damage(reason: "it is not a regular file (a pipe, a device or a socket)")) }
            if info.size > Self.maxEntryBytes { return .failure(CacheEntryFile.Damage(reason: "it is \(info.size >> 10) KiB, more than an entry can be")) }
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
        // A picture that is a symbolic link is used only when it stays inside content/ (one that
        // led out published a file from elsewhere on the machine: found by a security review).
        // A listing's metadata is `lstat`'s: a link there is no file, and was refused above.
        if listed == nil, fileSystem.info(path)?.kind == .symlink {
            let content = Catalog.contentDirectory(root: root)
            guard let real = try? fileSystem.realPath(path), let contentReal = try? fileSystem.realPath(content), real.hasPrefix(contentReal + "/") else {
                return false
            }
        }
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

    // MARK: Titles a fetch found no article for

    /// `content/wikipedia/.pending/`: what `bestiary fetch` keeps for itself and never commits
    /// (unfinished downloads, the titles it found no article for).
    public static let pendingFolder = ".pending"

    /// `.pending/LANG/STEM.refused` for a (normalised) title: the reason the last fetch gave for it.
    func refusalPath(language: String, title: String) -> String {
        "\(directory)/\(Self.pendingFolder)/\(CacheFileName.languageFolder(language))/\(Self.refusalStem(language: language, title: title)).refused"
    }

    /// The name a refusal of `title` is kept under, without `.refused` (``refusedStems(language:)``).
    static func refusalStem(language: String, title: String) -> String {
        CacheFileName.stem(language: language, canonicalTitle: WikipediaTitle.normalize(title))
    }

    /// Why the last `bestiary fetch` found no article it could use for `title` (a 404, a
    /// disambiguation page), or nil: fetching again will not mend it, so the build's warning
    /// says so instead of advising a fetch.
    public func refusal(language: String, title: String) -> String? {
        let path = refusalPath(language: language, title: title)
        guard fileSystem.info(path)?.kind == .file, let data = try? fileSystem.read(path), data.count < 4096 else { return nil }
        let reason = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return reason.isEmpty ? nil : reason
    }

    // What `load()` says of an entry or picture it cannot use, and how (``mendedNote(for:)``).
    static let damagedEntry = "damaged Wikipedia cache entry"
    static let damagedPicture = "this picture is missing or damaged"
    static let entryAdvice = "; it is not used, and `bestiary fetch` fetches it again"
    static let pictureAdvice = "; it is not used, and `bestiary fetch` downloads it again"

    /// A load's warning of a damaged entry or picture (`d`) as a note that a fetch wrote it again,
    /// when it is intact now; nil when it is not, or `d` is no such warning.
    public func mendedNote(for d: Diagnostic) -> Diagnostic? {
        guard let path = d.location?.path, !path.isEmpty, let data = try? fileSystem.read(root + "/" + path) else { return nil }
        var note = d
        note.severity = .note
        if d.message.hasPrefix(Self.damagedEntry), (try? CacheEntryFile.decode(data)) != nil {
            note.message = d.message.replacingOccurrences(of: Self.entryAdvice, with: "; this fetch wrote it again")
        } else if d.message.hasPrefix(Self.damagedPicture), Hashing.sha256Hex(data) == path.split(separator: "/").last.map({ String($0.prefix { $0 != "." }) }) {
            note.message = d.message.replacingOccurrences(of: Self.pictureAdvice, with: "; this fetch downloaded it again")
        } else {
            return nil
        }
        return note
    }

    /// The stems (``CacheFileName/stem(language:canonicalTitle:)``) of the titles in `language`
    /// the last fetches found no usable article for: one listing of that language's folder in
    /// `.pending/`, none when it is not there.
    public func refusedStems(language: String) -> Set<String> {
        let folder = "\(directory)/\(Self.pendingFolder)/\(CacheFileName.languageFolder(language))"
        guard fileSystem.isDirectory(folder), let names = try? fileSystem.entries(in: folder) else { return [] }
        return Set(names.compactMap { $0.name.hasSuffix(".refused") ? String($0.name.dropLast(".refused".count)) : nil })
    }

    /// Keeps `reason` for `title` (nil: forgets it, as a fetch that found the article does).
    public func recordRefusal(_ reason: String?, language: String, title: String) {
        let path = refusalPath(language: language, title: title)
        if let reason {
            try? fileSystem.writeAtomically(Data((reason + "\n").utf8), to: path)
        } else if fileSystem.info(path) != nil {
            try? fileSystem.remove(path)
        }
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
