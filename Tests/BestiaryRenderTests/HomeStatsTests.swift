import BestiaryContent
import BestiaryTestSupport
import Foundation
import Testing

@testable import BestiaryRender

/// The home page's counts, made in one pass for every language (``HomeStats``), are what counting
/// each language's over every animal gives.
struct HomeStatsTests {
    @Test func theCountsAreEachLanguagesCountsOverEveryAnimal() {
        var generator = SplitMix64(seed: 7)
        // More animals than one run of the pass, so that the runs' counts are added up.
        let animals = (0..<1300).map { AffectedOutputsTests.animal("a\($0)", group: "bird", difficulty: 1) }
        for round in 0..<20 {
            // (A language named twice, which site.yml refuses, is counted once.)
            let languages = round % 2 == 0 ? ["de", "en", "fr"] : round % 3 == 0 ? ["fr", "en", "fr"] : ["fr", "en"]
            // The default language among the languages, or (a site.yml the loader would refuse)
            // not: its pictures still decide which animals a round can ask.
            let defaultLanguage = round % 4 == 1 ? "it" : languages[round % languages.count]
            var sounds = Set<String>()
            var pictures = Set<String>()
            for animal in animals {
                if generator.next() % 3 == 0 { sounds.insert(animal.id) }
                for lang in languages + ["it"] where generator.next() % 4 == 0 { pictures.insert(animal.id + "/" + lang) }
            }
            let hasSound: @Sendable (Animal) -> Bool = { [sounds] in sounds.contains($0.id) }
            let hasImage: @Sendable (Animal, String) -> Bool = { [pictures] in pictures.contains($0.id + "/" + $1) }
            let stats = HomeStats(animals, languages: languages, defaultLanguage: defaultLanguage, hasSound: hasSound, hasImage: hasImage)
            #expect(stats.animals == animals.count)
            #expect(stats.withSound == animals.count(where: hasSound))
            for lang in languages { #expect(stats.withImage[lang] == animals.count { hasImage($0, lang) }, "\(lang)") }
            #expect(stats.askable == animals.count { hasSound($0) || hasImage($0, defaultLanguage) })
        }
        #expect(HomeStats([], languages: ["en"], defaultLanguage: "en", hasSound: { _ in true }, hasImage: { _, _ in true }) == HomeStats(withImage: ["en": 0]))
    }
}
