import BestiaryStorage
import Testing

@Suite struct LengthFilterTests {
    /// A key of a length no key has is ruled out; one of a length some key has is not, whether it
    /// is that key or not. Lengths are counted in UTF-8 bytes, not characters.
    @Test func rulesOutOnlyLengthsNoKeyHas() {
        let filter = LengthFilter(["en/index.html", "media/0123456789abcdef.mp3", "é"])
        #expect(filter.mayContain("en/index.html"))
        #expect(filter.mayContain("de/index.html"))  // as long as a key: looked up
        #expect(filter.mayContain("media/0123456789abcdef.mp3"))
        #expect(filter.mayContain("ab"))  // "é" is two bytes
        #expect(!filter.mayContain("e"))
        #expect(!filter.mayContain("en/index.htm"))
        #expect(!filter.mayContain("media/0123456789abcdef.jpeg"))
        #expect(!filter.mayContain(""))
    }

    @Test func withoutKeysRulesOutEverything() {
        let filter = LengthFilter([String]())
        #expect(!filter.mayContain(""))
        #expect(!filter.mayContain("a"))
        #expect(LengthFilter([""]).mayContain(""))
    }
}
