import BestiaryContent
import BestiaryDiagnostics
import BestiaryPackFormat
import BestiaryPacks
import BestiaryStorage
import BestiaryTestSupport
import BestiaryCrypto
import Foundation
import Testing

@Suite struct PackProducerTests {
    static func site() throws -> TestSite {
        let site = try TestSite()
        try site.standardAnimal("bear", name: "Generated bear", sound: 1, image: 2)
        try site.standardAnimal("owl", name: "Generated owl", sound: 3, extra: "tags: [night, forest]\ndifficulty: 2\ndescription: {en: A generated owl., de: Eine erzeugte Eule.}")
        try site.standardAnimal("yak", name: "Generated yak", image: 4)
        return site
    }

    static func files(_ dir: String) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for path in try LocalFileSystem().walkFiles(in: dir) { out[path] = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + path)) }
        return out
    }

    static func manifest(_ builder: SiteBuilder, _ version: Int) throws -> PackManifest {
        try PackManifest.decode(Data(contentsOf: URL(fileURLWithPath: builder.packs + "/v/\(version).json")), file: nil)
    }

    @Test func payloadCarriesWhatAnOfflineAppNeeds() throws {
        let site = try Self.site()
        try site.translation("owl", "de", "Ein **Text**.\n")
        try site.animal("owl", """
            name: {en: Generated owl, de: Erzeugte Eule}
            scientific: Strix generata
            group: bird
            difficulty: 2
            tags: [night, forest]
            wikipedia: {en: Owl}
            description: {en: A generated owl.}
            hint: {en: It hoots.}
            sound: {file: sounds/owl.ogg, credit: Generated test data, license: CC0-1.0, source: "https://example.org/s/owl"}
            image: {url: "https://example.org/owl.png", credit: Someone, license: CC BY 4.0, focus: "10% 10%"}
            """, body: "An *owl* body.\n")
        var builder = SiteBuilder(root: site.root)
        let extractImage = try MediaDigest.compute(path: site.directory.appending("content/images/bear.png"), format: .png, fileSystem: LocalFileSystem())
        builder.texts = ["owl": ["en": PackText(
            source: .wikipedia, text: "The owl is a generated bird.", title: "Owl", url: "https://en.wikipedia.org/wiki/Owl",
            license: "CC BY-SA 4.0", licenseURL: "https://creativecommons.org/licenses/by-sa/4.0/", revision: "12345",
            image: PackImage(media: extractImage, credit: "Generated", license: "CC0-1.0", sourceURL: "https://example.org/file"))]]
        try builder.build(now: january2026)
        let owl = try #require(try Self.manifest(builder, 1).records.first { $0.id == "owl" })
        let p = owl.payload
        #expect(p["name"] == ["en": "Generated owl", "de": "Erzeugte Eule"])
        #expect(p["scientific"] == "Strix generata" && p["group"] == "bird" && p["difficulty"] == 2)
        #expect(p["tags"] == ["night", "forest"])
        #expect(p["description"] == ["en": "A generated owl."] && p["hint"] == ["en": "It hoots."])
        #expect(p["body"] == ["en": "An *owl* body.\n", "de": "Ein **Text**.\n"])
        #expect(p["wikipedia"] == ["en": "Owl"])
        let sound = GeneratedMedia.ogg(3)
        #expect(p["sound"] == [
            "kind": "sound", "sha256": .string(PackDigest.sha256(sound)), "bytes": .integer(Int64(sound.count)), "ext": "ogg",
            "mime": "audio/ogg", "credit": "Generated test data", "license": "CC0-1.0", "source": "https://example.org/s/owl",
        ])
        #expect(p["image"]?["url"] == "https://example.org/owl.png" && p["image"]?["sha256"] == nil)
        #expect(p["image"]?["focus"] == "10% 10%")
        #expect(p["texts"]?["en"]?["license"] == "CC BY-SA 4.0")
        #expect(p["texts"]?["en"]?["url"] == "https://en.wikipedia.org/wiki/Owl")
        #expect(p["texts"]?["en"]?["credit"] == "Wikipedia contributors")
        #expect(p["texts"]?["en"]?["image"]?["sha256"] == .string(extractImage.sha256))
        #expect(Set(owl.media.map(\.sha256)) == [PackDigest.sha256(sound), extractImage.sha256], "the remote picture is not a pack file")
        let attributions = p["attributions"]?.arrayValue ?? []
        #expect(attributions.contains(["for": "text", "language": "en", "credit": "Wikipedia contributors", "license": "CC BY-SA 4.0", "source": "https://en.wikipedia.org/wiki/Owl"]))
        #expect(attributions.contains(["for": "image", "credit": "Someone", "license": "CC BY 4.0"]))
        #expect(FileManager.default.fileExists(atPath: builder.packs + "/media/\(extractImage.sha256).png"))
    }

    @Test func theSameInputsGiveTheSameBytes() throws {
        let a = try Self.site(), b = try Self.site()
        let key = Curve25519.Signing.PrivateKey()
        for site in [a, b] {
            try SiteBuilder(root: site.root, keys: [key]).build(now: day(3))
        }
        let fa = try Self.files(a.root + "/output/packs"), fb = try Self.files(b.root + "/output/packs")
        #expect(fa.keys.sorted() == fb.keys.sorted())
        for (path, data) in fa where !path.hasSuffix(".sig") { #expect(fb[path] == data, "\(path)") }
        #if os(Linux)
        for (path, data) in fa where path.hasSuffix(".sig") { #expect(fb[path] == data, "libcrypto signs deterministically: \(path)") }
        #endif
        #expect(try a.directory.read("content/packs.lock") == b.directory.read("content/packs.lock"))
        #expect(fa.keys.contains { $0.hasPrefix("media/") && $0.hasSuffix(".ogg") })
    }

    /// The record table says where each record is in the manifest; a build given the previous
    /// manifest takes from it the records whose inputs are unchanged, byte for byte, and makes
    /// the others.
    @Test func recordsWhoseInputsAreUnchangedAreTakenFromThePreviousManifest() throws {
        let site = try Self.site()
        var builder = SiteBuilder(root: site.root)
        let first = try builder.build(now: day(1))
        let table = try #require(first.recordTable)
        #expect(table.manifestPath == "v/1.json" && table.entries.count == 3)
        let manifest = try Data(contentsOf: URL(fileURLWithPath: builder.packs + "/v/1.json"))
        for record in try Self.manifest(builder, 1).records {
            let entry = try #require(table.entries[record.id])
            #expect(manifest[entry.offset..<(entry.offset + entry.length)] == record.encoded, "\(record.id)")
        }
        // Given the untouched manifest, the same bytes come out.
        builder.kept = KeptRecords(manifest: manifest, table: table)
        let same = try builder.build(now: day(1))
        #expect(!same.isNewVersion && same.recordTable == table)
        #expect(try Data(contentsOf: URL(fileURLWithPath: builder.packs + "/v/1.json")) == manifest)
        // Bytes edited in place no longer match their rev: not taken, the record is made anew.
        let edited = Data(String(decoding: manifest, as: UTF8.self).replacingOccurrences(of: "Generated bear", with: "Generated BEAR").utf8)
        builder.kept = KeptRecords(manifest: edited, table: table)
        #expect(!(try builder.build(now: day(1))).isNewVersion)
        #expect(try Data(contentsOf: URL(fileURLWithPath: builder.packs + "/v/1.json")) == manifest)
        // Bytes this process made in memory (the preview's last build) are not hashed again: the
        // same edit would be taken, which is why only the memo's own manifest is so marked.
        builder.kept = KeptRecords(manifest: edited, table: table, madeHere: true)
        _ = try builder.build(now: day(1))
        #expect(try String(contentsOfFile: builder.packs + "/v/1.json", encoding: .utf8).contains("Generated BEAR"))
        builder.kept = KeptRecords(manifest: manifest, table: table)
        #expect(!(try builder.build(now: day(1))).isNewVersion)
        #expect(try Data(contentsOf: URL(fileURLWithPath: builder.packs + "/v/1.json")) == manifest)
        // An entry that runs past the manifest is not used (and does not trap): the yak is made anew.
        var broken = table
        broken.entries["yak"]?.offset = Int.max
        builder.kept = KeptRecords(manifest: manifest, table: broken)
        #expect(!(try builder.build(now: day(1))).isNewVersion)
        #expect(try Data(contentsOf: URL(fileURLWithPath: builder.packs + "/v/1.json")) == manifest)
        // A well-formed record of the bear (its own rev) where the table says the bear is: taken as it is.
        let bear = try #require(try Self.manifest(builder, 1).records.first { $0.id == "bear" })
        guard case .object(var payload) = bear.payload else { throw DiagnosticError(.error("no payload")) }
        payload["name"] = ["en": "Kept bear", "de": "Behaltener Bär"]
        let kept = PackRecord.compact(id: "bear", media: bear.media, payload: .object(payload))
        var planted = table
        planted.entries["bear"]?.offset = manifest.count
        planted.entries["bear"]?.length = kept.encoded.count
        builder.kept = KeptRecords(manifest: manifest + kept.encoded, table: planted)
        try site.standardAnimal("owl", name: "Generated owl, renamed", sound: 3)
        let second = try builder.build(now: day(2))
        #expect(second.isNewVersion && Set(second.changes.map(\.id)) == ["bear", "owl"], "\(second.changes)")
        let text = try String(contentsOfFile: builder.packs + "/v/2.json", encoding: .utf8)
        #expect(text.contains("Kept bear") && text.contains("Generated owl, renamed") && !text.contains("Generated bear"))
        #expect(second.recordTable?.entries["bear"]?.digest == table.entries["bear"]?.digest)
        #expect(second.recordTable?.entries["owl"]?.digest != table.entries["owl"]?.digest)
    }

    @Test func publishedBytesMustCarryTheirOwnRev() throws {
        let record = PackRecord.compact(id: "owl", media: [], payload: ["name": ["en": "Owl"]])
        let bytes = record.encoded
        let again = try #require(PackRecord.published(id: "owl", media: [], bytes: bytes))
        #expect(again.rev == record.rev && again.encoded == bytes)
        #expect(PackRecord.published(id: "bear", media: [], bytes: bytes) == nil, "another id")
        let edited = Data(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "Owl", with: "Awl").utf8)
        #expect(PackRecord.published(id: "owl", media: [], bytes: edited) == nil, "a rev that is not the bytes'")
        #expect(PackRecord.published(id: "owl", media: [], bytes: bytes.dropLast()) == nil)
    }

    /// ``RecordPayload/inputDigest(for:texts:media:)`` names every field a record is made from:
    /// a field added to one of these types must be added there (or here, as not published).
    @Test func theRecordDigestCoversEveryField() throws {
        let site = try Self.site()
        let catalog = try #require(ContentLoader(root: site.root).load().catalog)
        let bear = try #require(catalog.animals.first { $0.id == "bear" })
        func labels(_ value: Any) -> [String] { Mirror(reflecting: value).children.compactMap(\.label) }
        #expect(labels(bear) == [
            "id", "name", "scientific", "group", "difficulty", "tags", "wikipedia", "description", "hint", "habitat", "conservation",
            "sound", "image", "leadImageFocus", "leadImageAlt", "bodies", "sourcePath", "fieldLocations",
        ])
        #expect(labels(try #require(bear.sound)) == ["kind", "source", "format", "credit", "license", "sourceURL", "focus", "alt", "location"])
        let digest = MediaDigest(sha256: String(repeating: "0", count: 64), bytes: 1, format: .png, sourcePath: "x")
        #expect(labels(digest) == ["sha256", "bytes", "format", "sourcePath"])
        let text = PackText(source: .wikipedia, text: "t", image: PackImage(media: digest))
        #expect(labels(text) == ["source", "text", "language", "title", "url", "license", "licenseURL", "credit", "revision", "image"])
        #expect(labels(try #require(text.image)) == ["media", "credit", "license", "sourceURL"])
    }

    @Test func anUnchangedCatalogueAddsNoVersion() throws {
        let site = try Self.site()
        let builder = SiteBuilder(root: site.root)
        let first = try builder.build(now: day(1))
        #expect(first.isNewVersion && first.version == 1 && first.lock != nil)
        let manifest = try Data(contentsOf: URL(fileURLWithPath: builder.packs + "/v/1.json"))
        let lock = try site.directory.read("content/packs.lock")
        let second = try builder.build(now: day(5))
        #expect(!second.isNewVersion && second.version == 1 && second.lock == nil)
        #expect(second.summary.contains("unchanged"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: builder.packs + "/v/1.json")) == manifest, "v/1.json is immutable")
        #expect(try site.directory.read("content/packs.lock") == lock)
        let pointer = try PackPointer.decode(Data(contentsOf: URL(fileURLWithPath: builder.packs + "/latest.json")))
        #expect(pointer.expires == PackTime(day(5)).adding(days: 30), "the pointer's validity starts at the build")
    }

    @Test(arguments: ["record", "media", "text", "translation", "deletion"])
    func everyKindOfChangeMakesANewVersion(change: String) throws {
        let site = try Self.site()
        var builder = SiteBuilder(root: site.root)
        try builder.build(now: day(1))
        let before = try Self.manifest(builder, 1)
        switch change {
        case "record": try site.standardAnimal("owl", name: "Generated owl, renamed", sound: 3)
        case "media": try site.media("sounds/bear.ogg", GeneratedMedia.ogg(99))
        case "text": builder.texts = ["yak": ["en": PackText(source: .wikipedia, text: "Yaks.", revision: "2")]]
        case "translation": try site.translation("bear", "de", "Ein Bär.\n")
        default: try site.remove("content/animals/yak.md")
        }
        let output = try builder.build(now: day(2))
        #expect(output.isNewVersion && output.version == 2)
        let after = try Self.manifest(builder, 2)
        #expect(after.created == PackTime(day(2)))
        let changed = Set(after.records.map { "\($0.id) \($0.rev)" }).symmetricDifference(before.records.map { "\($0.id) \($0.rev)" })
        #expect(changed.count == (change == "deletion" ? 1 : 2), "exactly one record differs: \(changed)")
        let delta = try PackDelta.decode(Data(contentsOf: URL(fileURLWithPath: builder.packs + "/d/1-2.json")), file: nil)
        #expect(delta.upserts.count + delta.tombstones.count == 1)
        let lock = try site.directory.read("content/packs.lock")
        #expect(lock.contains("version 1 created 2026-01-02T00:00:00Z") && lock.contains("version 2 created 2026-01-03T00:00:00Z"))
    }

    @Test func lockedRefusesANewVersionAndSaysWhatChanged() throws {
        let site = try Self.site()
        let builder = SiteBuilder(root: site.root)
        #expect {
            try builder.build(now: day(1), locked: true)
        } throws: { error in
            (error as? DiagnosticError)?.diagnostics.first?.message.contains("there is no content/packs.lock yet") == true
        }
        try builder.build(now: day(1))
        #expect(try builder.build(now: day(2), locked: true).version == 1, "unchanged: --locked is fine")
        try site.standardAnimal("owl", name: "Generated owl 2", sound: 3)
        try site.standardAnimal("zebu", name: "Generated zebu")
        let lockBefore = try site.directory.read("content/packs.lock")
        do {
            try builder.build(now: day(3), locked: true)
            Issue.record("--locked built a new version")
        } catch {
            let d = try #require(error.diagnostics.first)
            #expect(d.message.contains("since version 1 (1 added: zebu; 1 changed: owl)"), "\(d)")
            #expect(d.message.contains("--locked"))
            #expect(d.location?.path == "content/packs.lock" && d.stage == "packs")
        }
        #expect(try site.directory.read("content/packs.lock") == lockBefore)
    }

    @Test func aRenamedPackIsRefused() throws {
        let site = try Self.site()
        try SiteBuilder(root: site.root).build(now: day(1))
        try site.setPacks("{id: renamed}")
        #expect {
            try SiteBuilder(root: site.root).build(now: day(2))
        } throws: { error in
            (error as? DiagnosticError)?.diagnostics.first?.message.contains("pack 'demo' but site.yml says packs.id 'renamed'") == true
        }
    }

    @Test func keysMustMatchTheSitesPublicKeys() throws {
        let site = try Self.site()
        let key = Curve25519.Signing.PrivateKey()
        try site.setPacks("{id: demo, public_keys: [\(PackKeys.base64(key.publicKey))]}")
        #expect {
            try SiteBuilder(root: site.root, keys: [Curve25519.Signing.PrivateKey()]).build(now: day(1))
        } throws: { error in
            (error as? DiagnosticError)?.diagnostics.first?.message.contains("is not in site.yml's packs.public_keys") == true
        }
        // The public key given where the private one belongs (a key file holding the wrong line:
        // both are 32 bytes of base64; found by a new user) is named as such.
        let mixedUp = try Curve25519.Signing.PrivateKey(rawRepresentation: key.publicKey.rawRepresentation)
        #expect {
            try SiteBuilder(root: site.root, keys: [mixedUp]).build(now: day(1))
        } throws: { error in
            (error as? DiagnosticError)?.diagnostics.first?.message.hasPrefix(
                "the signing key is one of site.yml's packs.public_keys: either it is a public key, not the private key it belongs to") == true
        }
        let unsigned = try SiteBuilder(root: site.root).build(now: day(1))
        #expect(unsigned.diagnostics.first?.message.contains("apps that trust those keys will refuse them") == true)
        let signed = try SiteBuilder(root: site.root, keys: [key]).build(now: day(1))
        #expect(signed.signed && signed.diagnostics.isEmpty)
    }

    /// The first version of a signed pack is warned of: a new pack's first build, or a clone whose
    /// lock was deleted (an app developer's CI published version 1 again with a note alone).
    @Test func aSignedPacksFirstVersionIsWarnedOf() throws {
        let site = try Self.site()
        let key = Curve25519.Signing.PrivateKey()
        try site.setPacks("{id: demo, public_keys: [\(PackKeys.base64(key.publicKey))]}")
        let builder = SiteBuilder(root: site.root, keys: [key])
        let first = try builder.build(now: day(1))
        #expect(first.version == 1)
        #expect(first.diagnostics.map(\.message).contains { $0.hasPrefix("there is no content/packs.lock, so this is version 1 of pack 'demo', signed for the apps") })
        try site.standardAnimal("owl", name: "Generated owl 2", sound: 3)
        let second = try builder.build(now: day(2))
        #expect(second.version == 2)
        #expect(second.diagnostics.isEmpty, "\(second.diagnostics)")
    }

    @Test func unsignedBuildsSaySo() throws {
        let site = try Self.site()
        let output = try SiteBuilder(root: site.root).build(now: day(1))
        #expect(!output.signed)
        #expect(output.diagnostics.map(\.severity) == [.warning])
        #expect(output.diagnostics.first?.message.contains("packs are not signed") == true)
        #expect(output.files.allSatisfy { !$0.path.hasSuffix(".sig") })
    }

    @Test func deltasComeFromTheLastKeepDeltasVersionsAndExpiryFromSiteYml() throws {
        let site = try Self.site()
        try site.setPacks("{id: demo, keep_deltas: 2, expires_days: 7}")
        let builder = SiteBuilder(root: site.root)
        for n in 1...4 {
            try site.standardAnimal("owl", name: "Generated owl \(n)", sound: 3)
            try builder.build(now: day(n))
        }
        let pointer = try PackPointer.decode(Data(contentsOf: URL(fileURLWithPath: builder.packs + "/latest.json")))
        #expect(pointer.version == 4)
        #expect(pointer.deltas.map(\.from) == [2, 3])
        #expect(pointer.deltas.map(\.file.path) == ["d/2-4.json", "d/3-4.json"])
        #expect(pointer.expires == PackTime(day(4)).adding(days: 7))
        #expect(try Self.files(builder.packs).keys.filter { $0.hasPrefix("v/") }.sorted() == ["v/4.json"])
    }

    @Test func aClockBehindTheLastVersionIsRefused() throws {
        let site = try Self.site()
        try SiteBuilder(root: site.root).build(now: day(5))
        try site.standardAnimal("owl", name: "Generated owl 2", sound: 3)
        #expect {
            try SiteBuilder(root: site.root).build(now: day(4))
        } throws: { error in
            // It says how to go on when the last version was made ahead of the clock (found by
            // a site's admin: the message only said to check the clock).
            let message = (error as? DiagnosticError)?.diagnostics.first?.message ?? ""
            return message.contains("is before version 1's creation")
                && message.contains("build with SOURCE_DATE_EPOCH=\(Int(day(5).timeIntervalSince1970)) or later until the clock gets there")
        }
        // Also with the content as it was: the pointer would expire counting from before the
        // version it names (it was published so, with a warning), as docs/packs.md says.
        try site.standardAnimal("owl", name: "Generated owl", sound: 3, extra: "tags: [night, forest]\ndifficulty: 2\ndescription: {en: A generated owl., de: Eine erzeugte Eule.}")
        #expect {
            try SiteBuilder(root: site.root).build(now: day(4))
        } throws: { error in
            (error as? DiagnosticError)?.diagnostics.first?.message.contains("is before version 1's creation") == true
        }
        #expect(try SiteBuilder(root: site.root).build(now: day(5)).version == 1)
        // A time whose expiry would need a fifth digit in its year is refused too.
        #expect {
            try SiteBuilder(root: site.root).build(now: Date(timeIntervalSince1970: 253_401_436_800))  // 9999-12-22
        } throws: { error in
            (error as? DiagnosticError)?.diagnostics.first?.message.contains("plus packs.expires_days (30) is after the year 9999") == true
        }
    }

    @Test func aSiteWithoutPacksMakesNone() throws {
        let site = try TestSite(packs: "null")
        try site.standardAnimal("bear", name: "Generated bear")
        let output = try SiteBuilder(root: site.root).build(now: day(1))
        #expect(output.files.isEmpty && output.lock == nil && output.settings == nil)
        #expect(!site.directory.exists("content/packs.lock"))
    }
}

