import BestiaryContent
import BestiaryTestSupport
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

    /// The rules look only at the groups an edited animal was or is in: on a catalogue of four
    /// groups and three levels, with edits that move animals between groups and levels (and out
    /// of every group, or to no difficulty), they
    /// name exactly the animals an exhaustive comparison of every animal's similar animals
    /// before and after names (plus the edited ones).
    @Test func theGroupsOfTheEditedAnimalsAreAllThatIsLookedAt() throws {
        var generator = SplitMix64(seed: 7)
        let groups = ["bird", "fish", "insect", "mammal"]
        let before = (0..<240).map { i in
            Self.animal(
                String(format: "a%03d", (i * 37) % 240), group: i % 17 == 0 ? nil : groups[Int(generator.next() % 4)],
                difficulty: i % 13 == 0 ? nil : Int(generator.next() % 3) + 1)
        }
        for round in 0..<40 {
            var after = before
            var changed = Set<String>()
            for _ in 0...(round % 3) {
                let k = Int(generator.next() % UInt64(after.count))
                changed.insert(after[k].id)
                switch generator.next() % 5 {
                case 0: after[k].group = groups[Int(generator.next() % 4)]
                case 1: after[k].difficulty = Int(generator.next() % 3) + 1
                // Out of every group (its page shows no similar animals), or to no difficulty (taken as 1).
                case 2: after[k].group = nil
                case 3: after[k].difficulty = nil
                default: after[k].name = LocalizedText(["en": "renamed"])
                }
            }
            let affected = try #require(AffectedOutputs.of(before: before, after: after, changed: changed, config: Self.config))
            let levelsBefore = SharedContext.groupLevels(before), levelsAfter = SharedContext.groupLevels(after)
            func similar(_ animals: [Animal], _ levels: [String: SharedContext.GroupLevels], _ i: Int) -> [String] {
                guard let group = animals[i].group.flatMap({ levels[$0] }) else { return [] }
                return SharedContext.similar(to: animals[i], in: group, keep: SharedContext.similarCount).map { animals[$0].id }
            }
            var expected = changed
            for i in before.indices {
                let was = similar(before, levelsBefore, i), now = similar(after, levelsAfter, i)
                if was != now || was.contains(where: changed.contains) || now.contains(where: changed.contains) { expected.insert(before[i].id) }
            }
            #expect(affected.animals == expected, "round \(round)")
            #expect(affected.animals.count < before.count, "round \(round): \(affected.animals.count)")
        }
    }
}
