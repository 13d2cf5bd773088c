import BestiaryContent
import BestiaryStorage
import Foundation
import Testing

/// "Did you mean" for a media path that names no file: only a sound or picture that is there,
/// inside content/, and only one clearly meant.
@Suite struct ContentPathSuggestionTests {
    let site: TestSite
    var content: String { site.root + "/content" }

    init() throws {
        site = try TestSite([
            "content/sounds/Fox.ogg": "x", "content/sounds/wolf.ogg": "x", "content/sounds/wolf.mp3": "x",
            "content/sounds/red-deer.wav": "x", "content/sounds/Mo\u{0308}we.wav": "x",
            "content/images/owl.webp": "x", "content/images/._owl.png": "x", "content/images/Deep/Nest/egg.png": "x",
            "content/images/bat.png": "x", "content/images/cat.png": "x", "content/images/lion.webp": "x",
            "content/images/fox.psd": "x", "content/images/nest-12.png": "x", "outside/far.png": "x",
            "content/mixed/horse.ogg": "x", "content/mixed/horse.webp": "x",
        ])
        try FileManager.default.createSymbolicLink(atPath: content + "/images/far.png", withDestinationPath: site.root + "/outside/far.png")
    }

    func suggest(_ path: String, budget: SuggestionBudget? = nil) -> String? {
        ContentPath.suggestion(for: path, contentDirectory: content, fileSystem: LocalFileSystem(), budget: budget)
    }

    @Test func theFileMeantIsFoundByCaseExtensionOrSeparators() {
        #expect(suggest("sounds/fox.ogg") == "sounds/Fox.ogg")
        #expect(suggest("SOUNDS/fox.ogg") == "sounds/Fox.ogg")
        #expect(suggest("images/owl.jpg") == "images/owl.webp")
        #expect(suggest("image/owl.webp") == "images/owl.webp")
        #expect(suggest("images/deep/nest/egg.png") == "images/Deep/Nest/egg.png")
        #expect(suggest("./sounds/fox.ogg") == "sounds/Fox.ogg")
        #expect(suggest("sounds/red_deer.wav") == "sounds/red-deer.wav")
        #expect(suggest("sounds/Red Deer.mp3") == "sounds/red-deer.wav")
        // Two neighbouring letters swapped, the commonest typo (a museum's volunteer): the same letters.
        #expect(suggest("images/cta.png") == "images/cat.png")
        #expect(suggest("images/olw.jpg") == "images/owl.webp")
        // A sound's name for a sound, a picture's for a picture, where both have the stem.
        #expect(suggest("mixed/horse.mp3") == "mixed/horse.ogg")
        #expect(suggest("mixed/horse.png") == "mixed/horse.webp")
        // Another kind's extension, where only the other kind has the stem (a sound's field).
        #expect(suggest("sounds/wolf.jpg") == nil, "two sounds have the stem")
        #expect(suggest("sounds/red-deer.jpg") == "sounds/red-deer.wav")
    }

    @Test func noSuggestionWhereNothingOrMoreThanOneIsMeant() {
        // wolf.ogg and wolf.mp3 both have the name: neither is clearly meant.
        #expect(suggest("sounds/wolf.wav") == nil)
        // Another animal's file a letter away is never offered (a loon is not a lion).
        #expect(suggest("images/loon.webp") == nil)
        #expect(suggest("images/rat.png") == nil)
        #expect(suggest("images/tab.png") == nil, "the same letters, but not two neighbours swapped")
        #expect(suggest("images/nest-21.png") == nil, "digits swapped name another picture")
        #expect(suggest("images/elephant.png") == nil)
        #expect(suggest("nowhere/fox.ogg") == nil)
        // Not a sound or picture by its name, a hidden file, a folder, a link out of content/.
        #expect(suggest("images/fox.png") == nil)
        #expect(suggest("images/._OWL.png") == nil)
        #expect(suggest("images/deep") == nil)
        #expect(suggest("images/FAR.png") == nil)
        // A path that is there needs none; one that leaves content/ gets none.
        #expect(suggest("images/owl.webp") == nil)
        #expect(suggest("../sounds/fox.ogg") == nil)
    }

