import BestiaryDiagnostics
import BestiarySite
import BestiaryTestSupport
import Foundation
import Testing

@testable import BestiaryPreview

/// What the preview's rebuilder leaves in the output after a series of edits, additions,
/// deletions and theme changes is byte for byte what a fresh full build of the same inputs makes.
@Suite struct RebuildEquivalenceTests {
    @Test func rebuildsAfterEditsEqualAFreshBuild() throws {
        let dir = TemporaryDirectory("bestiary-equivalence")
        let root = dir.appending("site")
        try Fixtures.copy("sites/tuxpaint", to: root)
        let environment = ["SOURCE_DATE_EPOCH": "1767225600"]
        let rebuilder = FullRebuilder(options: BuildOptions(root: root, output: dir.appending("preview"), environment: environment))
        _ = try rebuilder.rebuild(changes: [.everything])

        func step(_ path: String, _ change: () throws -> Void) throws {
            try change()
            _ = try rebuilder.rebuild(changes: [ChangedPath(classifying: path)])
        }
        let bear = root + "/content/animals/bear.md"
        try step("content/animals/bear.md") {
            let text = try String(contentsOfFile: bear, encoding: .utf8)
            try text.replacingOccurrences(of: "name: {en: Bear, de: Bär}", with: "name: {en: Brown bear, de: Braunbär}")
                .write(toFile: bear, atomically: true, encoding: .utf8)
        }
        try step("content/animals/okapi.md") {
            try dir.write("---\nname: {en: Okapi, de: Okapi}\ngroup: mammal\n---\n\nA forest giraffe.\n", to: "site/content/animals/okapi.md")
        }
        try step("content/animals/zebra.md") { try FileManager.default.removeItem(atPath: root + "/content/animals/zebra.md") }
        try step("templates/assets/css/site.css") { try dir.write("body { color: teal; }\n", to: "site/templates/assets/css/site.css") }
        try step("templates/partials/footer.html") {
            try dir.write("<footer class=\"custom\">{{site_title}}</footer>\n", to: "site/templates/partials/footer.html")
        }
        let unchanged = try rebuilder.rebuild(changes: [])  // nothing changed: no stage runs
        #expect(unchanged.upToDate && unchanged.changedOutputs == [])

        var options = BuildOptions(root: root, output: dir.appending("fresh"), environment: environment)
        options.recordsPackVersions = false
        try SiteBuilder(options: options).build()
        let preview = try Tree(dir.appending("preview")), fresh = try Tree(dir.appending("fresh"))
        #expect(preview.files.keys.contains("animals/okapi/index.html"))
        #expect(!preview.files.keys.contains("animals/zebra/index.html"))
        #expect(String(decoding: preview.files["animals/bear/index.html"] ?? Data(), as: UTF8.self).contains("Brown bear"))
        #expect(String(decoding: preview.files["index.html"] ?? Data(), as: UTF8.self).contains("<footer class=\"custom\">"))
        #expect(preview.differences(from: fresh) == [])
    }
}
