@testable import BestiaryRender
import Testing

/// A group the theme has no label for is shown as written, its first letter capitalised, beside
/// the theme's ("pet" stood in lower case beside "Birds" and "Mammals"; a teacher's site).
@Suite struct GroupLabelTests {
    @Test func aGroupWithoutALabelIsCapitalised() {
        let strings = ["quiz.group.bird": "Birds"]
        #expect(SharedContext.groupLabel("bird", strings: strings) == "Birds")
        #expect(SharedContext.groupLabel("pet", strings: strings) == "Pet")
        #expect(SharedContext.groupLabel("farm animal", strings: nil) == "Farm animal")
        #expect(SharedContext.groupLabel("ähnliche", strings: nil) == "Ähnliche")
        #expect(SharedContext.groupLabel("Already", strings: nil) == "Already")
        #expect(SharedContext.groupLabel("", strings: nil) == "")
    }
}