    @Test func aNameInAnotherUnicodeFormIsFoundAndSaidSo() throws {
        // The file is named as a Mac writes it (o and a combining diaeresis), the record with ö.
        let written = "sounds/M\u{00F6}we.wav"
        let suggested = try #require(suggest(written))
        #expect(Array(suggested.utf8) == Array("sounds/Mo\u{0308}we.wav".utf8))
        #expect(ContentPath.didYouMean(suggested, for: written).contains("other Unicode code points"))
    }

    @Test func theMessageSaysWhyCaseCounts() {
        #expect(ContentPath.didYouMean("sounds/Fox.ogg", for: "./sounds/fox.ogg") == "did you mean 'sounds/Fox.ogg'? (letters' case counts: the build machine and web servers tell the two names apart)")
        #expect(ContentPath.didYouMean("images/owl.webp", for: "images/owl.jpg", location: "content/images/owl.webp") == "did you mean 'images/owl.webp' (content/images/owl.webp)?")
    }

    /// A file in another folder, with another extension too (`sounds/horse.ogg` for
    /// `media/horse.mp3`: no suggestion was made; a museum's volunteer).
    @Test func inAContentFolderTheOneFileOfTheNameAnywhereIsOffered() throws {
        let site = try TestSite([
            "content/media/horse.mp3": "x", "content/media/horse.webp": "x", "content/pics/Nest/Goose.PNG": "x",
            "content/sounds/cow.ogg": "x", "content/extra/cow.wav": "x", "content/wikipedia/en/owl.ogg": "x",
            "content/.hidden/owl.png": "x", "content/animals/horse.md": "x",
        ])
        let content = site.root + "/content"
        func anywhere(_ path: String, budget: SuggestionBudget? = nil) -> String? {
            ContentPath.suggestion(for: path, contentDirectory: content, fileSystem: LocalFileSystem(), budget: budget, anywhere: true)
        }
        // The sound for a sound's path, the picture for a picture's: never the other.
        #expect(anywhere("sounds/horse.ogg") == "media/horse.mp3")
        #expect(anywhere("images/horse.jpg") == "media/horse.webp")
        #expect(anywhere("goose.png") == "pics/Nest/Goose.PNG")
        #expect(anywhere("images/goose.svg") == "pics/Nest/Goose.PNG")
        // The walk along the path still comes first; two of the name anywhere are no suggestion.
        #expect(anywhere("sound/cow.ogg") == "sounds/cow.ogg")
        #expect(anywhere("audio/cow.mp3") == nil)
        // Not in the Wikipedia cache or a hidden folder, not without a media extension, nor when
        // not asked for (a folder the user is in is never walked).
        #expect(anywhere("sounds/owl.ogg") == nil)
        #expect(anywhere("images/owl.png") == nil)
        #expect(anywhere("sounds/horse") == nil)
        #expect(ContentPath.suggestion(for: "sounds/horse.ogg", contentDirectory: content, fileSystem: LocalFileSystem()) == nil)
        // One listing of the folder for the whole run, taken from the budget.
        let budget = SuggestionBudget(5)
        #expect(anywhere("sounds/horse.ogg", budget: budget) == "media/horse.mp3")
        try site.directory.write("x", to: "content/extra/pig.ogg")
        #expect(anywhere("sounds/pig.ogg", budget: budget) == nil, "the folder was listed before the file was made")
        #expect(anywhere("sounds/pig.ogg") == "extra/pig.ogg")
        // A file listed then but gone since is not offered.
        try FileManager.default.removeItem(atPath: content + "/media/horse.webp")
        #expect(anywhere("images/horse.jpg", budget: budget) == nil)
    }

    @Test func aRunMakesOnlyAsManySuggestionsAsItsBudget() {
        let budget = SuggestionBudget(1)
        #expect(suggest("sounds/fox.ogg", budget: budget) == "sounds/Fox.ogg")
        #expect(suggest("sounds/fox.ogg", budget: budget) == nil)
    }
}
