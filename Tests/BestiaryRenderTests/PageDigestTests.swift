import BestiaryStorage
import Testing

@testable import BestiaryRender

/// A rebuild in a new process reuses a page when its digest is unchanged: every input of a page
/// must reach the digest, and a kept order of the lists must be one before it is used.
struct PageDigestTests {
    func digest(_ key: PageKey<String>) -> String {
        StableDigest.combine(["site"] + key.digestParts(everyAnimalDigest: "all"))
    }

    /// `digestParts` lists the fields by hand: this fails when a field is added to `PageKey`.
    @Test func everyFieldOfAPageKeyGoesIntoItsDigest() {
        let labels = Mirror(reflecting: PageKey<String>(templates: "t")).children.compactMap(\.label)
        #expect(labels == ["templates", "animals", "everyAnimal", "page", "catalogPath"], "a field added to PageKey goes into digestParts too")

        let base = PageKey<String>(templates: "t", animals: ["a", "b"], everyAnimal: false, catalogPath: "c.json")
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
        #expect(digest(base) == digest(PageKey<String>(templates: "t", animals: ["a", "b"], catalogPath: "c.json")))
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
