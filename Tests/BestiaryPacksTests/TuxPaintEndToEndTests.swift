import BestiaryContent
import BestiaryPackFormat
import BestiaryPacks
import BestiarySync
import BestiaryTestSupport
import BestiaryCrypto
import Foundation
import Testing

/// The real 66-animal Tux Paint catalogue (Tests/Fixtures/sites/tuxpaint), built signed by the
/// producer, served over HTTP on 127.0.0.1, and synced with the `bestiary sync` command, as a
/// new user would: change, rebuild, sync again; then the refusals, each leaving the store as it was.
@Suite struct TuxPaintEndToEndTests {
    @Test func buildSyncChangeRebuildSyncAndRefusals() async throws {
        let work = TemporaryDirectory("bestiary-tuxpaint")
        let root = work.appending("site")
        try Fixtures.copy("sites/tuxpaint", to: root)
        let key = Curve25519.Signing.PrivateKey()
        let publicKey = PackKeys.base64(key.publicKey)
        let builder = SiteBuilder(root: root, keys: [key])
        let now = Date()  // `sync` checks expiry against the real clock
        let first = try builder.build(now: now)
        #expect(first.records == 66 && first.version == 1 && first.signed)
        let version1 = TemporaryDirectory("bestiary-tuxpaint-v1")
        try builder.snapshot(into: version1.path)

        let server = try await PackServer.start(root: builder.packs)
        let db = work.appending("store.sqlite")
        let freshDB = work.appending("fresh.sqlite")
        func sync(_ database: String = db, key: String? = nil, url: String? = nil) async -> CLIResult {
            await runCLI(["sync", url ?? server.url, "--db", database, "--public-key", key ?? publicKey])
        }
        func edit(_ id: String, _ change: (String) -> String) throws {
            let path = root + "/content/animals/\(id).md"
            try change(try String(contentsOfFile: path, encoding: .utf8)).writeReplacing(toFile: path)
        }
        do {
            // Version 1, synced from nothing over HTTP.
            let r1 = await sync()
            #expect(r1.status == 0, "\(r1.stderr)")
            #expect(r1.stdout.contains("pack 'tuxpaint' synced from version 0 to 1 by full manifest, signed by key"), "\(r1.stdout)")
            #expect(r1.stdout.contains(" bytes of manifest, "), "\(r1.stdout)")
            var state = try await dump(db)
            #expect(state.version == 1 && state.records.count == 66)
            let lock1 = try PackLock.parse(Data(contentsOf: URL(fileURLWithPath: root + "/content/packs.lock")))
            #expect(state.records == lock1.latestRevisions)
            let store = try PackStore.openExisting(path: db)
            let frog = try #require(try store.record(id: "frog")?.payloadValue)
            #expect(frog["name"] == ["en": "Frog", "de": "Frosch"])
            #expect(frog["body"]?["de"] != nil && frog["body"]?["en"] != nil)
            let frogSound = try #require(frog["sound"]?["sha256"]?.stringValue)
            let frogBytes = try Data(contentsOf: URL(fileURLWithPath: root + "/content/sounds/frog.ogg"))
            #expect(try store.mediaData(sha256: frogSound) == frogBytes)
            #expect(try store.mediaIndex().count == 126, "60 sounds and 66 pictures, all different files")
            let verify = await runCLI(["pack", "verify", "--root", PackCommandTests.noHistoryRoot, server.url, "--public-key", publicKey])
            #expect(verify.status == 0 && verify.stdout.contains("66 records, 0 deltas, 126 media files"), "\(verify.stdout) \(verify.stderr)")

            // Two edits, one deletion, one addition; rebuild; sync again.
            try edit("bear") { $0.replacingOccurrences(of: "name: {en: Bear, de: Bär}", with: "name: {en: Brown bear, de: Braunbär}") }
            try edit("hen") { $0.replacingOccurrences(of: "A brown hen.", with: "A brown hen that lays eggs.") }
            try FileManager.default.removeItem(atPath: root + "/content/animals/zebra.md")
            let okapiSound = frogBytes + Data("generated test bytes: not a real okapi".utf8)
            try okapiSound.write(to: URL(fileURLWithPath: root + "/content/sounds/okapi.ogg"))
            try """
                ---
                name: {en: Okapi (generated test record), de: Okapi (erzeugter Testeintrag)}
                group: mammal
                sound: {file: sounds/okapi.ogg, credit: Generated test data, license: CC0-1.0}
                image: {file: images/giraffe.png, credit: Tux Paint stamps (Bill Kendrick and contributors), license: GPL-2.0-or-later}
                ---
                """.writeReplacing(toFile: root + "/content/animals/okapi.md")
            let mediaRequests = server.requests(prefix: "media/").count
            let second = try builder.build(now: now.addingTimeInterval(60))
            #expect(second.version == 2 && second.isNewVersion)
            #expect(second.changes.map(\.id).sorted() == ["bear", "hen", "okapi", "zebra"])
            let r2 = await sync()
            #expect(r2.status == 0, "\(r2.stderr)")
            #expect(r2.stdout.contains("from version 1 to 2 by delta from 1"), "\(r2.stdout)")
            // The delta's bytes are counted, as the manifest's are (it said 0 bytes; found by a site's admin).
            let deltaBytes = try #require(r2.stdout.firstMatch(of: /, (\d+) bytes of delta, (\d+) bytes in all/))
            #expect(Int(deltaBytes.1)! > 0 && Int(deltaBytes.2)! >= Int(deltaBytes.1)!, "\(r2.stdout)")
            #expect(r2.stdout.contains("3 records added or changed, 1 deleted"), "\(r2.stdout)")
            #expect(server.requests(prefix: "media/").count == mediaRequests + 1, "only the new sound was downloaded")
            let rf = await sync(freshDB)
            #expect(rf.status == 0)
            state = try await dump(db)
            #expect(state.version == 2 && state.records.count == 66)
            #expect(state.records["zebra"] == nil && state.records["okapi"] != nil)
            #expect(try await dump(freshDB).records == state.records)
            #expect(try StoreSnapshot(db) == StoreSnapshot(freshDB), "the store equals a fresh sync")

            // Version 3 needs a new file; a tampered copy of it on the server is refused.
            try edit("koala") { $0.replacingOccurrences(of: "file: sounds/koala.ogg", with: "file: sounds/koala-new.ogg") }
            if !(try String(contentsOfFile: root + "/content/animals/koala.md", encoding: .utf8)).contains("koala-new") {
                try edit("koala") { $0.replacingOccurrences(of: "group: mammal", with: "group: mammal\nsound: {file: sounds/koala-new.ogg, credit: Generated test data}") }
            }
            let koalaSound = frogBytes + Data("generated test bytes: a second made-up sound".utf8)
            try koalaSound.write(to: URL(fileURLWithPath: root + "/content/sounds/koala-new.ogg"))
            #expect(try builder.build(now: now.addingTimeInterval(120)).version == 3)
            let before = try StoreSnapshot(db)
            let koalaPath = builder.packs + "/media/\(PackDigest.sha256(koalaSound)).ogg"
            var tampered = koalaSound
            tampered[tampered.count / 2] ^= 0x55
            try tampered.write(to: URL(fileURLWithPath: koalaPath))
            let r3 = await sync()
            #expect(r3.status == 1)
            #expect(r3.stderr.contains("refused: media/\(PackDigest.sha256(koalaSound)).ogg: the file's SHA-256 is not the one in its name"), "\(r3.stderr)")
            #expect(try StoreSnapshot(db) == before)
            try koalaSound.write(to: URL(fileURLWithPath: koalaPath))

            // A wrong key is refused.
            let r4 = await sync(key: PackKeys.generate().publicKey)
            #expect(r4.status == 1 && r4.stderr.contains("refused: latest.json: signed by key"), "\(r4.stderr)")
            #expect(try StoreSnapshot(db) == before)

            // Version 3, then a rollback to the served version 1 is refused.
            let r5 = await sync()
            #expect(r5.status == 0 && r5.stdout.contains("from version 2 to 3 by delta from 2"), "\(r5.stdout) \(r5.stderr)")
            let at3 = try StoreSnapshot(db)
            let old = try await PackServer.start(root: version1.path)
            let r6 = await sync(url: old.url)
            await old.stop()
            #expect(r6.status == 1 && r6.stderr.contains("refused: latest.json: the pack source offers version 1, older than the stored version 3"), "\(r6.stderr)")
            #expect(try StoreSnapshot(db) == at3)
            #expect(try await dump(db).version == 3)

            // Without --public-key, the key remembered from the last sync still guards the store.
            let r7 = await runCLI(["sync", server.url, "--db", db])
            #expect(r7.status == 0 && r7.stdout.contains("is up to date at version 3"), "\(r7.stdout) \(r7.stderr)")
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}
