import BestiaryDiagnostics
import Testing

@testable import BestiaryContent

/// The optional fields added for imports: `habitat`, `conservation`, and `image: {focus}` alone.
@Suite struct AnimalImportFieldsTests {
    let config = SiteConfig(title: LocalizedText(["en": "T"]), baseURL: "https://example.org/", languages: ["en", "de"])

    func parse(_ yaml: String) -> (Animal?, [Diagnostic]) {
        Animal.parse(SourceText(path: "content/animals/robin.md", text: "---\n\(yaml)\n---\n"), fileID: "robin", config: config)
    }

    @Test func habitatIsLocalizedTextAndConservationIsText() throws {
        let (animal, diagnostics) = parse("""
            name: {en: American robin}
            habitat: {en: "Woodlands, gardens and parks", de: Wälder und Gärten}
            conservation: Least Concern
            """)
        #expect(diagnostics.isEmpty)
        let robin = try #require(animal)
        #expect(robin.habitat.values == ["en": "Woodlands, gardens and parks", "de": "Wälder und Gärten"])
        #expect(robin.conservation == "Least Concern")
    }

    @Test func habitatLanguagesMustBeTheSites() {
        let (_, diagnostics) = parse("name: {en: Robin}\nhabitat: {fr: Forêts}")
        #expect(diagnostics.map(\.message) == ["habitat: language 'fr' is not in site.yml's languages (en, de)"])
        #expect(diagnostics.first?.location == SourceLocation(path: "content/animals/robin.md", line: 3, column: 11))
    }

    @Test func anImageWithOnlyAFocusCropsTheWikipediaPicture() throws {
        let (animal, diagnostics) = parse("name: {en: Fox}\nwikipedia: {en: Red fox}\nimage: {focus: \"50% 0%\"}")
        #expect(diagnostics.isEmpty)
        #expect(animal?.image == nil)
        #expect(animal?.leadImageFocus == "50% 0%")
    }

    /// `image: {focus, alt}` without a file or url: the Wikipedia picture cropped and described.
    @Test func anImageWithOnlyAFocusAndAnAltDescribesTheWikipediaPicture() throws {
        let (animal, diagnostics) = parse(
            "name: {en: Fox}\nwikipedia: {en: Red fox}\nimage: {focus: \"50% 0%\", alt: {en: A fox in snow, de: Ein Fuchs im Schnee}}")
        #expect(diagnostics.isEmpty)
        #expect(animal?.image == nil)
        #expect(animal?.leadImageFocus == "50% 0%")
        #expect(animal?.leadImageAlt == LocalizedText(["en": "A fox in snow", "de": "Ein Fuchs im Schnee"]))

        let (altOnly, altDiagnostics) = parse("name: {en: Fox}\nwikipedia: {en: Red fox}\nimage:\n  alt: A fox in snow")
        #expect(altDiagnostics.isEmpty)
        #expect(altOnly?.leadImageFocus == nil)
        #expect(altOnly?.leadImageAlt == LocalizedText(["en": "A fox in snow"]))

        // Without an article there is no Wikipedia picture: said, not silently ignored.
        let (unused, unusedDiagnostics) = parse("name: {en: Fox}\nimage: {alt: A fox in snow}")
        #expect(unused?.leadImageAlt == LocalizedText(["en": "A fox in snow"]))
        #expect(unusedDiagnostics.map(\.description) == [
            "content/animals/robin.md:3:8: warning: image: focus and alt are for the Wikipedia picture, but the record names no Wikipedia article, "
                + "so they are not used; add wikipedia: {en: TITLE}, or give a picture of the record's own with image.file or image.url [load]",
        ])
        // A `wikipedia:` that is wrong gets its own error, not this warning as well.
        let (_, wrong) = parse("name: {en: Fox}\nwikipedia: Red fox\nimage: {alt: A fox in snow}")
        #expect(!wrong.isEmpty && !wrong.contains { $0.message.hasPrefix("image: focus and alt") }, "\(wrong)")

        // Its credit comes from Commons: any other key still asks for a picture of the record's own.
        let (_, credit) = parse("name: {en: Fox}\nimage: {alt: A fox, credit: Me}")
        #expect(credit.map(\.message) == [
            "image needs 'file: images/…' (under content/) or 'url: https://…' (or only 'focus: …' and 'alt: …' to crop and describe the Wikipedia picture)"
        ])
        let (_, language) = parse("name: {en: Fox}\nwikipedia: {en: Red fox}\nimage: {alt: {fr: Un renard}}")
        #expect(language.map(\.message) == ["image.alt: language 'fr' is not in site.yml's languages (en, de)"])
    }

    @Test func aFocusThatIsNoCSSPositionIsAnError() {
        let (_, diagnostics) = parse("name: {en: Fox}\nwikipedia: {en: Red fox}\nimage:\n  focus: diagonal")
        #expect(diagnostics.map(\.message) == [
            "image.focus 'diagonal' must be a CSS position like \"50% 20%\", \"center top\" or \"10px 40%\""
        ])
    }

    @Test func anImageWithoutFileOrURLButMoreThanAFocusAndAltStillNeedsOne() {
        let (_, diagnostics) = parse("name: {en: Fox}\nimage: {focus: top, credit: Jane}")
        #expect(diagnostics.map(\.message) == [
            "image needs 'file: images/…' (under content/) or 'url: https://…' (or only 'focus: …' and 'alt: …' to crop and describe the Wikipedia picture)"
        ])
    }
}