@Suite struct SigningKeysTests {
    let pair = PackKeys.generate()

    @Test func fromTheEnvironmentOneOrSeveral() throws {
        let other = PackKeys.generate()
        #expect(try SigningKeys.publicKeys(environment: ["BESTIARY_SIGNING_KEY": pair.privateKey], file: nil) == [pair.publicKey])
        #expect(try SigningKeys.publicKeys(environment: ["BESTIARY_SIGNING_KEY": "\(pair.privateKey),\(other.privateKey)"], file: nil) == [pair.publicKey, other.publicKey])
        #expect(try SigningKeys.load(environment: [:], file: nil).isEmpty)
        #expect(try SigningKeys.load(environment: ["BESTIARY_SIGNING_KEY": "  "], file: nil).isEmpty)
        #expect {
            try SigningKeys.load(environment: ["BESTIARY_SIGNING_KEY": "c2hvcnQ="], file: nil)
        } throws: { error in
            (error as? DiagnosticError)?.diagnostics.first?.message == "BESTIARY_SIGNING_KEY: the signing key is 5 bytes, not a 32-byte Ed25519 private key"
        }
    }

    @Test func fromAFileAsKeysGenerateWroteItOrBare() throws {
        let dir = TemporaryDirectory()
        try dir.write("public-key: \(pair.publicKey)\nprivate-key: \(pair.privateKey)\n", to: "generated.key")
        try dir.write("# CI key\n\(pair.privateKey)\n", to: "bare.key")
        try dir.write("private-key: nonsense!\n", to: "bad.key")
        try dir.write("public-key: \(pair.publicKey)\n", to: "public-only.key")
        for file in ["generated.key", "bare.key"] {
            #expect(try SigningKeys.publicKeys(environment: ["BESTIARY_SIGNING_KEY": PackKeys.generate().privateKey], file: dir.appending(file)) == [pair.publicKey], "the file wins")
        }
        #expect {
            try SigningKeys.load(environment: [:], file: dir.appending("bad.key"))
        } throws: { error in
            (error as? DiagnosticError)?.diagnostics.first?.location?.line == 1
        }
        #expect {
            try SigningKeys.load(environment: [:], file: dir.appending("public-only.key"))
        } throws: { error in
            (error as? DiagnosticError)?.diagnostics.first?.message.hasPrefix("the file holds only a public key (public-key: …), which checks signatures") == true
        }
        // libsodium's 64-byte private key (seed, then public key): which half to give.
        let sodium = try #require(Data(base64Encoded: pair.privateKey)) + #require(Data(base64Encoded: pair.publicKey))
        #expect {
            try SigningKeys.load(environment: ["BESTIARY_SIGNING_KEY": sodium.base64EncodedString()], file: nil)
        } throws: { error in
            (error as? DiagnosticError)?.diagnostics.first?.message.hasSuffix("is the 32-byte private key followed by the public key: give the first 32 bytes, base64-encoded") == true
        }
        #expect {
            try SigningKeys.load(environment: [:], file: dir.appending("missing.key"))
        } throws: { error in
            (error as? DiagnosticError)?.diagnostics.first.map(DiagnosticFormatter.text)?.hasPrefix("\(dir.appending("missing.key")):1:1: error: cannot read the key file: No such file") == true
        }
        // CRLF line ends are fine; a private key whose public key the file does not name is not.
        try dir.write("public-key: \(pair.publicKey)\r\nprivate-key: \(pair.privateKey)\r\n", to: "crlf.key")
        #expect(try SigningKeys.publicKeys(environment: [:], file: dir.appending("crlf.key")) == [pair.publicKey])
        let other = PackKeys.generate()
        try dir.write("public-key: \(pair.publicKey)\nprivate-key: \(other.privateKey)\n", to: "mixed.key")
        #expect {
            try SigningKeys.load(environment: [:], file: dir.appending("mixed.key"))
        } throws: { error in
            let d = (error as? DiagnosticError)?.diagnostics.first
            return d?.location?.line == 2 && d?.message.contains("which no public-key line of the file names") == true
        }
    }
}
