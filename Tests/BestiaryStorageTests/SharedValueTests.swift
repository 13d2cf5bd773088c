import BestiaryStorage
import Testing

/// ``SharedValue``: copies share one box until one of them changes, and a change never shows
/// through another copy.
@Suite struct SharedValueTests {
    struct Record: Hashable {
        var name: String
        var tags: [String]
    }

    @Test func aChangeToOneCopyLeavesTheOthers() {
        let original = SharedValue(Record(name: "Owl", tags: ["night"]))
        var copy = original
        copy.value.name = "Barn owl"
        copy.value.tags.append("farm")
        #expect(original.value == Record(name: "Owl", tags: ["night"]))
        #expect(copy.value == Record(name: "Barn owl", tags: ["night", "farm"]))

        // The copy now has a box of its own: changing it again touches only it.
        var again = copy
        again.value.tags.removeAll()
        #expect(copy.value.tags == ["night", "farm"])
        #expect(again.value.tags.isEmpty)
    }

    @Test func equalAndHashedAsTheValueItHolds() {
        let a = SharedValue(Record(name: "Owl", tags: []))
        let b = SharedValue(Record(name: "Owl", tags: []))
        var c = a
        #expect(a == b)
        #expect(a == c)
        #expect(Set([a, b, c]).count == 1)
        c.value.name = "Wren"
        #expect(a != c)
        #expect(Set([a, b, c]).count == 2)
    }
}
