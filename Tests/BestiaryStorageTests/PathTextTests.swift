import BestiaryStorage
import Foundation
import Testing

@Suite struct PathTextTests {
    /// As `NSString`'s `deletingLastPathComponent`, without its trap on a one-character name.
    @Test(arguments: [
        ("z", ""), ("z/", ""), ("zz", ""), ("./z", "."), ("q/site", "q"), ("q//site/", "q"), ("/z", "/"), ("/", "/"),
        ("", ""), ("a/b/c", "a/b"), ("/a/b", "/a"),
    ])
    func theFolderOfAPath(_ path: String, _ folder: String) {
        #expect(PathText.parent(path) == folder)
    }

    /// A name in composed and in decomposed form: one string to `==`, two names to the file system.
    @Test func sameBytesTellsUnicodeFormsApart() {
        let composed = "assets/caf\u{E9}.css", decomposed = "assets/cafe\u{301}.css"
        #expect(composed == decomposed)
        #expect(!PathText.sameBytes(composed, decomposed))
        #expect(PathText.sameBytes(composed, "assets/" + "café.css".precomposedStringWithCanonicalMapping))
        #expect(PathText.sameBytes("", ""))
        #expect(!PathText.sameBytes("a", ""))
        #expect(!PathText.sameBytes("media/ab.ogg", "media/ac.ogg"))
    }
}
