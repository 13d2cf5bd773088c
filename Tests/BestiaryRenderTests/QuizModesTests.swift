import BestiaryContent
import Testing

@testable import BestiaryRender

/// The home page offers the quiz modes the catalogue can play, as the web app decides it (the
/// names it tells apart are counted by `Catalog.distinctNames`, ContentLoaderTests).
struct QuizModesTests {
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
