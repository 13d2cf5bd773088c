import Testing

@testable import BestiarySite

/// A lead picture's output extension, found by bytes, is what splitting the path at its dots
/// gives (the last part, lower case, else the picture's format), for every shape of path.
struct EnrichmentTests {
    @Test func extensionsAreFoundAsSplittingFindsThem() {
        let paths = [
            "wikipedia/images/ab12.jpg", "wikipedia/images/AB12.JPG", "wikipedia/images/x.tar.PNG", "a.", "a..", ".", "...", "", "noext",
            "dir.v2/file", ".hidden", "x.WebP", "x.j\u{301}pg", "bilder/Bär.PNG", "x.\u{301}png", "é.Ä",
        ]
        for path in paths {
            let expected = path.split(separator: ".").last.map { $0.lowercased() } ?? "jpeg"
            #expect(Enrichment.extensionOf(path, orElse: "jpeg") == expected, "\(path)")
        }
    }
}
