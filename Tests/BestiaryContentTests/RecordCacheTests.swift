@testable import BestiaryContent
import BestiaryDiagnostics
import BestiaryStorage
import BestiaryTestSupport
import Foundation
import Testing

/// Records kept between builds by file metadata (`.NAME.bestiary-records`): a load that takes
/// them from the cache gives what parsing every file gives, an edited record is parsed again,
/// and a cache that does not fit is not used at all.
@Suite struct RecordCacheTests {
    let site = TemporaryDirectory()
    var cacheFile: String { site.appending(".output.bestiary-records") }

    init() throws {
        try Fixtures.copy("sites/tuxpaint", to: site.path)
        // A record with a warning, so that diagnostics travel through the cache too.
        try site.write("---\nname: {en: Odd cat}\ndifficulty: 2\nwikipedia: {en: Cat}\nimage: {focus: \"50% 0%\", alt: {en: An odd cat asleep}}\n---\nPurrs.\n", to: "content/animals/odd-cat.md")
        // Records written an hour ago: a record changed just before a build is not kept (below).
        let animals = site.appending("content/animals")
        for name in try FileManager.default.contentsOfDirectory(atPath: animals) {
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: animals + "/" + name)
        }
    }

    func load(tool: String = "tool 1") -> (ContentLoader.Result, RecordCache) {
        let cache = RecordCache.load(cacheFile, tool: tool, fileSystem: LocalFileSystem())
        var loader = ContentLoader(root: site.path)
        loader.cache = cache
        let result = loader.load()
        cache.save(cacheFile, fileSystem: LocalFileSystem())
        return (result, cache)
    }

    @Test func aLoadFromTheCacheIsAFullParse() throws {
        let plain = ContentLoader(root: site.path).load()
        let animals = try #require(plain.catalog?.animals)
        #expect(animals.count > 60)
        let (first, cold) = load()
        #expect(cold.hits == 0)
        let (second, warm) = load()
        #expect(warm.hits == animals.count)
        for result in [first, second] {
            #expect(result.catalog?.animals == animals)
            #expect(result.diagnostics.sorted == plain.diagnostics.sorted)
        }
    }

    @Test func anEditedRecordIsParsedAgain() throws {
        _ = load()
        let path = "content/animals/odd-cat.md"
        try site.write(try site.read(path).replacingOccurrences(of: "difficulty: 2", with: "difficulty: 3"), to: path)
        let (result, cache) = load()
        let count = try #require(result.catalog?.animals.count)
        #expect(cache.hits == count - 1)
        #expect(result.catalog?.animals.first { $0.id == "odd-cat" }?.difficulty == 3)
        #expect(result.catalog?.animals == ContentLoader(root: site.path).load().catalog?.animals)
    }

    /// A build that parsed only a few records anew leaves the file as it is (20 MB for 10,000
    /// records): the next build parses those again. More changes than it keeps rewrite it.
    @Test func aFewChangedRecordsLeaveTheFileAsItIs() throws {
        let (first, _) = load()
        let count = try #require(first.catalog?.animals.count)
        #expect(RecordCache.driftKept(records: count) == 8)
        let written = try #require(LocalFileSystem().info(cacheFile))
        func edit(_ name: String) throws {
            let path = "content/animals/\(name).md"
            try site.write(try site.read(path) + "\nMore.\n", to: path)
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-60)], ofItemAtPath: site.appending(path))
        }
        try edit("bear")
        let (edited, cache) = load()
        #expect(cache.hits == count - 1)
        #expect(LocalFileSystem().info(cacheFile) == written, "not written again")
        #expect(edited.catalog?.animals == ContentLoader(root: site.path).load().catalog?.animals)
        #expect(load().1.hits == count - 1, "the edited record is parsed again")
        for name in ["badger", "cow", "crow", "dog"] { try edit(name) }
        #expect(load().1.hits == count - 5)
        #expect(LocalFileSystem().info(cacheFile) != written, "10 records differ: written")
        #expect(load().1.hits == count)
    }

    /// A record changed in the 2 s before a build could change again without its metadata
    /// showing it (coarse file clocks): that build does not keep it, the next parses it again.
    @Test func aRecordChangedJustBeforeTheBuildIsParsedAgain() throws {
        try site.write(try site.read("content/animals/odd-cat.md").replacingOccurrences(of: "Purrs.", with: "Purrs loudly."), to: "content/animals/odd-cat.md")
        let (first, _) = load()
        let count = try #require(first.catalog?.animals.count)
        let (second, cache) = load()
        #expect(cache.hits == count - 1)
        #expect(second.catalog?.animals == first.catalog?.animals)
    }

    /// The preview keeps the cache in memory from one rebuild to the next: it takes what the
    /// last load used, but for a record changed just before that load, and holds no file.
    @Test func aCacheCarriedOverInMemoryKeepsOnlySettledRecords() throws {
        try site.write(try site.read("content/animals/odd-cat.md").replacingOccurrences(of: "Purrs.", with: "Purrs loudly."), to: "content/animals/odd-cat.md")
        func load(_ cache: RecordCache) -> ContentLoader.Result {
            var loader = ContentLoader(root: site.path)
            loader.cache = cache
            return loader.load()
        }
        let first = RecordCache(tool: "tool 1")
        let plain = load(first)
        let count = try #require(plain.catalog?.animals.count)
        #expect(first.hits == 0)
        let second = first.carriedOver(started: Date())
        let again = load(second)
        #expect(second.hits == count - 1, "all but the record changed just before the first load")
        #expect(again.catalog?.animals == plain.catalog?.animals)
        #expect(again.diagnostics.sorted == plain.diagnostics.sorted)
        // Not carried over by the second load either (it began within 2 s of the change too), so
        // the third reads it again. Its time is then put an hour back, as if it had settled: the
        // third load keeps it, and the fourth takes every record from the cache.
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: site.appending("content/animals/odd-cat.md"))
        let third = second.carriedOver(started: Date())
        #expect(load(third).catalog?.animals == plain.catalog?.animals)
        #expect(third.hits == count - 1, "never carried over: read again")
        let fourth = third.carriedOver(started: Date())
        _ = load(fourth)
        #expect(fourth.hits == count)
        #expect(!FileManager.default.fileExists(atPath: cacheFile))
    }

    @Test func aCacheThatDoesNotFitIsNotUsed() throws {
        _ = load()
        #expect(load(tool: "tool 2").1.hits == 0)  // another binary
        _ = load()
        let data = try Data(contentsOf: URL(fileURLWithPath: cacheFile))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: cacheFile))  // cut short
        #expect(load().1.hits == 0)
        _ = load()
        try site.write(try site.read("content/site.yml").replacingOccurrences(of: "Tux-Paint-Tiere", with: "Tiere"), to: "content/site.yml")
        let (result, cache) = load()  // another site configuration
        #expect(result.catalog?.config.title.values["de"] == "Tiere")
        #expect(cache.hits == 0)
    }
}
