import BestiaryContent
@testable import BestiaryRender
import Foundation
import Testing

/// The rules of a rebuild that follows the change (docs/change-driven-rebuild.md, step 2) on a
/// catalogue made here; `RandomEditTests` checks them against real rebuilds.
struct AffectedOutputsTests {
    static func animal(_ id: String, group: String?, difficulty: Int?) -> Animal {
        Animal(id: id, name: LocalizedText(["en": id]), group: group, difficulty: difficulty, sourcePath: "content/animals/\(id).md")
    }

    static let config = SiteConfig(title: LocalizedText(["en": "Birds"]), baseURL: "https://birds.example/", languages: ["en", "de"])

    /// Eight birds of one level and two mammals: a bird's edit reaches the birds that show it,
    /// never a mammal, and each of its pages in both languages.
    @Test func anEditReachesTheAnimalsThatShowIt() throws {
        let birds = (1...8).map { Self.animal("bird\($0)", group: "bird", difficulty: 1) }
        let mammals = ["bear", "fox"].map { Self.animal($0, group: "mammal", difficulty: 1) }
        let before = birds + mammals
        var after = before
        after[0].name = LocalizedText(["en": "Robin"])
        let affected = try #require(AffectedOutputs.of(before: before, after: after, changed: ["bird1"], config: Self.config))
        // Six neighbours by id, wrapping around: bird2…bird4 after and bird8…bird6 before show
        // bird1; bird5 is the one bird whose six similar animals do not include it.
        #expect(affected.animals == ["bird1", "bird2", "bird3", "bird4", "bird6", "bird7", "bird8"])
        #expect(affected.animalPages.contains("animals/bird1/index.html") && affected.animalPages.contains("de/animals/bird1/index.html"))
        #expect(affected.animalPages.count == 14)
        #expect(!affected.contains("animals/bear/index.html") && !affected.contains("animals/bird5/index.html"))
        for path in ["index.html", "de/collection/index.html", "assets/catalog.0123456789.json", "sw.js", "packs/v/3.json", "media/ab.ogg"] {
            #expect(affected.contains(path), "\(path)")
        }
        for path in ["sitemap.xml", "assets/css/site.css", "about/index.html", "404.html"] { #expect(!affected.contains(path), "\(path)") }
    }

    /// A difficulty changed moves the animal to another level: the animals of both levels whose
    /// similar animals are others now are reached, though they do not show it.
    @Test func anAnimalMovedBetweenLevelsReachesBothLevels() throws {
        let easy = (1...3).map { Self.animal("easy\($0)", group: "bird", difficulty: 1) }
        let hard = (1...9).map { Self.animal("hard\($0)", group: "bird", difficulty: 3) }
        let before = easy + hard
        var after = before
        after[3].difficulty = 1  // hard1 becomes easy
        let affected = try #require(AffectedOutputs.of(before: before, after: after, changed: ["hard1"], config: Self.config))
        // The easy birds showed three hard ones; now hard1 is one of them and takes another's place.
        #expect(affected.animals.isSuperset(of: ["easy1", "easy2", "easy3", "hard1"]))
        #expect(affected.animals.count < before.count, "\(affected.animals.sorted())")
    }

    /// A record added or removed changes what the sitemap and the lists hold: not taken.
    @Test func anotherSetOfAnimalsIsNotTaken() {
        let before = [Self.animal("a", group: "bird", difficulty: 1), Self.animal("b", group: "bird", difficulty: 1)]
        #expect(AffectedOutputs.of(before: before, after: Array(before.prefix(1)), changed: ["b"], config: Self.config) == nil)
        #expect(AffectedOutputs.of(before: before, after: before + [Self.animal("c", group: nil, difficulty: nil)], changed: ["c"], config: Self.config) == nil)
        let twice = [Self.animal("a", group: "bird", difficulty: 1), Self.animal("a", group: "bird", difficulty: 2)]
        #expect(AffectedOutputs.of(before: twice, after: twice, changed: ["a"], config: Self.config) == nil, "an id twice")
    }
}
