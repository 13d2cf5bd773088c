import BestiaryContent
import BestiaryTestSupport
import Foundation
import Testing

@testable import BestiaryRender

/// The collection's order by name: as a language sorts names (case and accents aside), ties by
/// id; made in two halves and merged, which must give what one sort of the whole gives.
struct NameOrderTests {
    func animal(_ id: String, _ names: [String: String]) -> Animal {
        Animal(id: id, name: LocalizedText(names), sourcePath: "content/animals/\(id).md")
    }

    @Test func namesSortAsTheLanguageSortsThemTiesById() {
        let animals = [
            animal("d", ["en": "Owl"]), animal("a", ["en": "émeu"]), animal("c", ["en": "owl"]),
            animal("b", ["en": "Emu"]), animal("e", ["en": "aardvark"]),
        ]
        let order = SharedContext.NameOrder(animals, "en", fallback: []).sorted().map { animals[$0].id }
        // "émeu" and "Emu" differ by their letters (e-m-e-u against e-m-u); "Owl" and "owl" are
        // the same name, so their ids decide.
        #expect(order == ["e", "a", "b", "c", "d"])
    }

    /// Halves sorted apart and merged equal the whole sorted at once, for every split point and
    /// on names with accents, capitals, equal names and a missing name (the id stands in).
    @Test func mergedHalvesEqualOneSort() {
        var generator = SplitMix64(seed: 7)
        let letters = ["a", "B", "é", "E", "o", "Ö", "z", " ", "-"]
        let animals = (0..<60).map { i -> Animal in
            let length = 1 + Int(generator.next() % 4)
            let name = (0..<length).map { _ in letters[Int(generator.next() % UInt64(letters.count))] }.joined()
            return animal(String(format: "id%02d", 59 - i), i % 13 == 0 ? ["de": name] : ["en": name, "de": name])
        }
        for lang in ["en", "de"] {
            let order = SharedContext.NameOrder(animals, lang, fallback: [])
            let whole = order.sorted()
            for split in [0, 1, 17, 30, 59, 60] {
                let first = order.sorted(0..<split)
                let second = order.sorted(split..<animals.count)
                #expect(order.merged(first, second) == whole, "\(lang), split at \(split)")
            }
        }
    }
}
