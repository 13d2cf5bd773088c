import BestiaryTestSupport
import BestiaryWikipedia
import Foundation
import Testing

/// Decoding against every real response in Tests/Fixtures/wikipedia (see SOURCES.md there).
struct SummaryDecodingTests {
    struct Expected: Sendable, CustomTestStringConvertible {
        var file: String
        var type: String
        var canonical: String
        var revision: String
        var language: String
        var direction: String
        var thumbnailWidth: Int?
        var originalWidth: Int?
        var pageURL: String
        var testDescription: String { file }
    }

    static let articles: [Expected] = [
        Expected(file: "de__Haushund.json", type: "standard", canonical: "Haushund", revision: "266236844", language: "de",
                 direction: "ltr", thumbnailWidth: 330, originalWidth: 864, pageURL: "https://de.wikipedia.org/wiki/Haushund"),
        Expected(file: "de__Schakal.json", type: "standard", canonical: "Schakal", revision: "261738246", language: "de",
                 direction: "ltr", thumbnailWidth: 330, originalWidth: 2666, pageURL: "https://de.wikipedia.org/wiki/Schakal"),
        Expected(file: "en__Canis.json", type: "standard", canonical: "Canis", revision: "1354340617", language: "en",
                 direction: "ltr", thumbnailWidth: 330, originalWidth: 1000, pageURL: "https://en.wikipedia.org/wiki/Canis"),
        // 2020 format: tabs, 320 px thumbnail, en.m. mobile URLs, an api_urls block.
        Expected(file: "en__Dog.json", type: "standard", canonical: "Dog", revision: "951433760", language: "en",
                 direction: "ltr", thumbnailWidth: 320, originalWidth: 1665, pageURL: "https://en.wikipedia.org/wiki/Dog"),
        Expected(file: "en__Test.json", type: "disambiguation", canonical: "Test", revision: "1114329112", language: "en",
                 direction: "ltr", thumbnailWidth: nil, originalWidth: nil, pageURL: "https://en.wikipedia.org/wiki/Test"),
        Expected(file: "en__Third_Council_of_the_Lateran.json", type: "standard", canonical: "Third_Council_of_the_Lateran",
                 revision: "1365435933", language: "en", direction: "ltr", thumbnailWidth: nil, originalWidth: nil,
                 pageURL: "https://en.wikipedia.org/wiki/Third_Council_of_the_Lateran"),
        Expected(file: "he__Kelev_haBayit.json", type: "standard", canonical: "כלב_הבית", revision: "43137597", language: "he",
                 direction: "rtl", thumbnailWidth: 330, originalWidth: 1665,
                 pageURL: "https://he.wikipedia.org/wiki/%D7%9B%D7%9C%D7%91_%D7%94%D7%91%D7%99%D7%AA"),
        Expected(file: "vi__Cho_rung_long_vang.json", type: "standard", canonical: "Chó_rừng_lông_vàng", revision: "74453304",
                 language: "vi", direction: "ltr", thumbnailWidth: 330, originalWidth: 2089,
                 pageURL: "https://vi.wikipedia.org/wiki/Ch%C3%B3_r%E1%BB%ABng_l%C3%B4ng_v%C3%A0ng"),
    ]

    @Test(arguments: articles)
    func decodesRecordedArticle(_ expected: Expected) throws {
        let summary = try WikipediaSummary.decode(try Fixtures.data("wikipedia/" + expected.file))
        #expect(summary.type == expected.type)
        #expect(summary.isStandard == (expected.type == "standard"))
        #expect(summary.canonicalTitle == expected.canonical)
        #expect(summary.normalizedTitle == expected.canonical.replacingOccurrences(of: "_", with: " "))
        #expect(summary.revision == expected.revision)
        #expect(summary.language == expected.language)
        #expect(summary.direction == expected.direction)
        #expect(summary.thumbnail?.width == expected.thumbnailWidth)
        #expect(summary.originalImage?.width == expected.originalWidth)
        #expect(summary.pageURL == expected.pageURL)
        #expect(!summary.extract.isEmpty)
        #expect(summary.extractHTML.hasPrefix("<p>"))
    }

    @Test func keepsBothExtractForms() throws {
        let summary = try WikipediaSummary.decode(try Fixtures.data("wikipedia/en__Canis.json"))
        #expect(summary.extract.hasPrefix("Canis is a genus of the Caninae"))
        #expect(summary.extractHTML.hasPrefix("<p><i><b>Canis</b></i> is a genus"))
        #expect(summary.displayTitle == "<i>Canis</i>")
        #expect(summary.wikibaseItem == "Q149892")
        #expect(summary.description == "Genus of canines")
    }

    @Test func rightToLeftArticleKeepsItsScript() throws {
        let summary = try WikipediaSummary.decode(try Fixtures.data("wikipedia/he__Kelev_haBayit.json"))
        #expect(summary.normalizedTitle == "כלב הבית")
        #expect(summary.extract.hasPrefix("כלב הוא שמו"))
        #expect(summary.description == "כלב הבית, בעל חיים מבוית ממשפחת הכלביים")
    }

    /// Both 404 bodies (legacy problem JSON and the 2026 one) are not summaries: a caller that
    /// wrongly parsed an error body would get an error, never a page.
    @Test(arguments: ["en__Sadsd.json", "fr__Article_Inexistant_Test_Amanogawa_Xyz123.json"])
    func errorBodiesAreNotSummaries(_ file: String) throws {
        #expect(throws: SummaryDecodingError.self) {
            try WikipediaSummary.decode(try Fixtures.data("wikipedia/" + file))
        }
    }

    @Test func numericRevisionBecomesAString() throws {
        let json = #"{"type":"standard","titles":{"canonical":"A_b","normalized":"A b"},"revision":12345,"lang":"en","extract":"x","extract_html":"<p>x</p>"}"#
        let summary = try WikipediaSummary.decode(Data(json.utf8))
        #expect(summary.revision == "12345")
        #expect(summary.canonicalTitle == "A_b")
        #expect(summary.direction == "ltr")
    }

    @Test func titleWithoutTitlesObjectFallsBackToDeprecatedTitle() throws {
        let json = #"{"type":"standard","title":"Red fox","revision":"1","lang":"en","extract":"x","extract_html":"<p>x</p>"}"#
        let summary = try WikipediaSummary.decode(Data(json.utf8))
        #expect(summary.canonicalTitle == "Red_fox")
        #expect(summary.normalizedTitle == "Red fox")
    }

    @Test(arguments: [
        ("{\"type\":\"standard\",", "not valid JSON"),
        ("[1,2]", "not an object"),
        (#"{"type":"standard","titles":{"canonical":"A"},"revision":"1","lang":"en","extract_html":"<p>x</p>"}"#, "'extract'"),
        (#"{"type":"standard","titles":{"canonical":"A"},"lang":"en","extract":"x","extract_html":""}"#, "'revision'"),
    ])
    func malformedBodiesSayWhatIsWrong(_ body: String, _ reason: String) {
        do {
            _ = try WikipediaSummary.decode(Data(body.utf8))
            Issue.record("decoded a malformed body")
        } catch let error as SummaryDecodingError {
            #expect(error.reason.contains(reason), "\(error.reason)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
