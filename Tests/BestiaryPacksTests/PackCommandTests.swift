import BestiaryCrypto
import BestiaryPackFormat
import BestiaryTestSupport
import Foundation
import GRDB
import Testing

/// The pack commands on the committed example pack (Tests/Fixtures/packs/example).
@Suite struct PackCommandTests {
    static let example = Fixtures.path("packs/example/packs")
    static let exampleKey = "XssZf/b91+UCBZXm/pVN/VWYdrTznB5uBu4IdYz4JiY="
    /// A site without a pack history or keys, for `--root`: `pack verify` compares a tree with the
    /// lock of the site it runs in, and in-process runs would otherwise take the folder the tests
    /// run in (this repository, whose example site has one).
    static let noHistoryRoot: String = {
        let root = NSTemporaryDirectory() + "bestiary-no-history-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: root + "/content", withIntermediateDirectories: true)
        try! Data("title: {en: Generated test site}\nbase_url: https://example.org/quiz/\nlanguages: [en]\n".utf8)
            .write(to: URL(fileURLWithPath: root + "/content/site.yml"))
        return root
    }()

    @Test func keysGeneratePrintsExactlyTwoLines() async throws {
        let r = await runCLI(["keys", "generate"])
        #expect(r.status == 0 && r.stderr.isEmpty)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("public-key: ") && lines[1].hasPrefix("private-key: "))
        let publicKey = try PackKeys.publicKey(base64: String(lines[0].dropFirst("public-key: ".count)))
        let privateKey = try PackKeys.privateKey(base64: String(lines[1].dropFirst("private-key: ".count)))
        #expect(privateKey.publicKey.rawRepresentation == publicKey.rawRepresentation)

        let dir = TemporaryDirectory()
        try dir.write(r.stdout + "\n", to: "signing.key")
        let derived = await runCLI(["keys", "public", dir.appending("signing.key")])
        #expect(derived.status == 0 && derived.stdout == lines[0])
    }

    /// A server that sends a pointer without end: refused at its size limit, at once, and the
    /// command ends (it went on downloading into memory, over 1 GB, and often never ended).
    @Test func anEndlessPointerIsRefusedAndTheSyncEnds() async throws {
        let server = try await LoopbackServer.start { _ in .endlessBody() }
        let dir = TemporaryDirectory()
        let db = dir.appending("store.sqlite")
        let start = ContinuousClock.now
        let r = await runCLI(["sync", server.baseURL + "/packs", "--db", db, "--public-key", Self.exampleKey])
        #expect(r.status == 1)
        #expect(r.stderr.contains("refused: latest.json: the file is larger than the 65536 bytes accepted (no store was made)"), "\(r.stderr)")
        // It ends (a download without end is what this catches). The bound is wide: under the
        // whole suite's load every await here can wait behind other suites' builds for both of the
        // pool's threads (132 s once, in a run whose Swift tests took 179 s in all; 349 s in a
        // fresh clone's CI run while another test run shared the two cores); the refusal above is
        // what shows the limit held.
        #expect(ContinuousClock.now - start < .seconds(900))
        #expect(!FileManager.default.fileExists(atPath: db))
        await server.stop()
    }

    /// The build's output (or the site root) given for its pack folder: the folder meant is named
    /// (it said only "latest.json: not found"; a museum's volunteer).
    @Test func theFolderAroundThePacksIsNamedForWhatItHolds() async throws {
        let around = Fixtures.path("packs/example")
        for command in [["pack", "verify", around], ["sync", around, "--db", TemporaryDirectory().appending("s.db")]] {
            let run = await runCLI(command)
            #expect(run.status == 1 && run.stderr.contains("'\(around)' holds no latest.json, but '\(around)/packs' does: give that folder (the one holding latest.json)"), "\(run.stderr)")
        }
    }

