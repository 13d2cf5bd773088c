import BestiaryPackFormat
import BestiaryPacks
import BestiaryStorage
import BestiaryTestSupport
import BestiaryCrypto
import Foundation
import Testing

/// The example pack quoted in docs/packs.md, built from a tiny generated site in two versions,
/// compared byte for byte with Tests/Fixtures/packs/example/. A change to the format shows up
/// here first. `BESTIARY_UPDATE_GOLDEN=1 swift test --filter GoldenPackTests` rewrites the files
/// (then update docs/packs.md from them).
@Suite struct GoldenPackTests {
    /// The documented example key: derived from a public phrase, so never use it for anything.
    static var exampleKey: Curve25519.Signing.PrivateKey {
        try! Curve25519.Signing.PrivateKey(rawRepresentation: SHA256.hash(data: Data("bestiary example key: public, never use it".utf8)))
    }

    static func build() throws -> (site: TestSite, packs: String) {
        let site = try TestSite(packs: "{id: example, keep_deltas: 10, expires_days: 30}")
        try site.media("sounds/fox.ogg", Data("OggS\u{0}\u{2}\u{1}vorbis generated example sound".utf8))
        try site.animal("fox", """
            name: {en: Red fox, de: Rotfuchs}
            group: mammal
            sound: {file: sounds/fox.ogg, credit: Generated example, license: CC0-1.0}
            """)
        try site.animal("owl", "name: {en: Owl, de: Eule}\ngroup: bird")
        var builder = SiteBuilder(root: site.root, keys: [exampleKey])
        try builder.build(now: Date(timeIntervalSince1970: 1_767_225_600))  // 2026-01-01
        try site.animal("owl", "name: {en: Tawny owl, de: Waldkauz}\ngroup: bird")
        try site.media("sounds/wren.ogg", Data("OggS\u{0}\u{2}\u{1}vorbis generated example song".utf8))
        try site.animal("wren", """
            name: {en: Wren, de: Zaunkönig}
            group: bird
            description: {en: "Small, loud."}
            sound: {file: sounds/wren.ogg, credit: Generated example, license: CC0-1.0}
            """)
        try site.remove("content/animals/fox.md")
        builder.texts = [:]
        try builder.build(now: Date(timeIntervalSince1970: 1_769_904_000))  // 2026-02-01
        return (site, builder.packs)
    }

    @Test func theExamplePackIsByteForByteTheDocumentedOne() throws {
        let (site, packs) = try Self.build()
        let golden = Fixtures.path("packs/example")
        var produced = try LocalFileSystem().walkFiles(in: packs).map { ("packs/" + $0, try Data(contentsOf: URL(fileURLWithPath: packs + "/" + $0))) }
        produced.append(("packs.lock", try Data(contentsOf: URL(fileURLWithPath: site.directory.appending("content/packs.lock")))))
        if ProcessInfo.processInfo.environment["BESTIARY_UPDATE_GOLDEN"] == "1" {
            try? FileManager.default.removeItem(atPath: golden)
            for (path, data) in produced {
                try FileManager.default.createDirectory(atPath: (golden + "/" + path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try data.write(to: URL(fileURLWithPath: golden + "/" + path))
            }
        }
        let expected = try LocalFileSystem().walkFiles(in: golden)
        #expect(expected.sorted() == produced.map(\.0).sorted())
        let key = PackPublicKey(Self.exampleKey.publicKey)
        for (path, data) in produced {
            if path.hasSuffix(".sig") {
                // Signatures need not be reproducible (CryptoKit randomizes); they must verify.
                let signed = try #require(produced.first { $0.0 == String(path.dropLast(4)) }?.1)
                #expect(PackSignature.verify(signed, signatureFile: data, trustedKeys: [key]) == .valid(keyID: key.keyID), "\(path)")
                #if os(Linux)
                #expect(try Data(contentsOf: URL(fileURLWithPath: golden + "/" + path)) == data, "\(path)")
                #endif
            } else {
                #expect(try Data(contentsOf: URL(fileURLWithPath: golden + "/" + path)) == data, "\(path) differs from the golden file")
            }
        }
    }
}
