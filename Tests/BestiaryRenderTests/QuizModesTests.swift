import BestiaryContent
import Testing

@testable import BestiaryRender

/// The home page offers the quiz modes the catalogue can play, as the web app decides it.
struct QuizModesTests {
    func animal(_ id: String, _ names: [String: String]) -> Animal {
        Animal(id: id, name: LocalizedText(names), sourcePath: "content/animals/\(id).md")
    }

    /// questions.js's countDistinctNames: greedy in id order, a name taken in any language (with
    /// the site's fallbacks, case and spaces aside) takes the animal out.
    @Test func differentNamesAreCountedAsTheQuizCountsThem() {
        let animals = [
            animal("cow", ["de": "Kuh", "en": "Cow"]),
            animal("highland-cow", ["de": "Hochlandrind", "en": " COW "]),  // the same English name
            animal("horse", ["de": "Pferd", "en": "Horse"]),
            animal("pony", ["de": "Pony"]),  // English falls back to German: "pony"
            animal("pony2", ["en": "PONY"]),  // German falls back to English: clashes with pony
            animal("zebra", ["de": "Zebra", "en": "Zebra"]),
        ]
        let languages = ["de", "en"]
        #expect(Catalog.distinctNames(animals, languages: languages) == 4)
        #expect(Catalog.distinctNames(animals, languages: languages, atLeast: 2) == 2)
        #expect(Catalog.distinctNames([], languages: languages) == 0)
        #expect(Catalog.distinctNames([animal("a", [:]), animal("b", [:])], languages: languages) == 2, "by id when unnamed")
    }

    @Test func aModeNeedsWhatItAsksByAndEnoughNames() {
        let noSound = QuizModes(hasSound: false, hasImage: true, enoughNames: true)
        #expect(QuizModes.all.filter(noSound.playable) == ["image", "daily", "learn"])
        let noPicture = QuizModes(hasSound: true, hasImage: false, enoughNames: true)
        #expect(QuizModes.all.filter(noPicture.playable) == ["sound", "daily", "learn"])
        #expect(QuizModes.all.filter(QuizModes(hasSound: false, hasImage: false, enoughNames: true).playable) == [])
        #expect(QuizModes.all.filter(QuizModes(hasSound: true, hasImage: true, enoughNames: false).playable) == [])
        #expect(QuizModes.all.filter(QuizModes(hasSound: true, hasImage: true, enoughNames: true).playable) == QuizModes.all)
    }
}
