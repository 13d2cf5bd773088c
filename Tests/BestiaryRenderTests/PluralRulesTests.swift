import BestiaryTestSupport
import Foundation
import Testing

@testable import BestiaryRender

/// A count the page renders on the server takes the form its script later gives it: the plural
/// categories of ``PluralRules`` are those of the browser's `Intl.PluralRules`, as recorded from
/// Node's ICU in `Tests/Fixtures/plural-categories.json` (`node scripts/plural_fixture.mjs`;
/// `Tests/js/plural-fixture.test.mjs` checks the recording against Node).
struct PluralRulesTests {
    struct Recorded: Decodable {
        var counts: [Int]
        var categories: [String: [String]]
    }

    @Test func everyRecordedLanguageAndCountAgreesWithTheBrowsers() throws {
        let data = try Fixtures.data("plural-categories.json")
        let recorded = try JSONDecoder().decode(Recorded.self, from: data)
        #expect(recorded.categories.count >= 40)
        var differences: [String] = []
        for (lang, categories) in recorded.categories.sorted(by: { $0.key < $1.key }) {
            for (count, expected) in zip(recorded.counts, categories) where PluralRules.category(count, lang) != expected {
                differences.append("\(lang) \(count): \(PluralRules.category(count, lang)), the browser \(expected)")
            }
        }
        #expect(differences.isEmpty, "\(differences.prefix(20))")
    }

    @Test func frenchCountsNoneAsOneAndEnglishAsMany() {
        #expect(PluralRules.category(0, "fr") == "one")
        #expect(PluralRules.category(0, "en") == "other")
        #expect(PluralRules.category(0, "pt-PT") == "other")
        #expect(PluralRules.category(22, "ru") == "few")
        // A language without rules of its own here counts as English does.
        #expect(PluralRules.category(1, "eo") == "one")
        #expect(PluralRules.category(2, "eo") == "other")
    }
}
