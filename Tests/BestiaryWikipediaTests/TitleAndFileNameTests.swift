import Testing

@testable import BestiaryWikipedia

struct WikipediaTitleTests {
    @Test(arguments: [
        ("Red fox", "Red_fox"),
        ("  red   fox ", "Red_fox"),
        ("Red_fox", "Red_fox"),
        ("rotfuchs", "Rotfuchs"),
        ("ß-Test", "ß-Test"),
        ("כלב הבית", "כלב_הבית"),
        ("Chó rừng lông vàng", "Chó_rừng_lông_vàng"),
    ])
    func normalizes(_ input: String, _ expected: String) {
        #expect(WikipediaTitle.normalize(input) == expected)
    }

    /// The byte-wise path for ASCII titles says what the general one says, for any ASCII title:
    /// separators at the ends, in runs, mixed; a first letter lower or upper case; CR LF.
    @Test func asciiTitlesNormalizeAsAnyTitleDoes() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("aZ_ \t\r\n1(-é".unicodeScalars).filter { $0.isASCII }
        for _ in 0..<2_000 {
            let title = String(String.UnicodeScalarView((0..<Int.random(in: 0...8, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            }))
            #expect(WikipediaTitle.normalizeASCII(title) == WikipediaTitle.normalizeAny(title), "\(title.debugDescription)")
        }
        #expect(WikipediaTitle.normalizeASCII("Schwarzspecht é") == nil)
    }

    @Test func encodesSlashAsPercent2F() {
        #expect(WikipediaTitle.pathSegment("AC/DC") == "AC%2FDC")
        #expect(WikipediaTitle.pathSegment("Fuchs: Art/Unterart") == "Fuchs:_Art%2FUnterart")
        #expect(WikipediaTitle.pathSegment("Canis (genus)") == "Canis_(genus)")
        #expect(WikipediaTitle.pathSegment("100% Wolf?") == "100%25_Wolf%3F")
    }

    @Test func encodesNonLatinTitlesAsUTF8() {
        #expect(WikipediaTitle.pathSegment("כלב הבית") == "%D7%9B%D7%9C%D7%91_%D7%94%D7%91%D7%99%D7%AA")
        #expect(WikipediaTitle.pathSegment("Harzer Fuchs Hündin") == "Harzer_Fuchs_H%C3%BCndin")
    }

    @Test func buildsSummaryURLFromTemplate() {
        #expect(WikipediaTitle.summaryURL(template: "https://{lang}.wikipedia.org/api/rest_v1", language: "de", title: "Rotfuchs")
            == "https://de.wikipedia.org/api/rest_v1/page/summary/Rotfuchs")
        #expect(WikipediaTitle.summaryURL(template: "http://127.0.0.1:9/{lang}/api/rest_v1/", language: "en", title: "Red fox")
            == "http://127.0.0.1:9/en/api/rest_v1/page/summary/Red_fox")
    }
}

struct CacheFileNameTests {
    static func isSafe(_ name: String) -> Bool {
        name.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 45 } && name.utf8.count <= 80
    }

    @Test(arguments: [
        "Haushund", "AC/DC", "Fuchs:_Art/Unterart", "כלב_הבית", "Chó_rừng_lông_vàng", "..", "CON", "Ελληνικά",
        String(repeating: "Sehr_langer_Titel_", count: 14), "a\\b*c?d\"e<f>g|h",
    ])
    func namesAreSafeForAnyTitle(_ title: String) {
        let stem = CacheFileName.stem(language: "de", canonicalTitle: title)
        #expect(Self.isSafe(stem), "\(stem)")
        #expect(!stem.isEmpty)
    }

    @Test func readableSlugs() {
        #expect(CacheFileName.stem(language: "vi", canonicalTitle: "Chó_rừng_lông_vàng").hasPrefix("cho-rung-long-vang-"))
        #expect(CacheFileName.stem(language: "de", canonicalTitle: "Harzer_Fuchs_Hündin").hasPrefix("harzer-fuchs-hundin-"))
        // Hebrew has no Latin letters: the name is the hash alone.
        #expect(CacheFileName.stem(language: "he", canonicalTitle: "כלב_הבית").count == 16)
    }

    /// `Dog` and `DOG` are different articles; on a case-insensitive file system their files
    /// must not collide, so names differ in more than case.
    @Test func titlesDifferingInCaseGetDifferentNames() {
        let a = CacheFileName.stem(language: "en", canonicalTitle: "Dog")
        let b = CacheFileName.stem(language: "en", canonicalTitle: "DOG")
        #expect(a.lowercased() != b.lowercased())
        #expect(CacheFileName.stem(language: "en", canonicalTitle: "Dog") != CacheFileName.stem(language: "de", canonicalTitle: "Dog"))
    }

    @Test func languageFoldersAreLowerCase() {
        #expect(CacheFileName.languageFolder("pt-BR") == "pt-br")
    }
}
