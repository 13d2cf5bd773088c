import BestiaryPackFormat
@testable import BestiaryPacks
import BestiaryTestSupport
import Testing

/// The pack's files come out in one order by path (code points), whether the media links could be
/// merged as they came or had to be sorted with the rest (``PackProducer/sortedByPath(_:merging:)``).
@Suite struct PackFileOrderTests {
    private func file(_ path: String, _ tag: String = "") -> PackFile { PackFile(path: path, contents: .link(from: "/src/" + path + tag)) }

    private func sortedWhole(_ files: [PackFile], _ links: [PackFile]) -> [PackFile] {
        // What the producer did before: every file sorted at once (a stable sort).
        (files + links).sorted { CanonicalJSON.codePointOrder($0.path, $1.path) }
    }

    @Test func linksInOrderAreMergedWithTheOtherFiles() {
        let others = ["v/3.json", "latest.json", "d/2-3.json", "v/3.json.sig", "latest.json.sig", "d/1-3.json"].map { file($0) }
        let links = ["media/0a.ogg", "media/0a.png", "media/5f.jpeg", "media/ff.ogg"].map { file($0) }
        let merged = PackProducer.sortedByPath(others, merging: links)
        #expect(merged.map(\.path) == [
            "d/1-3.json", "d/2-3.json", "latest.json", "latest.json.sig", "media/0a.ogg", "media/0a.png", "media/5f.jpeg",
            "media/ff.ogg", "v/3.json", "v/3.json.sig",
        ])
        #expect(merged == sortedWhole(others, links))
    }

    @Test func linksOutOfOrderAreSortedWithTheRest() {
        let others = [file("v/1.json"), file("latest.json")]
        let links = [file("media/b.ogg"), file("media/a.ogg"), file("media/c.ogg")]
        #expect(PackProducer.sortedByPath(others, merging: links).map(\.path) == [
            "latest.json", "media/a.ogg", "media/b.ogg", "media/c.ogg", "v/1.json",
        ])
    }

    /// Seeded random lists, with repeated paths (kept in the order they came) and paths whose
    /// code-point order is not Swift's string order (`é` written as one code point or two).
    @Test(arguments: 0..<200) func anyListComesOutAsOneSortWouldMakeIt(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed))
        let names = ["a", "b", "e\u{301}", "\u{e9}", "f", "media", "z", "0", "A"]
        func path() -> String { (0..<Int(random.next() % 3 + 1)).map { _ in names[Int(random.next() % UInt64(names.count))] }.joined(separator: "/") }
        let others = (0..<Int(random.next() % 6)).map { i in file(path(), "#\(i)") }
        var links = (0..<Int(random.next() % 12)).map { i in file("media/" + path(), "#\(i)") }
        if random.next() % 2 == 0 { links.sort { CanonicalJSON.codePointOrder($0.path, $1.path) } }
        #expect(PackProducer.sortedByPath(others, merging: links) == sortedWhole(others, links))
    }
}
