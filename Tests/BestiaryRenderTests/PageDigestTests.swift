import BestiaryContent
import BestiaryDiagnostics
import BestiaryStorage
import Testing

@testable import BestiaryRender

/// A rebuild in a new process reuses a page when its digest is unchanged: every input of a page
/// must reach the digest, and a kept order of the lists must be one before it is used.
struct PageDigestTests {
    func digest(_ key: PageKey) -> String {
        StableDigest.combine(["site"] + key.digestParts(everyAnimalDigest: "all"))
    }

    /// `digestParts` lists the fields by hand: this fails when a field is added to `PageKey`.
    @Test func everyFieldOfAPageKeyGoesIntoItsDigest() {
        let labels = Mirror(reflecting: PageKey(templates: "t")).children.compactMap(\.label)
        #expect(labels == ["templates", "animals", "everyAnimal", "page", "catalogPath"], "a field added to PageKey goes into digestParts too")

        let base = PageKey(templates: "t", animals: ["a", "b"], everyAnimal: false, catalogPath: "c.json")
        var variants = [base]
        var k = base; k.templates = "u"; variants.append(k)
        k = base; k.animals = ["a"]; variants.append(k)
        k = base; k.animals = ["ab"]; variants.append(k)
        k = base; k.animals = ["b", "a"]; variants.append(k)
        k = base; k.everyAnimal = true; variants.append(k)
        k = base; k.catalogPath = "d.json"; variants.append(k)
        // Parts that would run together without their lengths and count.
        k = base; k.templates = "tc.json"; k.catalogPath = ""; variants.append(k)
        #expect(Set(variants.map(digest)).count == variants.count)
        #expect(digest(base) == digest(PageKey(templates: "t", animals: ["a", "b"], catalogPath: "c.json")))
    }

    static func key() -> AnimalKey {
        let at = SourceLocation(path: "content/animals/owl.md", line: 3, column: 1)
        let sound = MediaReference(
            kind: .sound, source: .file("sounds/owl.ogg"), format: .ogg, credit: "c", license: "l", sourceURL: "s", focus: nil,
            alt: LocalizedText(["en": "hoot"]), location: at)
        let animal = Animal(
            id: "owl", name: LocalizedText(["en": "Owl", "de": "Eule"]), scientific: "Strix", group: "bird", difficulty: 2, tags: ["night"],
            wikipedia: ["en": "Owl"], description: LocalizedText(["en": "A bird."]), hint: LocalizedText(["en": "Hoots."]), sound: sound,
            bodies: ["en": MarkdownBody(markdown: "Text.", location: at)], sourcePath: "content/animals/owl.md", fieldLocations: ["name": at],
            habitat: LocalizedText(["en": "Woods"]), conservation: "LC", leadImageFocus: "50% 50%")
        let image = WikiImageView(variants: [MediaOutput(path: "media/a.jpg", bytes: 10, width: 320, height: 200)], credit: "who", license: "CC0")
        let summary = SummaryView(text: "Owls.", language: "en", title: "Owl", articleURL: "https://en.wikipedia.org/wiki/Owl", image: image)
        return AnimalKey(animal: animal, summaries: ["en": summary], media: [MediaOutput(path: "media/b.ogg", bytes: 5), nil])
    }

