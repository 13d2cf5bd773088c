import BestiaryContent
@testable import BestiaryRender
import BestiaryTheme
import Foundation
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

    /// The groups the spelling check prefers as the theme names them are the default theme's.
    @Test func theContentsThemeGroupsAreTheDefaultThemesLabels() throws {
        for language in ["en", "de"] {
            let data = try #require(DefaultTheme.files["i18n/\(language).json"])
            let table = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let groups = Set(table.keys.filter { $0.hasPrefix("quiz.group.") }.map { String($0.dropFirst("quiz.group.".count)) })
            #expect(groups == ContentLoader.themeGroups, "\(language)")
        }
    }
}
