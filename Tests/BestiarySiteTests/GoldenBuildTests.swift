import BestiaryContent
import BestiaryTestSupport
import Foundation
import Testing

/// The minimal fixture site's whole output, compared byte for byte with Tests/Fixtures/golden/minimal.
/// The default theme's own JS, CSS and icons are left out (they have their own tests), so the
/// golden files change only when the pipeline's output does. After an intended change:
/// `BESTIARY_UPDATE_GOLDEN=1 swift test --filter GoldenBuildTests`.
@Suite struct GoldenBuildTests {
    static let golden = Fixtures.path("golden/minimal")

    static func isThemeAsset(_ path: String) -> Bool {
        ["assets/js/", "assets/css/", "assets/icons/"].contains { path.hasPrefix($0) }
    }

    @Test func minimalSiteMatchesTheGoldenOutput() throws {
        let work = TemporaryDirectory()
        try build(root: Fixtures.path("sites/minimal"), output: work.appending("out"))
        let built = try Tree(work.appending("out"))
        let actual = built.files.filter { !Self.isThemeAsset($0.key) }
        if ProcessInfo.processInfo.environment["BESTIARY_UPDATE_GOLDEN"] == "1" {
            try? FileManager.default.removeItem(atPath: Self.golden)
            for (path, data) in actual {
                let target = Self.golden + "/" + path
                try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try data.write(to: URL(fileURLWithPath: target))
            }
        }
        let expected = try Tree(Self.golden)
        #expect(!expected.files.isEmpty, "no golden output at \(Self.golden); run with BESTIARY_UPDATE_GOLDEN=1")
        let differences = Tree(files: actual).differences(from: expected)
        #expect(differences == [], "differs from the golden output: \(differences)")
        // The theme's assets are there too, with hashed names.
        #expect(built.paths.contains { $0.hasPrefix("assets/js/quiz-page.") && $0.hasSuffix(".js") })
    }

    /// A page file named like a top-level entry of the output would collide with it in render, with
    /// no location: each such name is reserved, so `check` says so at the page's file. (`credits`
    /// and `offline` were not.) The fixture's own page and its second language are not generated.
    @Test func everyGeneratedTopLevelNameIsReservedForPages() throws {
        let entries = try FileManager.default.contentsOfDirectory(atPath: Self.golden).filter { !["about", "en"].contains($0) && !$0.hasPrefix(".") }
        #expect(entries.count >= 14)
        for entry in entries {
            let stem = String(entry.split(separator: ".")[0])
            #expect(ContentPage.reservedSlugs.contains(stem), "a page named '\(stem)' would collide with output/\(entry)")
        }
    }
}