    @Test func aRefusedFirstSyncLeavesNoStoreBehind() async throws {
        let dir = TemporaryDirectory()
        let db = dir.appending("store.sqlite")
        let other = PackKeys.generate().publicKey
        let wrongKey = await runCLI(["sync", Self.example, "--db", db, "--public-key", other])
        // The trusted key is named by its id, as the signer is: never by the text given, which may be a private key.
        #expect(wrongKey.status == 1 && wrongKey.stderr.contains("refused: latest.json: signed by key 8948e7ca6891514b…, which is not a trusted key (the trusted key: id "), "\(wrongKey.stderr)")
        #expect(!wrongKey.stderr.contains(other), "a key given is named by its id, never by its text")
        let verify = await runCLI(["pack", "verify", "--root", Self.noHistoryRoot, Self.example, "--public-key", other])
        #expect(verify.status == 1 && verify.stderr.contains("latest.json:1:1: error: signed by key 8948e7ca6891514b…, which is not a trusted key") && !verify.stderr.contains("bad signature"), "\(verify.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db))
        // The example was built in 2026 with 30 days of validity: it is expired for good.
        let expired = await runCLI(["sync", Self.example, "--db", db, "--public-key", Self.exampleKey])
        #expect(expired.status == 1 && expired.stderr.contains("refused: latest.json: the pointer expired at 2026-03-03T00:00:00Z"), "\(expired.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db))
        let json = await runCLI(["sync", Self.example, "--db", db, "--public-key", Self.exampleKey, "--diagnostics", "json"])
        #expect(json.stdout.hasPrefix("{\"severity\":\"error\",\"file\":null,\"line\":0,\"column\":0,\"message\":\"refused: latest.json: the pointer expired"), "\(json.stdout)")
        // The reason by a name that stays when the words change, for a script (an app maker's CI).
        #expect(json.stdout.hasSuffix(",\"stage\":\"sync\",\"code\":\"expired\"}"), "\(json.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [], "nothing left, the sync's lock file included")

        // An app's own database: a refused first sync takes out the tables it made there (the
        // app found four empty pack_ tables and a migration row it never asked for). An app that
        // uses GRDB keeps its own migrations table and rows.
        for ownMigrations in [false, true] {
            let app = dir.appending("app-\(ownMigrations).sqlite")
            let queue = try DatabaseQueue(path: app)
            try await queue.write { db in
                try db.execute(sql: "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep')")
                if ownMigrations {
                    try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY); INSERT INTO grdb_migrations VALUES ('app-1')")
                }
            }
            let refused = await runCLI(["sync", Self.example, "--db", app, "--public-key", Self.exampleKey])
            #expect(refused.status == 1 && refused.stderr.contains("(\(app) is as it was: the tables this sync made in it were taken out again)"), "\(refused.stderr)")
            let tables = try await queue.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") }
            #expect(tables == (ownMigrations ? ["grdb_migrations", "notes"] : ["notes"]), "\(tables)")
            if ownMigrations {
                #expect(try await queue.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") } == ["app-1"])
            }
            #expect(try await queue.read { try String.fetchAll($0, sql: "SELECT text FROM notes") } == ["keep"])
            #expect(!dir.exists("app-\(ownMigrations).sqlite.lock"), "the lock file the sync made goes with it")
        }
        // An empty file (a first sync killed at its start) is left empty, not a database of no tables.
        let empty = dir.appending("empty.sqlite")
        try Data().write(to: URL(fileURLWithPath: empty))
        let refused = await runCLI(["sync", Self.example, "--db", empty, "--public-key", Self.exampleKey])
        #expect(refused.status == 1 && refused.stderr.contains("(\(empty) is empty again, as it was)"), "\(refused.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: empty)[.size] as? Int == 0)
        #expect(!dir.exists("empty.sqlite.lock"))
    }

    /// A damaged `content/packs.lock` in the folder `verify` runs in (a merge's conflict markers)
    /// stopped the check of an unrelated tree with no summary: said as a note, and the tree is
    /// checked alone. Named by --root, it fails the check.
    @Test func aDamagedLockHereIsANoteUnlessRootNamesIt() async throws {
        let dir = TemporaryDirectory()
        try dir.write("title: { en: X }\nbase_url: https://example.org/x/\nlanguages: [en]\n", to: "site/content/site.yml")
        try dir.write("<<<<<<< HEAD\nbestiary-pack-lock 2\n", to: "site/content/packs.lock")
        let here = try Binary.run(["pack", "verify", Self.example, "--public-key", Self.exampleKey], currentDirectory: dir.appending("site"))
        #expect(here.status == 1, "the example is expired: \(here.stderr)")
        #expect(here.stderr.contains("note: content/packs.lock here cannot be read, so the tree is not compared with it: "), "\(here.stderr)")
        #expect(here.stderr.contains("latest.json:1:1: error: expired at"), "the tree was checked: \(here.stderr)")
        #expect(here.stdout.contains("pack 'example' version 2: 1 problem"), "\(here.stdout)")
        let named = await runCLI(["pack", "verify", Self.example, "--public-key", Self.exampleKey, "--root", dir.appending("site")])
        #expect(named.status == 1 && named.stdout.isEmpty && named.stderr.contains("content/packs.lock:1:"), "\(named.stdout)\(named.stderr)")
    }

    /// A --root that is no site (a typo, its content/ folder) read as "no keys listed" checked no
    /// signature, and a forged pack passed `verify` and synced (found by an app maker): refused.
    @Test func aRootThatIsNoSiteIsRefusedNotTakenAsNoKeys() async throws {
        let dir = TemporaryDirectory()
        try dir.write("title: { en: X }\nbase_url: https://example.org/x/\nlanguages: [en]\n", to: "site/content/site.yml")
        let db = dir.appending("store.sqlite")
        let expected = "bestiary: error: --root \(dir.appending("site/content")) is not a site root (no content/site.yml under it), so no packs.public_keys can be read from it; give the folder holding content/, or pass --public-key"
        let verify = await runCLI(["pack", "verify", Self.example, "--root", dir.appending("site/content")])
        #expect(verify.status == 1)
        #expect(verify.stderr.hasPrefix(expected), "\(verify.stderr)")
        #expect(verify.stdout.isEmpty)
        let sync = await runCLI(["sync", Self.example, "--db", db, "--root", dir.appending("site/content")])
        #expect(sync.status == 1)
        #expect(sync.stderr.hasPrefix(expected), "\(sync.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["site"], "no store left")
        // Given as `.`, `./` or empty (an unset variable in a script) in a folder that is no site:
        // refused too (found by a reviewer).
        for given in [".", "./", ""] {
            let here = try Binary.run(["pack", "verify", Self.example, "--root", given], currentDirectory: dir.path)
            #expect(here.status == 1 && here.stderr.contains("is not a site root (no content/site.yml under it)"), "\(given): \(here.stderr)")
        }
        // Not given, in a folder that is no site: no keys, and the example is signed: refused
        // for want of a key, not for the root.
        let noKey = "latest.json:1:1: error: the pack is signed, but no key was given to check its signatures with"
        let none = try Binary.run(["pack", "verify", Self.example], currentDirectory: dir.path)
        #expect(none.status == 1 && none.stderr.contains(noKey) && !none.stderr.contains("is not a site root"), "\(none.stderr)")
        // The site root itself, which lists no keys: the same, not this error.
        let site = await runCLI(["pack", "verify", Self.example, "--root", dir.appending("site")])
        #expect(site.status == 1 && site.stderr.contains(noKey) && !site.stderr.contains("is not a site root"), "\(site.stderr)")
    }

    @Test func verifyNamesTheExpiryAndChecksSignatures() async throws {
        let r = await runCLI(["pack", "verify", "--root", Self.noHistoryRoot, Self.example, "--public-key", Self.exampleKey])
        #expect(r.status == 1)
        // Named by the path given, so that it opens from where the command ran (it said
        // `latest.json:1:1`, which no editor found from the site's root: found by a tester).
        #expect(r.stderr == "\(Self.example)/latest.json:1:1: error: expired at 2026-03-03T00:00:00Z; clients refuse it until it is rebuilt or re-signed [verify]")
        // Given as its pointer's path, the tree is named by its folder (review: `…/latest.json/latest.json`).
        let pointer = await runCLI(["pack", "verify", "--root", Self.noHistoryRoot, Self.example + "/latest.json", "--public-key", Self.exampleKey])
        #expect(pointer.stderr == r.stderr, "\(pointer.stderr)")
        #expect(r.stdout == "pack 'example' version 2: 1 problem (2 records, 1 delta, 1 media file (36 bytes), 3 signatures valid, expires 2026-03-03T00:00:00Z)")
        // With --diagnostics json, standard output is JSON alone (the closing line went there
        // too, and `jq` stopped at it): the line goes to standard error.
        let json = await runCLI(["pack", "verify", "--root", Self.noHistoryRoot, Self.example, "--public-key", Self.exampleKey, "--diagnostics", "json"])
        #expect(json.stdout.split(separator: "\n").map { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil } == [true], "\(json.stdout)")
        #expect(json.stderr.hasSuffix("3 signatures valid, expires 2026-03-03T00:00:00Z)"), "\(json.stderr)")
        // A signed tree and no key to check it with (a CI's check went green after the
        // publisher's key was swapped: an app developer's): refused, as sync refuses it.
        let unchecked = await runCLI(["pack", "verify", "--root", Self.noHistoryRoot, Self.example])
        #expect(unchecked.status == 1)
        #expect(unchecked.stderr.contains("latest.json:1:1: error: the pack is signed, but no key was given to check its signatures with: pass --public-key KEY (the public key apps trust), or list it in content/site.yml's packs.public_keys under --root [verify]"), "\(unchecked.stderr)")
        #expect(unchecked.stdout == "pack 'example' version 2: 2 problems (2 records, 1 delta, 1 media file (36 bytes), signatures not checked, expires 2026-03-03T00:00:00Z)", "\(unchecked.stdout)")
        let missing = await runCLI(["pack", "verify", "--root", Self.noHistoryRoot, Fixtures.path("packs")])
        #expect(missing.status == 1 && missing.stderr.contains("\(Fixtures.path("packs"))/latest.json:1:1: error: not found at"), "\(missing.stderr)")
        // A folder that is no pack: nothing to sign, so no word of unchecked signatures.
        #expect(!missing.stderr.contains("signatures were not checked"), "\(missing.stderr)")
        // No such folder at all: said so, not as a missing latest.json (found by a new user).
        let nowhere = await runCLI(["pack", "verify", "--root", Self.noHistoryRoot, Fixtures.path("packs/nosuch")])
        #expect(nowhere.status == 1)
        #expect(nowhere.stderr.hasPrefix("bestiary: error: there is no folder '\(Fixtures.path("packs/nosuch"))'; give the pack folder"), "\(nowhere.stderr)")
    }

    /// A pack none of whose files is signed (a preview's output, a build without a key) is said so
    /// once, with how packs are signed; it was "is not signed" of each file (eight on a preview's
    /// output with deltas). `sync` says the same of the pointer. A pack missing only some
    /// signatures still names each file.
    @Test func anUnsignedPackIsSaidOnceWithHowToSignIt() async throws {
        let dir = TemporaryDirectory()
        let packs = dir.appending("packs")
        try Fixtures.copy("packs/example/packs", to: packs)
        let sigs = try FileManager.default.subpathsOfDirectory(atPath: packs).filter { $0.hasSuffix(".sig") }.sorted()
        #expect(sigs == ["d/1-2.json.sig", "latest.json.sig", "v/2.json.sig"])
        try FileManager.default.removeItem(atPath: packs + "/d/1-2.json.sig")
        let one = await runCLI(["pack", "verify", "--root", Self.noHistoryRoot, packs, "--public-key", Self.exampleKey])
        #expect(one.status == 1 && one.stderr.contains("d/1-2.json:1:1: error: is not signed (no d/1-2.json.sig) [verify]"), "\(one.stderr)")
        #expect(!one.stderr.contains("no file of the pack"))
        for sig in sigs.dropFirst() { try FileManager.default.removeItem(atPath: packs + "/" + sig) }
        let none = await runCLI(["pack", "verify", "--root", Self.noHistoryRoot, packs, "--public-key", Self.exampleKey])
        #expect(none.status == 1)
        let hint = "`bestiary build` signs packs only with a signing key (BESTIARY_SIGNING_KEY or --signing-key FILE), and `bestiary serve` never signs them"
        #expect(none.stderr.contains("latest.json:1:1: error: no file of the pack is signed (none of its 3 files has a .sig beside it): \(hint) [verify]"), "\(none.stderr)")
        #expect(!none.stderr.contains("is not signed (no"), "\(none.stderr)")
        // And the expiry; an unsigned pointer's pack and version are not said as the pack's.
        #expect(none.stdout.hasPrefix("pack at \(packs): 2 problems"), "\(none.stdout)")
        let sync = await runCLI(["sync", packs, "--db", dir.appending("s.db"), "--public-key", Self.exampleKey])
        #expect(sync.status == 1 && sync.stderr.contains("latest.json: the file is not signed (no latest.json.sig), but a signature by a trusted key is required; \(hint)"), "\(sync.stderr)")
    }

    /// An unsigned tree (a preview's, a build without a key) checked without a key passes, said
    /// so; with the signatures put back, the same check fails for want of a key.
    @Test func anUnsignedTreeWithoutAKeyPassesASignedOneDoesNot() async throws {
        let site = try TestSite(packs: "{id: unsigned, expires_days: 3650}")
        try site.standardAnimal("bear", name: "Generated bear")
        var builder = SiteBuilder(root: site.root, keys: [])
        _ = try builder.build(now: day(1))
        let dir = TemporaryDirectory("bestiary-pack-unsigned")
        try builder.snapshot(into: dir.appending("packs"))
        let unsigned = await runCLI(["pack", "verify", "--root", Self.noHistoryRoot, dir.appending("packs")])
        #expect(unsigned.status == 0 && unsigned.stderr.contains("warning: signatures were not checked: pass --public-key KEY"), "\(unsigned.stderr)")
        #expect(unsigned.stdout.contains("signatures not checked") && unsigned.stdout.hasSuffix(": OK"), "\(unsigned.stdout)")
        var signed = SiteBuilder(root: site.root, keys: [Curve25519.Signing.PrivateKey()])
        _ = try signed.build(now: day(2))
        try signed.snapshot(into: dir.appending("signed"))
        let refused = await runCLI(["pack", "verify", "--root", Self.noHistoryRoot, dir.appending("signed")])
        #expect(refused.status == 1 && refused.stderr.contains("error: the pack is signed, but no key was given to check its signatures with"), "\(refused.stderr)")
    }

    /// A publisher's private key pasted as `--public-key` (both are 32 bytes in base64) was
    /// refused as "not a trusted key" with the key given printed back, into a CI log (an app
    /// developer's): it is named as a private key, and never printed.
    @Test func aPrivateKeyGivenAsThePublicKeyIsNamedAndNotPrinted() async throws {
        let key = Curve25519.Signing.PrivateKey()
        let site = try TestSite(packs: "{id: keys, expires_days: 3650}")
        try site.standardAnimal("bear", name: "Generated bear")
        var builder = SiteBuilder(root: site.root, keys: [key])
        _ = try builder.build(now: day(1))
        let dir = TemporaryDirectory("bestiary-pack-private")
        try builder.snapshot(into: dir.appending("packs"))
        let secret = key.rawRepresentation.base64EncodedString()
        let hint = "the key given as trusted is that signer's private key (id \(PackPublicKey(key.publicKey).keyID.prefix(16))… is its public key's), not a public key"
        let sync = await runCLI(["sync", dir.appending("packs"), "--db", dir.appending("s.db"), "--public-key", secret])
        #expect(sync.status == 1 && sync.stderr.contains(hint), "\(sync.stderr)")
        let verify = await runCLI(["pack", "verify", "--root", Self.noHistoryRoot, dir.appending("packs"), "--public-key", secret])
        #expect(verify.status == 1 && verify.stderr.contains(hint), "\(verify.stderr)")
        // Another pair's private key (a staging key, a rotation's new one): not the signer's, and
        // not printed either (the keys given were named by their text).
        let stranger = Curve25519.Signing.PrivateKey().rawRepresentation.base64EncodedString()
        let other = await runCLI(["sync", dir.appending("packs"), "--db", dir.appending("o.db"), "--public-key", stranger])
        #expect(other.status == 1 && other.stderr.contains("which is not a trusted key (the trusted key: id ") && !other.stderr.contains(hint), "\(other.stderr)")
        // A line naming the id of the key derived from the public one, with bytes that are no
        // signature (a forger who knows the public key): no talk of a private key.
        let publicKey = PackKeys.base64(key.publicKey)
        let derivedID = PackPublicKey(try Curve25519.Signing.PrivateKey(rawRepresentation: key.publicKey.rawRepresentation).publicKey).keyID
        try "ed25519 \(derivedID) \(Data(repeating: 7, count: 64).base64EncodedString())\n".write(toFile: dir.appending("packs/latest.json.sig"), atomically: true, encoding: .utf8)
        let forged = await runCLI(["sync", dir.appending("packs"), "--db", dir.appending("f.db"), "--public-key", publicKey])
        #expect(forged.status == 1 && !forged.stderr.contains("private key"), "\(forged.stderr)")
        for output in [sync.stdout, sync.stderr, verify.stdout, verify.stderr, other.stderr] {
            #expect(!output.contains(secret) && !output.contains(secret.prefix(8)) && !output.contains(stranger.prefix(8)), "\(output)")
        }
    }

    /// The manifest's signature not on the server yet, its file there and named by the signed
    /// pointer: a publish still uploading, which the next run gets past (75), as a manifest not
    /// there yet is; it was a refusal (1), and an app took the pack for altered (an app developer's).
    @Test func aManifestWhoseSignatureIsNotUploadedYetIsTriedAgainLater() async throws {
        let key = Curve25519.Signing.PrivateKey()
        let site = try TestSite(packs: "{id: uploading, expires_days: 3650}")
        try site.standardAnimal("bear", name: "Generated bear", sound: 1)
        var builder = SiteBuilder(root: site.root, keys: [key])
        _ = try builder.build(now: day(1))
        let dir = TemporaryDirectory("bestiary-pack-uploading")
        let packs = dir.appending("packs")
        try builder.snapshot(into: packs)
        let signature = try Data(contentsOf: URL(fileURLWithPath: packs + "/v/1.json.sig"))
        try FileManager.default.removeItem(atPath: packs + "/v/1.json.sig")
        let publicKey = PackKeys.base64(key.publicKey)
        let sync = await runCLI(["sync", packs, "--db", dir.appending("s.db"), "--public-key", publicKey])
        #expect(sync.status == 75, "\(sync.stderr)")
        #expect(sync.stderr.contains("v/1.json: the file is not signed (no v/1.json.sig), but a signature by a trusted key is required; a publish still uploading its files may not have put it there yet: try again later"), "\(sync.stderr)")
        // Put there, the same store syncs.
        try signature.write(to: URL(fileURLWithPath: packs + "/v/1.json.sig"))
        let again = await runCLI(["sync", packs, "--db", dir.appending("s.db"), "--public-key", publicKey])
        #expect(again.status == 0, "\(again.stderr)")
    }

    /// The summary says the pointer's pack, version and expiry only when its signature holds (an
    /// `expires` altered on the server was printed as the pack's; an app developer's find).
    @Test func anAlteredPointersExpiryIsNotSaidAsThePacks() async throws {
        let dir = TemporaryDirectory()
        let packs = dir.appending("packs")
        try Fixtures.copy("packs/example/packs", to: packs)
        let pointer = packs + "/latest.json"
        let text = try String(contentsOfFile: pointer, encoding: .utf8)
        try text.replacingOccurrences(of: "\"expires\":\"2026", with: "\"expires\":\"2099").writeReplacing(toFile: pointer)
        let r = await runCLI(["pack", "verify", "--root", Self.noHistoryRoot, packs, "--public-key", Self.exampleKey])
        #expect(r.status == 1 && r.stderr.contains("latest.json:1:1: error: bad signature: the signature by key"), "\(r.stderr)")
        #expect(r.stdout.hasPrefix("pack at \(packs): "), "\(r.stdout)")
        #expect(!r.stdout.contains("2099") && !r.stdout.contains("expires"), "\(r.stdout)")
    }

    /// A media file longer than the manifest says is read only up to its first byte too many,
    /// so how long it is is not known: said so (it printed however much had arrived by then).
    @Test func verifySaysAMediaFileIsLongerThanItsManifestSays() async throws {
        let dir = TemporaryDirectory()
        let packs = dir.appending("packs")
        try Fixtures.copy("packs/example/packs", to: packs)
        let media = packs + "/media/498a26e2d458b37a9f98d7491d74cf8f512067c0a5e496014172de05e9552a25.ogg"
        let handle = try #require(FileHandle(forWritingAtPath: media))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: 0, count: 100_000))
        try handle.close()
        let r = await runCLI(["pack", "verify", "--root", Self.noHistoryRoot, packs])
        #expect(r.status == 1)
        #expect(r.stderr.contains("media/498a26e2d458b37a9f98d7491d74cf8f512067c0a5e496014172de05e9552a25.ogg:1:1: error: has more than the 36 bytes the manifest says"), "\(r.stderr)")
    }

    /// The manifest's media summary (what apps show progress by) is checked against the files its
    /// records name: a wrong one passed (found by a tester).
    @Test func verifyChecksTheManifestsMediaSummary() async throws {
        let dir = TemporaryDirectory()
        let packs = dir.appending("packs")
        try Fixtures.copy("packs/example/packs", to: packs)
        let manifest = try String(contentsOfFile: packs + "/v/2.json", encoding: .utf8)
        let changed = manifest.replacingOccurrences(of: "\"media\":{\"bytes\":36,\"count\":1}", with: "\"media\":{\"bytes\":99,\"count\":1}")
        #expect(changed != manifest)
        try changed.writeReplacing(toFile: packs + "/v/2.json")
        // latest.json names the manifest by its size and hash: made to match, as a producer would.
        let pointer = try String(contentsOfFile: packs + "/latest.json", encoding: .utf8)
            .replacingOccurrences(of: "6b96cd703853728ff68670a0e29086ec44841f3fd9875d94d78cfa05f9a7a965", with: PackDigest.sha256(Data(changed.utf8)))
        try pointer.writeReplacing(toFile: packs + "/latest.json")
        let r = await runCLI(["pack", "verify", "--root", Self.noHistoryRoot, packs])
        #expect(r.status == 1)
        #expect(r.stderr.contains("v/2.json:1:1: error: its media summary says 1 file of 99 bytes, but its records name 1 file of 36 bytes"), "\(r.stderr)")
    }

    /// A location written wrong is a usage error, before anything is fetched: another scheme, or
    /// a URL with a query, whose folder was silently dropped (`/packs?x=1` fetched `/latest.json`).
    @Test func aLocationWrittenWrongIsAUsageError() async throws {
        let dir = TemporaryDirectory()
        let db = dir.appending("store.sqlite")
        for (arguments, message) in [
            (["sync", "ftp://example.org/packs", "--db", db], "'ftp://example.org/packs' is neither an http(s) URL nor a folder"),
            (["sync", "http://127.0.0.1:9/packs?x=1", "--db", db], "'http://127.0.0.1:9/packs?x=1' has a query (?…) or a fragment (#…); give the address of the pack folder"),
            (["pack", "verify", "https://example.org/packs/#v2"], "'https://example.org/packs/#v2' has a query"),
            (["pack", "verify", "http://"], "'http://' is not a valid URL"),
            // `www` was read as a host, and /packs looked for.
            (["sync", "file://www/packs", "--db", db], "'file://www/packs' names the host 'www', which a file URL cannot read from; write file:/// and the full path"),
        ] {
            let r = await runCLI(arguments)
            #expect(r.status == 2, "\(arguments)")
            #expect(r.stderr.hasPrefix("Error: " + message), "\(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: db), "no store is made")
    }

    @Test func dumpNeverTouchesWhatIsNotAStore() async throws {
        let dir = TemporaryDirectory()
        try dir.write("not a database", to: "notes.txt")
        let r = await runCLI(["pack", "dump", "--db", dir.appending("notes.txt")])
        #expect(r.status == 1 && r.stderr.contains("cannot open the store"), "\(r.stderr)")
        #expect(try dir.read("notes.txt") == "not a database")
        // A sync into it is refused, and leaves neither the file changed nor a lock file beside it;
        // a lock file that was there already stays.
        let sync = await runCLI(["sync", Self.example, "--db", dir.appending("notes.txt"), "--public-key", Self.exampleKey])
        #expect(sync.status == 1 && sync.stderr.contains("notes.txt"), "\(sync.stderr)")
        #expect(try dir.read("notes.txt") == "not a database")
        #expect(!dir.exists("notes.txt.lock"))
        try dir.write("", to: "notes.txt.lock")
        _ = await runCLI(["sync", Self.example, "--db", dir.appending("notes.txt"), "--public-key", Self.exampleKey])
        #expect(dir.exists("notes.txt.lock"))
        try FileManager.default.removeItem(atPath: dir.appending("notes.txt.lock"))
        let none = await runCLI(["pack", "dump", "--db", dir.appending("none.sqlite")])
        #expect(none.status == 1 && none.stderr.contains("no store at"))
        #expect(!dir.exists("none.sqlite"))
        // A folder (SQLite said "disk I/O error"), and an app's own database no sync has made a
        // store in (it said "not a pack store written by this version of Bestiary").
        let folder = await runCLI(["pack", "dump", "--db", dir.path])
        #expect(folder.status == 1 && folder.stderr.contains("\(dir.path) is a folder; the store is a file"), "\(folder.stderr)")
        // A sync is told the same, and leaves no lock file beside the folder.
        try FileManager.default.createDirectory(atPath: dir.appending("AppData"), withIntermediateDirectories: true)
        let syncFolder = await runCLI(["sync", dir.path, "--db", dir.appending("AppData")])
        #expect(syncFolder.status == 1 && syncFolder.stderr.contains("AppData is a folder; the store is a file"), "\(syncFolder.stderr)")
        #expect(!dir.exists("AppData.lock"))
        let app = dir.appending("app.sqlite")
        try await DatabaseQueue(path: app).write { try $0.execute(sql: "CREATE TABLE notes (text TEXT)") }
        let foreign = await runCLI(["pack", "dump", "--db", app])
        #expect(foreign.status == 1 && foreign.stderr.contains("\(app) holds no pack store: no sync has made one in it yet"), "\(foreign.stderr)")
        let usage = await runCLI(["pack", "dump"])
        #expect(usage.status == 2)
        // Empty: a first sync killed at its start (it said "not a pack store written by this
        // version of Bestiary"; an app developer's find).
        try dir.write("", to: "empty.sqlite")
        let empty = await runCLI(["pack", "dump", "--db", dir.appending("empty.sqlite")])
        #expect(empty.status == 1 && empty.stderr.contains("is empty: a first sync was stopped before it made the store; run the sync again"), "\(empty.stderr)")
    }
}
