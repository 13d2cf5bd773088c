import BestiarySite
import BestiaryStorage
import BestiaryTestSupport
import BestiaryPackFormat
import Foundation
import Testing

@testable import BestiaryPreview

/// The preview's packs are never published: it does not sign them, even with a signing key in
/// its environment. Signed, the output's version N could be deployed and taken by apps, and then
/// clash with the version N that `bestiary build` publishes (a different `created`), so every app
/// that took it would refuse the real one.
@Suite struct PreviewPacksTests {
    @Test func thePreviewDoesNotSignItsPacksButBuildDoes() throws {
        let dir = TemporaryDirectory("bestiary-preview-packs")
        let root = dir.appending("site")
        try Fixtures.copy("sites/tuxpaint", to: root)
        let environment = ["SOURCE_DATE_EPOCH": "1767225600", "BESTIARY_SIGNING_KEY": PackKeys.generate().privateKey]

        let preview = try SiteRebuilder(options: BuildOptions(root: root, output: dir.appending("out"), environment: environment))
            .rebuild(changes: [.everything])
        let packs = try Tree(dir.appending("out/packs")).paths
        #expect(packs.contains("latest.json"))
        #expect(!packs.contains { $0.hasSuffix(".sig") }, "signed: \(packs.filter { $0.hasSuffix(".sig") })")
        #expect(!preview.diagnostics.contains { $0.message.contains("not signed") }, "the preview is not told to sign")
        #expect(!FileManager.default.fileExists(atPath: root + "/content/packs.lock"))

        // The same environment signs a build's packs: the key was there to be used. (On the
        // build time's own day: a signed pointer expired by the clock fails the build.)
        var options = BuildOptions(
            root: root, output: dir.appending("out"), environment: environment, time: FixedTimeSource(Date(timeIntervalSince1970: 1_767_225_600)))
        options.recordsPackVersions = false
        let built = try SiteBuilder(options: options).build()
        #expect(!built.upToDate, "a build after the preview does not take its unsigned output as up to date")
        #expect(FileManager.default.fileExists(atPath: dir.appending("out/packs/latest.json.sig")))
    }
}
