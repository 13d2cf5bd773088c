import BestiaryContent
import Testing

@testable import BestiaryRender

/// "Similar animals" cards: same group, nearest difficulty, then the neighbours in id order.
struct SimilarAnimalsTests {
    func animal(_ id: String, group: String?, difficulty: Int?) -> Animal {
        Animal(id: id, name: LocalizedText(["en": id]), group: group, difficulty: difficulty, sourcePath: "content/animals/\(id).md")
    }

    func similar(_ id: String, in animals: [Animal]) -> [String] {
        let levels = SharedContext.groupLevels(animals)
        let a = animals.first { $0.id == id }!
        guard let group = a.group.flatMap({ levels[$0] }) else { return [] }
        return SharedContext.similar(to: a, in: group, keep: 6).map { animals[$0].id }
    }

    @Test func neighboursInIdOrderAfterAndBeforeWrappingAround() {
        let animals = (0..<10).map { animal("a\($0)", group: "bird", difficulty: 2) }
        #expect(similar("a5", in: animals) == ["a6", "a4", "a7", "a3", "a8", "a2"])
        #expect(similar("a9", in: animals) == ["a0", "a8", "a1", "a7", "a2", "a6"])
    }

    @Test func ownDifficultyFirstThenTheNearestLevelsEasierFirst() {
        let animals = [
            animal("a", group: "bird", difficulty: 2), animal("b", group: "bird", difficulty: 2),
            animal("c", group: "bird", difficulty: 1), animal("d", group: "bird", difficulty: 3),
            animal("e", group: "bird", difficulty: 3), animal("f", group: "bird", difficulty: 1),
            animal("g", group: "mammal", difficulty: 2), animal("h", group: nil, difficulty: 2),
        ]
        #expect(similar("a", in: animals) == ["b", "c", "f", "d", "e"])
        #expect(similar("g", in: animals) == [])
        #expect(similar("h", in: animals) == [])
    }

    /// The fan-out of an edit: in a big group of one difficulty, every animal is a card on six
    /// pages, not on all of them (which made one edit re-render thousands of pages).
    @Test func eachAnimalIsACardOnAHandfulOfPages() {
        let animals = (0..<500).map { animal(String(format: "x%03d", $0), group: "mammal", difficulty: 1 + $0 % 3) }
        let levels = SharedContext.groupLevels(animals)
        var shownOn: [Int: Int] = [:]
        for a in animals {
            let cards = SharedContext.similar(to: a, in: levels["mammal"]!, keep: 6)
            #expect(cards.count == 6)
            #expect(Set(cards).count == 6)
            #expect(!cards.contains { animals[$0].id == a.id })
            #expect(cards.allSatisfy { animals[$0].difficulty == a.difficulty })
            for c in cards { shownOn[c, default: 0] += 1 }
        }
        #expect(shownOn.values.max() == 6)
    }
}
