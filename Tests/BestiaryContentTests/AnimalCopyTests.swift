import BestiaryContent
import BestiaryDiagnostics
import BestiaryStorage
import Foundation
import Testing

/// An animal's fields are in a box its copies share (``Animal``): a change made through one
/// copy, by assignment or in place, never shows through another, and the animal is encoded and
/// listed as were the fields its own.
@Suite struct AnimalCopyTests {
    static func owl() -> Animal {
        Animal(
            id: "owl", name: LocalizedText(["en": "Owl"]), group: "birds", difficulty: 2, tags: ["night"],
            bodies: ["en": MarkdownBody(markdown: "Hoots.", location: SourceLocation(path: "content/animals/owl.md", line: 5, column: 1))],
            sourcePath: "content/animals/owl.md")
    }

    @Test func aChangeThroughOneCopyLeavesTheOthers() {
        let original = Self.owl()
        var copy = original
        #expect(copy == original)
        copy.name = LocalizedText(["en": "Barn owl"])
        copy.difficulty = nil
        copy.tags.append("farm")
        copy.bodies["de"] = MarkdownBody(markdown: "Ruft.", location: SourceLocation(path: "content/animals/owl.de.md", line: 1, column: 1))
        copy.name.values["de"] = "Schleiereule"
        #expect(original == Self.owl())
        #expect(original.name.values == ["en": "Owl"])
        #expect(original.difficulty == 2)
        #expect(original.tags == ["night"])
        #expect(original.bodies.keys.sorted() == ["en"])
        #expect(copy.name.values == ["en": "Barn owl", "de": "Schleiereule"])
        #expect(copy.tags == ["night", "farm"])
        #expect(copy != original)

        // In an array, as the catalogue holds them.
        var animals = [original, original]
        animals[1].group = "owls"
        #expect(animals[0].group == "birds")
        #expect(animals[1].group == "owls")
        #expect(original.group == "birds")
    }

    @Test func equalAnimalsInTwoBoxesAreEqualAndHashAlike() {
        let a = Self.owl(), b = Self.owl()
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
    }

    /// The tests that list an animal's fields (so that each reaches its digests) see those in
    /// the box: a stored property added to `Animal` itself would escape them.
    @Test func everyFieldIsInTheBox() {
        #expect(MemoryLayout<Animal>.size == MemoryLayout<SharedValue<Animal.Fields>>.size)
        #expect("\(Self.owl())".contains("Animal(id: \"owl\", name: "))
    }

    @Test func encodedAndListedAsWereTheFieldsItsOwn() throws {
        let labels = Mirror(reflecting: Self.owl()).children.compactMap(\.label)
        #expect(labels == [
            "id", "name", "scientific", "group", "difficulty", "tags", "wikipedia", "description", "hint", "habitat", "conservation",
            "sound", "image", "leadImageFocus", "leadImageAlt", "bodies", "sourcePath", "fieldLocations",
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let object = try #require(try JSONSerialization.jsonObject(with: encoder.encode(Self.owl())) as? [String: Any])
        // Optional fields left nil are left out, as synthesised encoding leaves them.
        #expect(object.keys.sorted() == ["bodies", "description", "difficulty", "fieldLocations", "group", "habitat", "hint", "id", "leadImageAlt", "name", "sourcePath", "tags", "wikipedia"])
        #expect(object["id"] as? String == "owl")
        #expect(object["difficulty"] as? Int == 2)
    }
}
