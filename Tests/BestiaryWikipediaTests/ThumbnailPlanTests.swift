import BestiaryTestSupport
import BestiaryWikipedia
import Foundation
import Testing

struct ThumbnailPlanTests {
    func summary(_ file: String) throws -> WikipediaSummary {
        try WikipediaSummary.decode(try Fixtures.data("wikipedia/" + file))
    }

    @Test func largeOriginalGivesPageAndLargeThumbnail() throws {
        let s = try summary("de__Schakal.json")
        let items = ThumbnailPlan.items(thumbnail: s.thumbnail, original: s.originalImage)
        #expect(items.map(\.width) == [330, 960])
        #expect(items[0].url == s.thumbnail!.url)
        #expect(items[1].url == "https://upload.wikimedia.org/wikipedia/commons/thumb/b/bc/Canis_mesomelas_%28Cape_Cross%29.jpg/960px-Canis_mesomelas_%28Cape_Cross%29.jpg")
        #expect(items[1].height == 720)  // 2000 · 960 / 2666, rounded
    }

    /// Never a width at or above the original's (the server refuses to upscale): the original is used.
    @Test func smallOriginalIsUsedInsteadOfUpscaling() throws {
        let s = try summary("de__Haushund.json")
        let items = ThumbnailPlan.items(thumbnail: s.thumbnail, original: s.originalImage)
        #expect(items.map(\.width) == [330, 864])
        #expect(items[1].url == "https://upload.wikimedia.org/wikipedia/commons/4/42/Harzer_Fuchs_H%C3%BCndin_2.jpg")
    }

    /// The 2020 response says 320 px, no longer a standard width (it would get HTTP 429).
    @Test func oldThumbnailWidthIsReplacedByStandardSteps() throws {
        let s = try summary("en__Dog.json")
        let items = ThumbnailPlan.items(thumbnail: s.thumbnail, original: s.originalImage)
        #expect(items.map(\.width) == [330, 960])
        #expect(items.allSatisfy { !$0.url.contains("/320px-") })
        #expect(items[0].url.hasSuffix("/330px-Collage_of_Nine_Dogs.jpg"))
        for item in items where item.url.contains("/thumb/") {
            #expect(ThumbnailPlan.standardWidths.contains(item.width))
        }
    }

    @Test func articleWithoutImagePlansNothing() throws {
        let s = try summary("en__Third_Council_of_the_Lateran.json")
        #expect(ThumbnailPlan.items(thumbnail: s.thumbnail, original: s.originalImage).isEmpty)
    }

    @Test func scalesLanguagePrefixedSVGThumbnails() {
        let url = "https://upload.wikimedia.org/wikipedia/commons/thumb/a/ab/Map.svg/langja-330px-Map.svg.png"
        #expect(ThumbnailPlan.scaledURL(url, to: 960) == "https://upload.wikimedia.org/wikipedia/commons/thumb/a/ab/Map.svg/langja-960px-Map.svg.png")
        #expect(ThumbnailPlan.scaledURL("https://example.org/plain.jpg", to: 960) == nil)
    }

    @Test func fileTitleFromUploadURLs() {
        #expect(ThumbnailPlan.fileTitle(fromUploadURL: "https://upload.wikimedia.org/wikipedia/commons/4/42/Harzer_Fuchs_H%C3%BCndin_2.jpg")
            == "File:Harzer_Fuchs_Hündin_2.jpg")
        #expect(ThumbnailPlan.fileTitle(fromUploadURL: "https://upload.wikimedia.org/wikipedia/commons/thumb/2/27/Canis.png/330px-Canis.png?utm_source=x")
            == "File:Canis.png")
        #expect(ThumbnailPlan.isCommonsUpload("https://upload.wikimedia.org/wikipedia/commons/2/27/Canis.png"))
        #expect(!ThumbnailPlan.isCommonsUpload("https://upload.wikimedia.org/wikipedia/de/2/27/Lokal.png"))
    }
}

struct CommonsImageInfoTests {
    /// A real answer without extmetadata (formatversion 1, pages keyed by id).
    @Test func recordedAnswerWithoutExtmetadata() throws {
        let result = try CommonsImageInfo.decode(try Fixtures.data("wikipedia/commons__Harzer_Fuchs_Huendin_2.imageinfo.json"))
        guard case .found(let a) = result else {
            Issue.record("expected found, got \(result)")
            return
        }
        #expect(a.artist == nil)
        #expect(a.license == nil)
        #expect(a.attributionRequired)
        #expect(a.descriptionURL == "https://commons.wikimedia.org/wiki/File:Harzer_Fuchs_H%C3%BCndin_2.jpg")
    }

