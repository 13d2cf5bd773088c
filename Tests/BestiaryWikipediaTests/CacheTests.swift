import BestiaryContent
import BestiaryDiagnostics
import BestiaryStorage
import BestiaryTestSupport
@testable import BestiaryWikipedia
import Foundation
import Testing

/// Entries and images as `bestiary fetch` writes them, read back as `bestiary build` does.
struct CacheTests {
    static func entry(_ file: String, requested: [String] = [], image: CachedImage? = nil) throws -> WikipediaEntry {
        let s = try WikipediaSummary.decode(try Fixtures.data("wikipedia/" + file))
        return WikipediaEntry(
            language: s.language, requested: requested.isEmpty ? [s.canonicalTitle] : requested, canonicalTitle: s.canonicalTitle,
            title: s.normalizedTitle, pageID: s.pageID, revision: s.revision, lastEdited: s.timestamp,
            fetchedAt: "2026-11-01T00:00:00Z", etag: "\"\(s.revision)/x\"", url: s.pageURL!, direction: s.direction,
            description: s.description, wikibaseItem: s.wikibaseItem, extract: s.extract, extractHTML: s.extractHTML, image: image)
    }

    @Test func entryRoundTripsThroughItsFile() throws {
        let entry = try Self.entry("he__Kelev_haBayit.json")
        let data = try CacheEntryFile.encode(entry)
        #expect(try CacheEntryFile.decode(data) == entry)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"checksum\""))
        #expect(text.hasSuffix("}\n"))
    }

