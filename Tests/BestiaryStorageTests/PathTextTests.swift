import BestiaryStorage
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
}