    /// An animal's digest is fed by hand, field by field: this fails when a field is added to one
    /// of the types it is made from, and shows that each field reaches it.
    @Test func everyFieldOfAnAnimalGoesIntoItsDigest() throws {
        func labels(_ value: Any) -> [String] { Mirror(reflecting: value).children.compactMap(\.label) }
        let base = Self.key()
        let sound = try #require(base.animal.sound)
        let summary = try #require(base.summaries?["en"])
        #expect(labels(base) == ["animal", "summaries", "media"])
        #expect(labels(base.animal) == [
            "id", "name", "scientific", "group", "difficulty", "tags", "wikipedia", "description", "hint", "habitat", "conservation",
            "sound", "image", "leadImageFocus", "leadImageAlt", "bodies", "sourcePath", "fieldLocations",
        ])
        #expect(labels(sound) == ["kind", "source", "format", "credit", "license", "sourceURL", "focus", "alt", "location"])
        #expect(labels(sound.location) == ["path", "line", "column"])
        #expect(labels(MarkdownBody(markdown: "", location: sound.location)) == ["markdown", "location"])
        #expect(labels(summary) == ["text", "language", "title", "articleURL", "license", "licenseURL", "image"])
        #expect(labels(try #require(summary.image)) == ["variants", "credit", "license", "licenseURL", "sourceURL", "articleLanguage", "articleURL"])
        #expect(labels(MediaOutput(path: "", bytes: 0)) == ["path", "bytes", "width", "height"])

        var variants = [base]
        func vary(_ change: (inout AnimalKey) -> Void) {
            var k = base
            change(&k)
            variants.append(k)
        }
        vary { $0.animal.id = "owl2" }
        vary { $0.animal.name = LocalizedText(["en": "Owl"]) }
        vary { $0.animal.scientific = nil }
        vary { $0.animal.group = "birds" }
        vary { $0.animal.difficulty = 3 }
        vary { $0.animal.tags = ["night", "x"] }
        vary { $0.animal.wikipedia = [:] }
        vary { $0.animal.description = LocalizedText([:]) }
        vary { $0.animal.hint = LocalizedText(["de": "Hoots."]) }
        vary { $0.animal.habitat = LocalizedText(["en": "Wood"]) }
        vary { $0.animal.conservation = "EN" }
        vary { $0.animal.sound?.source = .url("https://example.org/owl.ogg") }
        vary { $0.animal.sound?.format = .mp3 }
        vary { $0.animal.sound?.credit = "d" }
        vary { $0.animal.sound?.license = nil }
        vary { $0.animal.sound?.sourceURL = "t" }
        vary { $0.animal.sound?.focus = "1% 1%" }
        vary { $0.animal.sound?.alt = LocalizedText([:]) }
        vary { $0.animal.sound?.location.line = 4 }
        vary { $0.animal.image = $0.animal.sound }
        vary { $0.animal.leadImageFocus = nil }
        vary { $0.animal.leadImageAlt = LocalizedText(["en": "An owl on a branch"]) }
        vary { $0.animal.bodies["en"]?.markdown = "Text!" }
        vary { $0.animal.sourcePath = "content/animals/owl2.md" }
        vary { $0.animal.fieldLocations = [:] }
        vary { $0.summaries = nil }
        vary { $0.summaries?["en"]?.text = "Owls!" }
        vary { $0.summaries?["en"]?.language = "de" }
        vary { $0.summaries?["en"]?.title = "Owls" }
        vary { $0.summaries?["en"]?.articleURL = "https://de.wikipedia.org/wiki/Eule" }
        vary { $0.summaries?["en"]?.license = "x" }
        vary { $0.summaries?["en"]?.licenseURL = "y" }
        vary { $0.summaries?["en"]?.image = nil }
        vary { $0.summaries?["en"]?.image?.credit = "whom" }
        vary { $0.summaries?["en"]?.image?.license = nil }
        vary { $0.summaries?["en"]?.image?.licenseURL = "z" }
        vary { $0.summaries?["en"]?.image?.sourceURL = "w" }
        vary { $0.summaries?["en"]?.image?.articleLanguage = "de" }
        vary { $0.summaries?["en"]?.image?.articleURL = "https://de.wikipedia.org/wiki/Eule" }
        vary { $0.summaries?["en"]?.image?.variants[0].width = 640 }
        vary { $0.media = [nil, MediaOutput(path: "media/b.ogg", bytes: 5)] }
        vary { $0.media[0]?.bytes = 6 }
        vary { $0.media[0]?.height = 1 }
        #expect(Set(variants.map(\.digest)).count == variants.count, "each field changes the digest")
        #expect(Self.key().digest == base.digest, "the same in every run")
    }

    @Test func aKeptOrderByNameIsUsedOnlyWhenItIsAPermutation() {
        #expect(SharedContext.isPermutation([2, 0, 1], of: 3))
        #expect(SharedContext.isPermutation([], of: 0))
        #expect(!SharedContext.isPermutation([0, 0, 1], of: 3))
        #expect(!SharedContext.isPermutation([0, 1, 3], of: 3))
        #expect(!SharedContext.isPermutation([-1, 0, 1], of: 3))
        #expect(!SharedContext.isPermutation([0, 1], of: 3))
    }
}