    /// An entry edited by hand (here: its text) no longer matches its checksum and is refused.
    @Test func handEditedEntryIsDetected() throws {
        let data = try CacheEntryFile.encode(try Self.entry("de__Haushund.json"))
        let edited = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "Der Haushund ist", with: "Der Hund ist")
        #expect(edited != String(decoding: data, as: UTF8.self))
        #expect(throws: CacheEntryFile.Damage.self) { try CacheEntryFile.decode(Data(edited.utf8)) }
    }

    static let entryFixtures = ["de__Haushund.json", "he__Kelev_haBayit.json", "vi__Cho_rung_long_vang.json", "en__Dog.json", "de__Schakal.json"]

    /// A file as `encode` wrote it is checked by hashing its entry's bytes without indentation:
    /// those must be exactly the canonical JSON the checksum is made from.
    @Test(arguments: entryFixtures)
    func anEntryAsWrittenIsItsCanonicalJSONWithoutIndentation(_ file: String) throws {
        let entry = try Self.entry(file, image: Self.sampleImage)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let canonical = [UInt8](try encoder.encode(entry))
        #expect(CacheEntryFile.compactEntry(try CacheEntryFile.encode(entry)) == canonical)
    }

    /// Its checksum is no safeguard (anyone can compute it): an entry with a link that is not
    /// http(s), or a picture path out of the cache's picture folder, is refused however it was
    /// made (found by a security review: `javascript:` ran in a visitor's browser, `../`
    /// published a file from outside the site).
    @Test func anEntryWithAScriptLinkOrAPathOutOfTheCacheIsRefused() throws {
        var entry = try Self.entry("de__Haushund.json", image: Self.sampleImage)
        #expect(try CacheEntryFile.decode(try CacheEntryFile.encode(entry)) == entry)
        var script = entry
        script.url = "javascript:void(document.title='PWNED')"
        #expect(throws: CacheEntryFile.Damage(reason: "url 'javascript:void(document.title='PWNED')' is not an http(s) address")) {
            try CacheEntryFile.decode(try CacheEntryFile.encode(script))
        }
        // An optional link of another kind is left out, the article kept (a cache an older
        // version fetched with a licence address without its scheme).
        var license = entry
        license.license.url = "JavaScript:alert(1)"
        #expect(try CacheEntryFile.decode(try CacheEntryFile.encode(license)).license.url == nil)
        entry.image?.renditions[0].path = "../../outside/secret.png"
        #expect(throws: CacheEntryFile.Damage(reason: "image.renditions[0].path '../../outside/secret.png' is not a picture of the cache (wikipedia/images/SHA256.EXT)")) {
            try CacheEntryFile.decode(try CacheEntryFile.encode(entry))
        }
    }

    /// What a fetch stores of an answer with an optional link of another kind (a licence address
    /// without its scheme): the rest, that link left out, rather than nothing on every run.
    @Test func aFetchLeavesOutOptionalLinksItCannotStore() throws {
        var entry = try Self.entry("de__Haushund.json", image: Self.sampleImage)
        entry.license.url = "creativecommons.org/licenses/by-sa/4.0/"
        #expect(CacheEntryFile.unsafeField(entry) != nil)
        let stored = CacheEntryFile.droppingUnsafeOptionalLinks(entry)
        #expect(stored.license.url == nil)
        #expect(CacheEntryFile.unsafeField(stored) == nil)
        #expect(stored.extract == entry.extract && stored.image == entry.image)
        // The article's own address is not optional: such an answer is still refused.
        var script = stored
        script.url = "javascript:alert(1)"
        #expect(CacheEntryFile.unsafeField(CacheEntryFile.droppingUnsafeOptionalLinks(script)) != nil)
    }

    /// A file laid out some other way (keys in another order, slashes escaped: here as
    /// `JSONSerialization` writes it) is checked the long way and still accepted; edited, refused.
    @Test(arguments: entryFixtures)
    func aReformattedEntryIsStillCheckedByItsContent(_ file: String) throws {
        let entry = try Self.entry(file, image: Self.sampleImage)
        let object = try JSONSerialization.jsonObject(with: try CacheEntryFile.encode(entry))
        let reformatted = try JSONSerialization.data(withJSONObject: object)
        #expect(CacheEntryFile.compactEntry(reformatted) != CacheEntryFile.compactEntry(try CacheEntryFile.encode(entry)))
        #expect(try CacheEntryFile.decode(reformatted) == entry)
        guard var edited = object as? [String: Any], var inner = edited["entry"] as? [String: Any] else {
            Issue.record("not an envelope")
            return
        }
        inner["revision"] = "1"
        edited["entry"] = inner
        #expect(throws: CacheEntryFile.Damage.self) { try CacheEntryFile.decode(try JSONSerialization.data(withJSONObject: edited)) }
    }

    static let sampleImage = CachedImage(
        file: "File:Sample \"quoted\".jpg", original: nil,
        renditions: [ImageRendition(width: 320, height: 240, url: "https://upload.example/a/b.jpg", path: "wikipedia/images/ab.jpg", sha256: "ab", bytes: 10, format: "jpeg")],
        attribution: nil)

    @Test(arguments: [
        ("cut", "not valid JSON"),
        ("missing", "'entry.revision' is missing"),
        ("format", "format 9"),
    ])
    func damagedFilesSayWhy(_ kind: String, _ reason: String) throws {
        let good = String(decoding: try CacheEntryFile.encode(try Self.entry("de__Schakal.json")), as: UTF8.self)
        let bad: String
        switch kind {
        case "cut": bad = String(good.prefix(good.count / 2))
        case "missing": bad = good.replacingOccurrences(of: "\"revision\" : \"261738246\",", with: "")
        default: bad = good.replacingOccurrences(of: "\"format\" : 1", with: "\"format\" : 9")
        }
        #expect(bad != good)
        do {
            _ = try CacheEntryFile.decode(Data(bad.utf8))
            Issue.record("accepted a damaged file")
        } catch let damage as CacheEntryFile.Damage {
            #expect(damage.reason.contains(reason), "\(damage.reason)")
        }
    }

    @Test func writesEntriesUnderSafeNamesAndReadsThemBack() throws {
        let dir = TemporaryDirectory()
        let cache = WikipediaCache(root: dir.path)
        for file in ["de__Haushund.json", "he__Kelev_haBayit.json", "vi__Cho_rung_long_vang.json", "en__Dog.json"] {
            try cache.write(try Self.entry(file))
        }
        // Two articles differing only in case must both survive.
        var upper = try Self.entry("en__Dog.json")
        upper.canonicalTitle = "DOG"
        upper.requested = ["DOG"]
        upper.extract = "Another article."
        try cache.write(upper)

        let snapshot = cache.load()
        #expect(snapshot.diagnostics.isEmpty)
        #expect(snapshot.entries.count == 5)
        #expect(snapshot.entry(language: "en", title: "Dog")?.extract.hasPrefix("The dog is") == true)
        #expect(snapshot.entry(language: "en", title: "DOG")?.extract == "Another article.")
        #expect(snapshot.entry(language: "he", title: "כלב הבית")?.direction == "rtl")
        #expect(snapshot.entry(language: "vi", title: "Chó rừng lông vàng")?.revision == "74453304")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.appending("content/wikipedia/en"))
        #expect(names.count == 2)
        #expect(Set(names.map { $0.lowercased() }).count == 2)
    }

    /// The preview's memo: an entry file whose metadata is unchanged is not read again (shown by
    /// bytes swapped under the same size, inode and time), a rewritten one is, a damaged one is
    /// reported, and a removed one is gone.
    @Test func memoReadsOnlyEntryFilesThatChanged() throws {
        let dir = TemporaryDirectory()
        let memo = CacheMemo()
        let cache = WikipediaCache(root: dir.path, memo: memo)
        try cache.write(try Self.entry("de__Haushund.json"))
        try cache.write(try Self.entry("de__Schakal.json"))
        #expect(cache.load().entries.count == 2)

        // Same length, same inode, time put back: the memo's answer stands.
        try Self.swapInPlace(cache.entryPath(language: "de", canonicalTitle: "Haushund"))
        #expect(cache.load().diagnostics.isEmpty, "served from the memo, not read")
        #expect(WikipediaCache(root: dir.path).load().diagnostics.count == 1, "read without a memo: the checksum fails")

        // Rewritten (a new file): read again.
        var newer = try Self.entry("de__Haushund.json")
        newer.extract = "Neu."
        try cache.write(newer)
        #expect(cache.load().entry(language: "de", title: "Haushund")?.extract == "Neu.")

        // Damaged: reported; removed: gone.
        try Data("{".utf8).write(to: URL(fileURLWithPath: cache.entryPath(language: "de", canonicalTitle: "Schakal")))
        #expect(cache.load().diagnostics.map(\.message).contains { $0.contains("damaged") })
        try FileManager.default.removeItem(atPath: cache.entryPath(language: "de", canonicalTitle: "Schakal"))
        let last = cache.load()
        #expect(last.diagnostics.isEmpty)
        #expect(last.entries.count == 1)
    }

    /// Changes the Haushund entry file at `path` in place with bytes of the same length (its
    /// checksum then fails) and puts its time back: its size, inode and time are as before.
    static func swapInPlace(_ path: String) throws {
        var before = stat()
        #expect(stat(path, &before) == 0)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let swapped = Data(String(decoding: original, as: UTF8.self).replacingOccurrences(of: "Der Haushund ist", with: "Der Haushund war").utf8)
        #expect(swapped.count == original.count && swapped != original)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: swapped)
        try handle.close()
        #expect(utimensat(AT_FDCWD, path, [before.st_atim, before.st_mtim], 0) == 0)
    }

    /// A build that began within 2 s of an entry file's change does not keep what it read: on a
    /// file system with a coarse clock the file could change again and keep its metadata.
    @Test func memoDoesNotKeepAnEntryChangedJustBeforeTheBuild() throws {
        let dir = TemporaryDirectory()
        let memo = CacheMemo()
        let cache = WikipediaCache(root: dir.path, memo: memo)
        try cache.write(try Self.entry("de__Haushund.json"))
        let path = cache.entryPath(language: "de", canonicalTitle: "Haushund")
        func swapInPlace() throws { try Self.swapInPlace(path) }
        memo.begin(started: FileFacts.nanoseconds(Date()))
        #expect(cache.load().diagnostics.isEmpty)
        try swapInPlace()
        #expect(cache.load().diagnostics.count == 1, "not kept: read again, and the checksum fails")

        // Changed an hour before the build: kept, and the same swap goes unseen.
        try cache.write(try Self.entry("de__Haushund.json"))
        let hourAgo = Date().addingTimeInterval(-3600)
        try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: path)
        memo.begin(started: FileFacts.nanoseconds(Date()))
        #expect(cache.load().diagnostics.isEmpty)
        try swapInPlace()
        #expect(cache.load().diagnostics.isEmpty, "served from the memo, not read")
    }

    /// Two cached entries, the dog's with a picture, every file settled an hour ago.
    final class TwoEntries {
        let writer: WikipediaCache
        let png = TestImages.png(tag: "fox")
        /// The picture, relative to `content/`, and as a file.
        let path: String, picture: String
        let dog: WikipediaEntry
        let dogFile: String
        private var past = Date().addingTimeInterval(-3600)

        init(root: String) throws {
            writer = WikipediaCache(root: root)
            let (path, sha) = try writer.storeImage(png, format: "png")
            let rendition = ImageRendition(width: 330, height: 248, url: "https://x/330px-a.png", path: path, sha256: sha, bytes: png.count, format: "png")
            dog = try CacheTests.entry("de__Haushund.json", image: CachedImage(file: "File:Hund.png", original: nil, renditions: [rendition], attribution: nil))
            try writer.write(dog)
            try writer.write(try CacheTests.entry("de__Schakal.json"))
            self.path = path
            picture = writer.imageFile(path)
            dogFile = writer.entryPath(language: "de", canonicalTitle: "Haushund")
            for file in [dogFile, writer.entryPath(language: "de", canonicalTitle: "Schakal"), picture] { try settle(file) }
        }

        /// Gives `file` a time in the past, later than the last one given (as a file changed later
        /// has a later time).
        func settle(_ file: String) throws {
            past += 1
            try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: file)
        }
    }

    /// The cache's `de` folder as a walk lists it, claimed to have digest `stamp`; `leaving` a
    /// file out.
    static func listing(of cache: WikipediaCache, _ stamp: String, leaving: String? = nil) throws -> WikipediaCache.Listing {
        let files = try LocalFileSystem().entriesWithInfo(in: cache.directory + "/de").compactMap { entry, info in
            entry.name == leaving ? nil : info.map { (name: entry.name, info: $0) }
        }
        return WikipediaCache.Listing(folders: [.init(name: "de", files: files)], stamp: stamp)
    }

    /// The preview's memo keeps the entries whole too: a build whose walk lists the cache's folder
    /// with the digest of the last build's listing takes them as they are, without a lookup each,
    /// and their pictures' checks while the pictures' folder lists each file as it did. A picture
    /// changed since is checked again; an entry or picture changed just before the build keeps
    /// the next one from taking them whole.
    @Test func memoTakesTheWholeCacheWhileItsListingIsUnchanged() throws {
        let dir = TemporaryDirectory()
        let memo = CacheMemo()
        let site = try TwoEntries(root: dir.path)
        let (writer, png, path, dog, dogFile, picture) = (site.writer, site.png, site.path, site.dog, site.dogFile, site.picture)
        func settle(_ file: String) throws { try site.settle(file) }
        let dogName = (dogFile as NSString).lastPathComponent
        /// One build of the preview's: the cache read with the memo and the walk's listing.
        func load(_ stamp: String, leaving: String? = nil) throws -> WikipediaSnapshot {
            memo.begin(started: FileFacts.nanoseconds(Date()))
            var cache = WikipediaCache(root: dir.path, memo: memo)
            cache.listing = try Self.listing(of: writer, stamp, leaving: leaving)
            return cache.load()
        }

        #expect(try load("A").entries.count == 2)
        // Taken whole: the listing leaves the dog's file out, yet the dog is there.
        #expect(try load("A", leaving: dogName).entry(language: "de", title: "Haushund") == dog, "every field as read")
        #expect(try load("A").intactImages == [path])
        // The picture damaged since (same size, a new time): checked again, though the entries
        // are taken whole.
        var bytes = png
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: picture))
        try settle(picture)
        let damaged = try load("A")
        #expect(damaged.intactImages == [] && damaged.diagnostics.map(\.location?.path) == ["content/" + path])
        try png.write(to: URL(fileURLWithPath: picture))
        try settle(picture)
        #expect(try load("A").intactImages == [path])
        #expect(try load("A", leaving: dogName).entries.count == 2, "kept whole again")
        // The picture written again just now (the same bytes): checked, and nothing kept whole.
        try png.write(to: URL(fileURLWithPath: picture))
        #expect(try load("A").intactImages == [path])
        #expect(try load("A", leaving: dogName).entries.count == 1, "not taken whole: the listing is followed")
        // That build kept its own listing (without the dog) whole under "A": the full listing
        // needs another digest from now on, as a real walk's would differ.
        try settle(picture)
        #expect(try load("A2").intactImages == [path])
        #expect(try load("A2", leaving: dogName).entries.count == 2)
        memo.reset()
        #expect(try load("A2", leaving: dogName).entries.count == 1, "forgotten by a reset")
        // Another digest: each file looked up, and the one left out is not there.
        #expect(try load("B", leaving: dogName).entries.count == 1)

        // An entry rewritten just now: read, and the whole not kept.
        var newer = dog
        newer.extract = "Neu."
        try writer.write(newer)
        #expect(try load("C").entry(language: "de", title: "Haushund")?.extract == "Neu.")
        #expect(try load("C", leaving: dogName).entries.count == 1, "not taken whole: the listing is followed")
    }

    @Test func requestedTitlesLeadToTheirArticle() throws {
        let dir = TemporaryDirectory()
        let cache = WikipediaCache(root: dir.path)
        try cache.write(try Self.entry("de__Haushund.json", requested: ["Hund", "Haushund"]))
        let snapshot = cache.load()
        #expect(snapshot.entry(language: "de", title: "hund")?.canonicalTitle == "Haushund")
        #expect(snapshot.entry(language: "de", title: "Haushund")?.canonicalTitle == "Haushund")
        #expect(snapshot.entry(language: "de", title: "Katze") == nil)
        #expect(snapshot.entry(language: "en", title: "Hund") == nil)
    }

    @Test func damagedEntryIsReportedAndNotUsed() throws {
        let dir = TemporaryDirectory()
        let cache = WikipediaCache(root: dir.path)
        try cache.write(try Self.entry("de__Haushund.json"))
        try cache.write(try Self.entry("de__Schakal.json"))
        let path = cache.entryPath(language: "de", canonicalTitle: "Schakal")
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "Schakale leben", with: "Schakale wohnen")
        try text.writeReplacing(toFile: path)

        let snapshot = cache.load()
        #expect(snapshot.entry(language: "de", title: "Schakal") == nil)
        #expect(snapshot.entry(language: "de", title: "Haushund") != nil)
        #expect(snapshot.diagnostics.count == 1)
        let d = try #require(snapshot.diagnostics.first)
        #expect(d.severity == .warning)
        #expect(d.stage == "enrich")
        #expect(d.location?.path == WikipediaCache.relativeEntryPath(language: "de", canonicalTitle: "Schakal"))
        #expect(d.message.contains("checksum"))
    }

    @Test func imagesAreStoredByContentAndChecked() throws {
        let dir = TemporaryDirectory()
        let cache = WikipediaCache(root: dir.path)
        let png = TestImages.png(tag: "fox")
        let (path, sha) = try cache.storeImage(png, format: "png")
        #expect(path == "wikipedia/images/\(Hashing.sha256Hex(png)).png")
        #expect(sha == Hashing.sha256Hex(png))
        #expect(try cache.storeImage(png, format: "png").path == path)  // idempotent
        let rendition = ImageRendition(width: 330, height: 248, url: "https://x/330px-a.png", path: path, sha256: sha, bytes: png.count, format: "png")
        #expect(cache.imageIsIntact(rendition, verifyHash: true))
        try Data(png.prefix(png.count - 3) + [0, 0, 0]).write(to: URL(fileURLWithPath: cache.imageFile(path)))
        #expect(!cache.imageIsIntact(rendition, verifyHash: true))
    }

    /// A one-shot build keeps each picture's check by the file's metadata (``FileFacts``): the
    /// next build does not read an unchanged picture again, and reads a changed one.
    @Test func imageChecksAreKeptByFileMetadata() throws {
        let dir = TemporaryDirectory()
        let factsFile = dir.appending(".out.bestiary-files")
        let png = TestImages.png(tag: "fox")
        let (path, sha) = try WikipediaCache(root: dir.path).storeImage(png, format: "png")
        let file = dir.appending("content/" + path)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: file)
        let rendition = ImageRendition(width: 330, height: 248, url: "https://x/330px-a.png", path: path, sha256: sha, bytes: png.count, format: "png")
        func check() -> (intact: Bool, hits: Int) {
            let facts = FileFacts.load(factsFile, tool: "t", keyPrefix: "", fileSystem: LocalFileSystem())
            let intact = WikipediaCache(root: dir.path, facts: facts).imageIsIntact(rendition, verifyHash: true)
            facts.save(factsFile, fileSystem: LocalFileSystem())
            return (intact, facts.hits)
        }
        #expect(check() == (true, 0))
        #expect(check() == (true, 1))
        // Damaged in place, same size: the file's time changed, so it is read again.
        try Data(png.prefix(png.count - 3) + [0, 0, 0]).write(to: URL(fileURLWithPath: file))
        #expect(check() == (false, 0))
    }

    /// A one-shot build keeps the decoded entries by file metadata (``KeptEntries``): the next
    /// build takes an unchanged entry from the kept file, every field as it was, and reads a
    /// changed one; a damaged entry is never kept; an entry changed just before the build began
    /// is not vouched for.
    @Test func decodedEntriesAreKeptByFileMetadata() throws {
        let dir = TemporaryDirectory()
        let keptFile = dir.appending(".out.bestiary-wikipedia")
        let fs = LocalFileSystem()
        let writer = WikipediaCache(root: dir.path)
        let image = CachedImage(
            file: "File:Fuchs.jpg", original: ImageSource(url: "https://u/Fuchs.jpg", width: 4000, height: 3000),
            renditions: [ImageRendition(width: 330, height: 248, url: "https://u/330px.jpg", path: "wikipedia/images/ab.jpg", sha256: "ab", bytes: 12, format: "jpeg")],
            attribution: ImageAttribution(artist: "A. Person", credit: nil, license: License(name: "CC BY 4.0", url: nil), attributionRequired: true, descriptionURL: "https://c/File:Fuchs.jpg"))
        let dog = try Self.entry("de__Haushund.json", requested: ["Haushund", "Hund"], image: image)
        try writer.write(dog)
        try writer.write(try Self.entry("de__Schakal.json"))
        try Data("{".utf8).write(to: URL(fileURLWithPath: writer.entryPath(language: "de", canonicalTitle: "Kaputt")))
        let hourAgo = Date().addingTimeInterval(-3600)
        for title in ["Haushund", "Schakal", "Kaputt"] {
            try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: writer.entryPath(language: "de", canonicalTitle: title))
        }
        func load() -> (WikipediaSnapshot, hits: Int) {
            let kept = KeptEntries.load(keptFile, tool: "t", keyPrefix: "", fileSystem: fs)
            let snapshot = WikipediaCache(root: dir.path, kept: kept).load()
            KeptEntries.save(kept, to: keptFile, fileSystem: fs)
            return (snapshot, kept.hits)
        }
        let first = load()
        #expect(first.hits == 0)
        #expect(first.0.entries.count == 2)
        func damaged(_ snapshot: WikipediaSnapshot) -> Int {
            snapshot.diagnostics.filter { $0.message.hasPrefix("damaged Wikipedia cache entry") }.count
        }
        #expect(damaged(first.0) == 1)
        let second = load()
        #expect(second.hits == 2, "both entries from the kept file; the damaged one read again")
        #expect(damaged(second.0) == 1, "still reported")
        #expect(second.0.entry(language: "de", title: "Haushund") == dog, "every field as decoded")

        // Rewritten just now: read again, and not kept (it could change again unnoticed).
        var newer = dog
        newer.extract = "Neu."
        try writer.write(newer)
        let third = load()
        #expect(third.hits == 1)
        #expect(third.0.entry(language: "de", title: "Haushund")?.extract == "Neu.")
        #expect(load().hits == 1, "a racy entry is read by the next build too")

        // Another binary's file is not read.
        let other = KeptEntries.load(keptFile, tool: "other", keyPrefix: "", fileSystem: fs)
        _ = WikipediaCache(root: dir.path, kept: other).load()
        #expect(other.hits == 0)
    }

    /// A build whose walk over the inputs lists the cache's folder as the last build did (the
    /// same digest) takes the entries that build kept, all of them, without a lookup each; their
    /// pictures are still checked file by file. A picture damaged in place, an entry changed just
    /// before the build or a damaged entry keeps the next build from taking them whole.
    @Test func theWholeCacheIsTakenWhileItsListingIsUnchanged() throws {
        let dir = TemporaryDirectory()
        let site = try TwoEntries(root: dir.path)
        let (writer, png, path, dog, dogFile, picture) = (site.writer, site.png, site.path, site.dog, site.dogFile, site.picture)
        func settle(_ file: String) throws { try site.settle(file) }

        func listing(_ stamp: String, leaving: String? = nil) throws -> WikipediaCache.Listing {
            try Self.listing(of: writer, stamp, leaving: leaving)
        }
        /// One build's read of the cache: the snapshot, the kept entries taken, the stamp saved
        /// (its entries' part: the pictures' part is ``keptEntriesTakeThePicturesChecksWhileTheirFolderListsTheSame()``'s).
        func load(_ listing: WikipediaCache.Listing) -> (snapshot: WikipediaSnapshot, hits: Int, stamp: String?) {
            let read = Self.oneShotRead(dir, listing)
            return (read.snapshot, read.entryHits, read.stamp.entries.map(String.init))
        }

        let first = try load(listing("A"))
        #expect(first.snapshot.entries.count == 2 && first.hits == 0)
        #expect(first.snapshot.intactImages == [path])
        #expect(first.stamp == "A", "every entry and picture intact and settled: kept whole")
        // Taken whole: the listing leaves the dog's file out, yet the dog is there.
        let second = try load(listing("A", leaving: (dogFile as NSString).lastPathComponent))
        #expect(second.snapshot.entry(language: "de", title: "Haushund") == dog, "every field as kept")
        #expect(second.snapshot.entries.count == 2 && second.hits == 2)
        #expect(second.stamp == "A")
        // Another digest: each file looked up by its metadata, and the one left out is not there.
        #expect(try load(listing("A2", leaving: (dogFile as NSString).lastPathComponent)).snapshot.entries.count == 1)

        // The picture damaged in place (same size): seen even when the entries are taken whole.
        var bytes = png
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: picture))
        try settle(picture)
        let damaged = try load(listing("B"))
        #expect(damaged.snapshot.intactImages == [])
        #expect(damaged.snapshot.diagnostics.map(\.location?.path) == ["content/" + path])
        #expect(damaged.stamp == nil, "not kept whole while a picture is damaged")
        try png.write(to: URL(fileURLWithPath: picture))
        try settle(picture)
        #expect(try load(listing("B")).stamp == "B")
        try bytes.write(to: URL(fileURLWithPath: picture))
        try settle(picture)
        #expect(try load(listing("B")).snapshot.intactImages == [], "checked although taken whole")
        try png.write(to: URL(fileURLWithPath: picture))
        try settle(picture)
        #expect(try load(listing("C")).stamp == "C")

        // An entry rewritten just now: read, and the whole not vouched for.
        var newer = dog
        newer.extract = "Neu."
        try writer.write(newer)
        let racy = try load(listing("D"))
        #expect(racy.snapshot.entry(language: "de", title: "Haushund")?.extract == "Neu.")
        #expect(racy.stamp == nil)
        try settle(dogFile)
        #expect(try load(listing("D")).stamp == "D")
        // A damaged entry: reported, and the whole not kept.
        try dir.write("{", to: "content/wikipedia/de/kaputt.json")
        try settle(dir.appending("content/wikipedia/de/kaputt.json"))
        let broken = try load(listing("E"))
        #expect(broken.snapshot.diagnostics.count == 1 && broken.stamp == nil)
    }

    /// One one-shot build's read of the cache under `dir`, with its kept entries and file facts
    /// (`.out.bestiary-*`, loaded and saved as a build does): the snapshot, the entries and facts
    /// taken from the kept files, and the two parts of the stamp saved.
    static func oneShotRead(_ dir: TemporaryDirectory, _ listing: WikipediaCache.Listing)
        -> (snapshot: WikipediaSnapshot, entryHits: Int, factHits: Int, stamp: (entries: Substring?, pictures: Substring?))
    {
        let fs = LocalFileSystem()
        let keptFile = dir.appending(".out.bestiary-wikipedia"), factsFile = dir.appending(".out.bestiary-files")
        let kept = KeptEntries.load(keptFile, tool: "t", keyPrefix: "", fileSystem: fs)
        let facts = FileFacts.load(factsFile, tool: "t", keyPrefix: "", fileSystem: fs)
        var cache = WikipediaCache(root: dir.path, facts: facts, kept: kept)
        cache.listing = listing
        let snapshot = cache.load()
        KeptEntries.save(kept, to: keptFile, fileSystem: fs)
        facts.save(factsFile, fileSystem: fs)
        let stamp = WikipediaCache.keptStamp(KeptEntries.load(keptFile, tool: "t", keyPrefix: "", fileSystem: fs).stamp)
        return (snapshot, kept.hits, facts.hits, stamp)
    }

    /// A one-shot build that takes the entries whole also takes their pictures' checks as the
    /// last build made them while the pictures' folder lists every file with the metadata it had
    /// then (the stamp's pictures' part) and the file facts that vouched for them are there, and
    /// keeps those facts. A picture changed since (its time or its inode), one changed just
    /// before that build, or facts missing (a build stopped before saving them) have each picture
    /// checked again.
    @Test func keptEntriesTakeThePicturesChecksWhileTheirFolderListsTheSame() throws {
        let dir = TemporaryDirectory()
        let site = try TwoEntries(root: dir.path)
        let (writer, png, path, picture) = (site.writer, site.png, site.path, site.picture)
        func read(_ stamp: String) throws -> (snapshot: WikipediaSnapshot, entryHits: Int, factHits: Int, stamp: (entries: Substring?, pictures: Substring?)) {
            Self.oneShotRead(dir, try Self.listing(of: writer, stamp))
        }
        var damagedBytes = png
        damagedBytes[damagedBytes.count / 2] ^= 0xFF
        /// Puts `bytes` in the picture's place, in place or as a new file, with its time put back.
        func replacePicture(with bytes: Data, inPlace: Bool) throws {
            var before = stat()
            #expect(stat(picture, &before) == 0)
            if inPlace {
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: picture))
                try handle.write(contentsOf: bytes)
                try handle.close()
            } else {
                try bytes.write(to: URL(fileURLWithPath: picture + ".new"))
                #expect(rename(picture + ".new", picture) == 0)
            }
            #expect(utimensat(AT_FDCWD, picture, [before.st_atim, before.st_mtim], 0) == 0)
        }

        let first = try read("A")
        #expect(first.snapshot.intactImages == [path] && first.snapshot.picturesChecked == 1 && first.factHits == 0, "read and hashed")
        #expect(first.stamp.entries == "A" && first.stamp.pictures != nil)
        let second = try read("A")
        #expect(second.snapshot.picturesChecked == 0, "the checks stand")
        #expect(second.snapshot.intactImages == [path] && second.snapshot.diagnostics.isEmpty)
        #expect(second.entryHits == 2 && second.factHits == 1 && second.stamp.pictures == first.stamp.pictures)
        // The fact was kept: a build that checks each picture (another listing of the entries)
        // finds it, and reads nothing.
        let third = try read("A2")
        #expect(third.snapshot.picturesChecked == 1 && third.factHits == 1 && third.snapshot.intactImages == [path])
        #expect(third.stamp.entries == "A2" && third.stamp.pictures == first.stamp.pictures)

        // Its bytes changed in place, its size and time put back: taken as the last build found
        // it (as its file fact would be), while the facts are there.
        try replacePicture(with: damagedBytes, inPlace: true)
        #expect(try read("A2").snapshot.picturesChecked == 0)
        // The facts gone: checked, read again, and found damaged.
        try FileManager.default.removeItem(atPath: dir.appending(".out.bestiary-files"))
        let noFacts = try read("A2")
        #expect(noFacts.snapshot.picturesChecked == 1 && noFacts.snapshot.intactImages == [])
        #expect(noFacts.snapshot.diagnostics.map(\.location?.path) == ["content/" + path] && noFacts.stamp.entries == nil)
        // Mended (a new time: its metadata now stands for damaged bytes in the facts).
        try png.write(to: URL(fileURLWithPath: picture))
        try site.settle(picture)
        #expect(try read("A2").stamp.pictures != nil, "kept whole again")
        // A damaged copy put in its place (another inode), its time put back: checked.
        try replacePicture(with: damagedBytes, inPlace: false)
        let renamed = try read("A2")
        #expect(renamed.snapshot.picturesChecked == 1 && renamed.snapshot.intactImages == [] && renamed.stamp.entries == nil)
        try png.write(to: URL(fileURLWithPath: picture))
        try site.settle(picture)
        #expect(try read("A2").stamp.pictures != nil)
        // Its time changed: checked, and found damaged.
        try replacePicture(with: damagedBytes, inPlace: true)
        try site.settle(picture)
        let damaged = try read("A2")
        #expect(damaged.snapshot.picturesChecked == 1 && damaged.snapshot.intactImages == [])
        try png.write(to: URL(fileURLWithPath: picture))
        try site.settle(picture)
        #expect(try read("A2").stamp.pictures != nil)
        // A file added to the folder: the listing differs, each picture is checked (by its fact),
        // and the new listing is kept.
        try dir.write("not a picture", to: "content/" + WikipediaCache.imagesFolder + "/other.png")
        try site.settle(dir.appending("content/" + WikipediaCache.imagesFolder + "/other.png"))
        let added = try read("A2")
        #expect(added.snapshot.picturesChecked == 1 && added.factHits == 1 && added.snapshot.intactImages == [path])
        #expect(added.stamp.pictures != nil && added.stamp.pictures != first.stamp.pictures)
        #expect(try read("A2").snapshot.picturesChecked == 0)
        // The picture written again just now (the same bytes): checked, the pictures' part not
        // kept, and its fact not kept either, so the next build reads it again.
        try png.write(to: URL(fileURLWithPath: picture))
        #expect(try read("A2").stamp.entries == nil)
        let racy = try read("A2")
        #expect(racy.snapshot.picturesChecked == 1 && racy.factHits == 0)
    }

    @Test func staleTemporaryFilesAreRemoved() throws {
        let dir = TemporaryDirectory()
        let cache = WikipediaCache(root: dir.path)
        try cache.write(try Self.entry("de__Haushund.json"))
        try dir.write("{", to: "content/wikipedia/de/x.json.tmp-123-456")
        cache.removeStaleTemporaryFiles()
        #expect(!dir.exists("content/wikipedia/de/x.json.tmp-123-456"))
        #expect(cache.load().entries.count == 1)
    }
}