    @Test func extmetadataBecomesPlainText() throws {
        let result = try CommonsImageInfo.decode(try Fixtures.data("wikipedia/generated__commons_extmetadata.json"))
        guard case .found(let a) = result else {
            Issue.record("expected found, got \(result)")
            return
        }
        #expect(a.artist == "Jörg Müller & Co")
        #expect(a.credit == "Own work")
        #expect(a.license == License(name: "CC BY-SA 3.0", url: "https://creativecommons.org/licenses/by-sa/3.0"))
        #expect(a.attributionRequired)
        #expect(a.descriptionURL == "https://commons.wikimedia.org/wiki/File:Example_fox.jpg")
    }

    @Test func missingFileAndErrors() throws {
        let missing = #"{"query":{"pages":[{"ns":6,"title":"File:Nope.jpg","missing":true}]}}"#
        #expect(try CommonsImageInfo.decode(Data(missing.utf8)) == .missing)
        #expect(throws: SummaryDecodingError.self) {
            try CommonsImageInfo.decode(Data(#"{"error":{"code":"badvalue","info":"Unrecognized value"}}"#.utf8))
        }
        #expect(throws: SummaryDecodingError.self) { try CommonsImageInfo.decode(Data("<html>".utf8)) }
    }

    @Test func queryURLAsksForLicenceFields() {
        let url = CommonsImageInfo.queryURL(api: "https://commons.wikimedia.org/w/api.php", file: "File:Harzer_Fuchs_Hündin_2.jpg")
        #expect(url.hasPrefix("https://commons.wikimedia.org/w/api.php?action=query&format=json&formatversion=2&prop=imageinfo"))
        #expect(url.contains("iiprop=url%7Cextmetadata"))
        #expect(url.hasSuffix("&titles=File%3AHarzer_Fuchs_H%C3%BCndin_2.jpg"))
    }

    @Test func htmlTextStripsTagsAndEntities() {
        #expect(HTMLText.plain("<a href=\"//x\">A &amp; B</a>&#160;<i>C</i>&#x41;") == "A & B C A")
        #expect(HTMLText.plain("5 &lt; 6 & 7") == "5 < 6 & 7")
        // A script's or style's contents are not text (they showed in a credit line: found by a reviewer).
        #expect(HTMLText.plain("<a>Jane &amp; <b>Doe</b></a><script>alert(1)</script><STYLE>b{}</STYLE> <script src=x>") == "Jane & Doe")
    }

    /// A credit with a control character, raw or as a reference, loses it: a page cannot show it.
    @Test func htmlTextDropsControlCharacters() {
        #expect(HTMLText.plain("Jane\u{7} Doe&#27;s <b>work</b>&#x9F;") == "Jane Does work")
        #expect(HTMLText.plain("tab\tand\u{85}next line") == "tab and next line")
    }
}

struct ImageBytesTests {
    @Test func completePicturesPass() {
        #expect(ImageBytes.problem(TestImages.png(tag: "a")) == nil)
        #expect(ImageBytes.format(TestImages.png(tag: "a")) == .png)
        #expect(ImageBytes.problem(TestImages.jpeg(tag: "b")) == nil)
    }

    @Test func cutShortPicturesAreCaught() {
        let png = TestImages.png(tag: "a")
        #expect(ImageBytes.problem(png.prefix(png.count - 5))?.contains("cut short") == true)
        let jpeg = TestImages.jpeg(tag: "b")
        #expect(ImageBytes.problem(jpeg.prefix(jpeg.count - 2))?.contains("cut short") == true)
    }

    @Test func nonPicturesAreRefused() {
        #expect(ImageBytes.problem(Data("<html>error</html>".utf8)) == "the bytes are not a picture")
        #expect(ImageBytes.problem(Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8))?.contains("svg") == true)
    }
}

/// Small valid picture files, generated for tests.
enum TestImages {
    static func png(tag: String) -> Data {
        var d = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        d.append(contentsOf: [0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0] + [0, 0, 0, 0])
        let text = Array("Comment\u{0}generated test image \(tag)".utf8)
        d.append(contentsOf: [0, 0, 0, UInt8(text.count)] + Array("tEXt".utf8) + text + [0, 0, 0, 0])
        d.append(contentsOf: [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82])
        return d
    }

    static func jpeg(tag: String) -> Data {
        var d = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
        d.append(contentsOf: Array("generated test image \(tag)".utf8))
        d.append(contentsOf: [0xFF, 0xD9])
        return d
    }
}
