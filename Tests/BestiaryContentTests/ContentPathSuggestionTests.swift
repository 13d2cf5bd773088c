import BestiaryContent
import BestiaryStorage
import Foundation
import Testing

/// "Did you mean" for a media path that names no file: only a file that is there, and only one
/// clearly meant.
@Suite struct ContentPathSuggestionTests {
    let site: TestSite
    var content: String { site.root + "/content" }

    init() throws {
        site = try TestSite([
            "content/sounds/Fox.ogg": "x", "content/sounds/wolf.ogg": "x", "content/sounds/wolf.mp3": "x",
            "content/images/owl.webp": "x", "content/images/Deep/Nest/egg.png": "x", "content/images/bat.png": "x",
            "content/images/cat.png": "x",
        ])
    }

    func suggest(_ path: String) -> String? {
        ContentPath.suggestion(for: path, contentDirectory: content, fileSystem: LocalFileSystem())
    }

    @Test func theFileMeantIsFoundByCaseExtensionOrASmallSlip() {
        #expect(suggest("sounds/fox.ogg") == "sounds/Fox.ogg")
        #expect(suggest("SOUNDS/fox.ogg") == "sounds/Fox.ogg")
        #expect(suggest("images/owl.jpg") == "images/owl.webp")
        #expect(suggest("image/owl.webp") == "images/owl.webp")
        #expect(suggest("images/deep/nest/egg.png") == "images/Deep/Nest/egg.png")
        #expect(suggest("./sounds/fox.ogg") == "sounds/Fox.ogg")
    }

    @Test func noSuggestionWhereNothingOrMoreThanOneIsMeant() {
        // wolf.ogg and wolf.mp3 both have the name: neither is clearly meant.
        #expect(suggest("sounds/wolf.wav") == nil)
        // bat.png and cat.png are both one letter from rat.png.
        #expect(suggest("images/rat.png") == nil)
        #expect(suggest("images/elephant.png") == nil)
        #expect(suggest("nowhere/fox.ogg") == nil)
        // A folder is not a file, and a path that exists needs no suggestion.
        #expect(suggest("images/deep") == nil)
        #expect(suggest("images/owl.webp") == nil)
        #expect(suggest("../sounds/fox.ogg") == nil)
    }
}
