import BestiaryTestSupport
import Testing

@testable import BestiaryStorage

/// Folder listings are sorted by `memcmp` of the names' bytes: the same order as comparing
/// their UTF-8 lexicographically, for every pair.
@Suite struct ByteOrderTests {
    @Test func agreesWithTheUTF8Order() {
        let names = [
            "", "a", "A", "ab", "abc", "abd", "b", "Z", "z", "a b", "a-b", "a.b", "a/b", "é", "e\u{301}", "ä", "Ä", "ß", "ss", "日本",
            "日", "🦉", "🦉🦉", "a\u{0}", "index.html", "index.htm", "0001394102d5ec66.png", "0002acc650837dd9.png", "~", "\u{7f}",
            "\u{80}", "\u{ffff}", String(repeating: "x", count: 300), String(repeating: "x", count: 299) + "y",
        ]
        for a in names {
            for b in names {
                #expect(LocalFileSystem.precedesInByteOrder(a, b) == a.utf8.lexicographicallyPrecedes(b.utf8), "\(a) < \(b)")
            }
        }
    }

    @Test func aListingIsInThatOrder() throws {
        let folder = TemporaryDirectory()
        for name in ["b", "a", "é", "e\u{301}", "Z", "ab", "a.b"] { try folder.write("x", to: name) }
        let names = try LocalFileSystem().entries(in: folder.path).map(\.name)
        #expect(names == names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(names.count == 7)
    }
}
