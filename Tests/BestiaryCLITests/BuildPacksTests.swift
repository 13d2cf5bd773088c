import BestiaryCLI
import BestiaryDiagnostics
import BestiarySite
import BestiaryStorage
import BestiarySync
import BestiaryTestSupport
import Foundation
import Testing

/// `bestiary build` makes the content packs as its `packs` stage (DESIGN.md §5): signed with
/// `--signing-key`, verified and synced by the real commands, the history in content/packs.lock
/// written only after the output is in place, `--locked` refusing a change, and a preview build
/// (`serve`) never recording a version.
///
/// The builds run with the real clock (no SOURCE_DATE_EPOCH): `sync` checks the pointer's expiry
/// against the real clock, and CI's fixed epoch would be long expired.
@Suite struct BuildPacksTests {
    struct Site {
        let dir = TemporaryDirectory("bestiary-build-packs")
        let root: String
        let keyFile: String
        let publicKey: String
        /// Now, fixed for the test: rebuilds of the same content are then byte-identical.
        let now = FixedTimeSource(Date())

        init() async throws {
            root = dir.appending("site")
            try Fixtures.copy("sites/tuxpaint", to: root)
            try? FileManager.default.removeItem(atPath: root + "/content/packs.lock")  // a site without history
            let keys = await SiteCommandRun.bestiary("keys", "generate")
            #expect(keys.status == 0)
            keyFile = dir.appending("signing.key")
            try keys.stdout.writeReplacing(toFile: keyFile)
            publicKey = try #require(keys.stdout.split(separator: "\n").first { $0.hasPrefix("public-key: ") }?.dropFirst(12)).description
        }

        var lockPath: String { root + "/content/packs.lock" }
        var packs: String { root + "/output/packs" }

        func options(locked: Bool = false, preview: Bool = false) -> BuildOptions {
            var options = BuildOptions(root: root, locked: locked, signingKeyFile: keyFile, environment: [:], time: now)
            options.recordsPackVersions = !preview
            return options
        }

        @discardableResult
        func build(locked: Bool = false, preview: Bool = false) throws(DiagnosticError) -> (BuildReport, SiteBuilder) {
            let builder = SiteBuilder(options: options(locked: locked, preview: preview))
            return (try builder.build(), builder)
        }

        func rename(_ id: String, from: String, to: String) throws {
            let path = root + "/content/animals/\(id).md"
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains(from))
            try text.replacingOccurrences(of: from, with: to).writeReplacing(toFile: path)
        }

        func latestVersion() throws -> Int {
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: packs + "/latest.json"))) as? [String: Any]
            return try #require(json?["version"] as? Int)
        }
    }

    /// Files in the tree that the pack does not name (left by an upload that deletes nothing) are
    /// said in a note, and the check passes: apps never fetch them.
    @Test func filesThePackDoesNotNameAreNoted() async throws {
        let site = try await Site()
        _ = try site.build()
        let clean = await SiteCommandRun.bestiary("pack", "verify", site.packs, "--public-key", site.publicKey)
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(!clean.stderr.contains("named by neither"), "\(clean.stderr)")
        try Data("an older manifest".utf8).write(to: URL(fileURLWithPath: site.packs + "/v/0.json"))
        try Data("a sound no record has".utf8).write(to: URL(fileURLWithPath: site.packs + "/media/0000.ogg"))
        let verify = await SiteCommandRun.bestiary("pack", "verify", site.packs, "--public-key", site.publicKey)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout.contains(": OK"), "\(verify.stdout)")
        #expect(
            verify.stderr.contains(
                "note: media/0000.ogg and 1 more (v/0.json): in the tree, but named by neither latest.json, its manifest nor its deltas, so apps never fetch them; left by an earlier upload?"),
            "\(verify.stderr)")
    }

    @Test func buildSignsVerifySyncsAndTheLockFollows() async throws {
        let site = try await Site()
        #expect(!FileManager.default.fileExists(atPath: site.lockPath), "a site without history")

        // Version 1: signed, recorded after the output is in place, verified, synced.
        let (report, builder) = try site.build()
        #expect(report.stages.map(\.name) == ["load", "enrich", "media", "render", "packs", "write"])
        let packsStage = try #require(report.stages.first { $0.name == "packs" })
        #expect(packsStage.detail.hasPrefix("pack 'tuxpaint' version 1 (new: 66 added"), "\(packsStage.detail)")
        #expect(packsStage.detail.hasSuffix("66 records, signed"))
        #expect(report.notes.contains("content/packs.lock: recorded pack version 1; commit it with the content"))
        #expect(!builder.diagnostics.items.contains { $0.message.contains("not signed") })
        #expect(FileManager.default.fileExists(atPath: site.packs + "/latest.json.sig"))
        let lock1 = try Data(contentsOf: URL(fileURLWithPath: site.lockPath))

        let verify = await SiteCommandRun.bestiary("pack", "verify", site.packs, "--public-key", site.publicKey)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout.contains("66 records"), "\(verify.stdout)")
        let db = site.dir.appending("app.sqlite")
        // A sync that finds another holding the store's lock makes no store of its own: two
        // first syncs at once each made the tables, and one removed the file the other wrote.
        var held: StoreLock? = try await StoreLock.acquire(forStoreAt: db)
        let busy = await SiteCommandRun.bestiary("sync", site.packs, "--db", db, "--public-key", site.publicKey)
        #expect(busy.status == 75, "run again later: \(busy.status)")
        #expect(busy.stderr.contains("error: another sync of this store is running (it holds \(db).lock); let it finish, then sync again"), "\(busy.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db), "no store made beside the running sync's")
        withExtendedLifetime(held) {}
        held = nil
        let first = await SiteCommandRun.bestiary("sync", site.packs, "--db", db, "--public-key", site.publicKey)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("from version 0 to 1"), "\(first.stdout)")

        // The same content again: no new version, the lock untouched, the output identical.
        let before = try Tree(site.root + "/output")
        let (again, _) = try site.build()
        #expect(again.notes.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: site.lockPath)) == lock1)
        #expect(try Tree(site.root + "/output") == before)

        // An edit under --locked: refused, in the packs stage at content/packs.lock; nothing changes.
        try site.rename("bear", from: "name: {en: Bear, de: Bär}", to: "name: {en: Brown bear, de: Braunbär}")
        do {
            try site.build(locked: true)
            Issue.record("--locked should refuse a changed catalogue")
        } catch {
            let message = error.diagnostics.first?.message ?? ""
            #expect(message.contains("the catalogue changed since version 1 (1 changed: bear)"), "\(message)")
            #expect(error.diagnostics.first?.stage == "packs")
            #expect(error.diagnostics.first?.location?.path == "content/packs.lock")
        }
        #expect(try Tree(site.root + "/output") == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: site.lockPath)) == lock1)

        // A preview build (serve) publishes version 2 in its output but never records it.
        try site.build(preview: true)
        #expect(try site.latestVersion() == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: site.lockPath)) == lock1)

        // The real build records version 2; the app catches up by the delta.
        let (second, _) = try site.build()
        #expect(second.notes.contains("content/packs.lock: recorded pack version 2; commit it with the content"))
        #expect(try site.latestVersion() == 2)
        let next = await SiteCommandRun.bestiary("sync", site.packs, "--db", db, "--public-key", site.publicKey)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stdout.contains("from version 1 to 2 by delta"), "\(next.stdout)")
        let dump = await SiteCommandRun.bestiary("pack", "dump", "--db", db)
        #expect(dump.stdout.hasPrefix("{\"version\": 2, \"records\": {"), "\(dump.stdout.prefix(80))")
        #expect(dump.stdout.contains("\"bear\": \""))
    }

    /// A build signed only with keys that did not sign the pointer the output publishes (a key
    /// replaced without the overlap docs/packs.md's rotation asks for) is warned about: every app
    /// that trusts only the earlier key would refuse it (found by a site's admin). Signing with
    /// both keys, as a rotation does, is not.
    @Test func aKeyReplacedWithoutOverlapIsWarnedAbout() async throws {
        let site = try await Site()
        try site.build()
        let other = await SiteCommandRun.bestiary("keys", "generate")
        let newKey = site.dir.appending("new.key"), bothKeys = site.dir.appending("both.key")
        try other.stdout.writeReplacing(toFile: newKey)
        // Bare private keys, one per line (docs/packs.md).
        func privateKey(_ text: String) -> String {
            text.split(separator: "\n").first { $0.hasPrefix("private-key: ") }.map { String($0.dropFirst(13)) } ?? ""
        }
        try (privateKey(try String(contentsOfFile: site.keyFile, encoding: .utf8)) + "\n" + privateKey(other.stdout) + "\n").writeReplacing(toFile: bothKeys)
        func warnings(signingWith file: String) throws -> [String] {
            var options = site.options()
            options.signingKeyFile = file
            let builder = SiteBuilder(options: options)
            _ = try builder.build()
            return builder.diagnostics.items.map(\.message).filter { $0.contains("did not sign the packs the output publishes") }
        }
        // A rotation: both keys, then the new one alone once apps with it have shipped.
        #expect(try warnings(signingWith: bothKeys).isEmpty)
        #expect(try warnings(signingWith: newKey).isEmpty)
        // The earlier key again, alone: no app that trusts only the new key would take it.
        #expect(try warnings(signingWith: site.keyFile).count == 1)
        #expect(try warnings(signingWith: site.keyFile).isEmpty, "the output's pointer is signed by that key now")
    }

    /// A build without a key after signed ones (the key not set on this machine, a site that
    /// lists no public_keys) dropped the signatures with only the warning any unsigned build gets.
    @Test func signaturesDroppedFromASignedOutputAreWarnedAbout() async throws {
        let site = try await Site()
        try site.build()
        var options = site.options()
        options.signingKeyFile = nil
        let builder = SiteBuilder(options: options)
        _ = try builder.build()
        let warning = builder.diagnostics.items.filter { $0.message.hasPrefix("this build's packs are unsigned, but those the output publishes now are signed (key ") }
        #expect(warning.count == 1, "\(builder.diagnostics.items.map(\.message))")
        #expect(warning.first?.location?.path == "content/site.yml")
        // Unsigned on purpose (--unsigned: a check, never deployed) after a signed build: not said.
        try site.build()
        #expect(FileManager.default.fileExists(atPath: site.packs + "/latest.json.sig"))
        options.allowsUnsignedPacks = true
        let unsigned = SiteBuilder(options: options)
        _ = try unsigned.build()
        #expect(!unsigned.diagnostics.items.contains { $0.message.hasPrefix("this build's packs are unsigned") })
    }

    /// Two ways to name the key: `--unsigned` with `--signing-key` is a usage error (the key was
    /// dropped without a word), and `--signing-key` beside `BESTIARY_SIGNING_KEY` says which signs.
    @Test func theKeysOptionsSayWhichKeySigns() async throws {
        let site = try await Site()
        let both = try Binary.run(["build", "--root", site.root, "--unsigned", "--signing-key", site.keyFile])
        #expect(both.status == 2)
        #expect(both.stderr.contains("--unsigned builds packs without a signature, and --signing-key names the key to sign them with: give one of the two"), "\(both.stderr)")
        let other = try Binary.run(["keys", "generate"]).stdout
        let envKey = try #require(other.split(separator: "\n").first { $0.hasPrefix("private-key: ") }?.dropFirst(13))
        // By the real clock (the pointer's expiry is checked by it), as the file's other builds.
        let built = try Binary.run(
            ["build", "--root", site.root, "--signing-key", site.keyFile], environment: ["BESTIARY_SIGNING_KEY": String(envKey), "SOURCE_DATE_EPOCH": ""])
        #expect(built.status == 0, "\(built.stderr)")
        #expect(built.stderr.contains("note: the key in \(site.keyFile) (--signing-key) signs the packs; BESTIARY_SIGNING_KEY is not used"), "\(built.stderr)")
        let verify = try Binary.run(["pack", "verify", site.packs, "--public-key", site.publicKey])
        #expect(verify.status == 0, "\(verify.stderr)")
        // A key for a site that makes no packs is said to be unused (it was dropped without a word).
        let yml = site.root + "/content/site.yml"
        let text = try String(contentsOfFile: yml, encoding: .utf8)
        let withoutPacks = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("packs:") }.joined(separator: "\n")
        #expect(withoutPacks != text)
        try withoutPacks.writeReplacing(toFile: yml)
        let unused = try Binary.run(["build", "--root", site.root, "--signing-key", site.keyFile], environment: ["SOURCE_DATE_EPOCH": ""])
        #expect(unused.status == 0, "\(unused.stderr)")
        #expect(unused.stderr.contains("note: --signing-key \(site.keyFile) is not used: site.yml has no packs section, so no content pack is made or signed;"), "\(unused.stderr)")
    }

    @Test func aBadSigningKeyFailsTheBuildAndKeepsTheOutput() async throws {
        let site = try await Site()
        try site.build()
        let before = try Tree(site.root + "/output")
        try "private-key: not-base64!\n".writeReplacing(toFile: site.keyFile)
        try site.rename("bear", from: "name: {en: Bear, de: Bär}", to: "name: {en: Brown bear, de: Braunbär}")
        do {
            try site.build()
            Issue.record("a damaged key file should fail the build")
        } catch {
            let first = try #require(error.diagnostics.first)
            #expect(first.stage == "packs")
            #expect(first.location?.path == site.keyFile && first.location?.line == 1, "\(first)")
        }
        #expect(try Tree(site.root + "/output") == before)
    }

    @Test func withoutAKeyThePacksAreUnsignedAndTheBuildSaysSo() throws {
        let dir = TemporaryDirectory("bestiary-build-packs")
        let root = dir.appending("site")
        try Fixtures.copy("sites/tuxpaint", to: root)
        let builder = SiteBuilder(options: BuildOptions(root: root, environment: [:]))
        let report = try builder.build()
        #expect(report.stages.first { $0.name == "packs" }?.detail.hasSuffix("66 records, unsigned") == true)
        #expect(builder.diagnostics.items.contains { $0.severity == .warning && $0.message.hasPrefix("packs are not signed") })
        #expect(!FileManager.default.fileExists(atPath: root + "/output/packs/latest.json.sig"))
        #expect(FileManager.default.fileExists(atPath: root + "/output/packs/latest.json"))
    }

    /// A sync that may succeed when run again later as it is exits 75 (EX_TEMPFAIL), not 1 as a
    /// refusal does: an app maker's cron job could not tell a server that was down from a forged
    /// pack. A pointer missing at the address given is a wrong address, not a wait.
    @Test func aSyncThatMaySucceedLaterExitsWithTempfail() async throws {
        let site = try await Site()
        try site.build()
        let db = site.dir.appending("app.sqlite")
        // A media file the signed manifest names, not uploaded yet.
        let media = try #require(try FileManager.default.contentsOfDirectory(atPath: site.packs + "/media").sorted().first)
        let aside = site.dir.appending("aside")
        try FileManager.default.moveItem(atPath: site.packs + "/media/" + media, toPath: aside)
        let missing = await SiteCommandRun.bestiary("sync", site.packs, "--db", db, "--public-key", site.publicKey)
        #expect(missing.status == 75, "\(missing.stderr)")
        #expect(missing.stderr.contains("media/\(media): not found at"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db))
        try FileManager.default.moveItem(atPath: aside, toPath: site.packs + "/media/" + media)
        // Nobody answers at the address (port 1 on loopback refuses the connection).
        let down = await SiteCommandRun.bestiary("sync", "http://127.0.0.1:1/packs", "--db", db, "--public-key", site.publicKey)
        #expect(down.status == 75, "\(down.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db))
        // No pointer at the address: said with exit 1.
        try FileManager.default.createDirectory(atPath: site.dir.appending("no-packs-here"), withIntermediateDirectories: true)
        let nowhere = await SiteCommandRun.bestiary("sync", site.dir.appending("no-packs-here"), "--db", db, "--public-key", site.publicKey)
        #expect(nowhere.status == 1, "\(nowhere.stderr)")
        // A refusal: 1.
        let other = try #require(String(data: try Data(contentsOf: URL(fileURLWithPath: site.packs + "/latest.json")), encoding: .utf8))
        try other.replacingOccurrences(of: "\"expires\"", with: " \"expires\"").writeReplacing(toFile: site.packs + "/latest.json")
        let forged = await SiteCommandRun.bestiary("sync", site.packs, "--db", db, "--public-key", site.publicKey)
        #expect(forged.status == 1 && forged.stderr.contains("refused: latest.json"), "\(forged.stderr)")
    }

    /// A signed pack synced with no key to check it by is refused: taken unchecked, the store
    /// remembered no key and checked no later version either (an app developer's find; before,
    /// it was taken with a warning).
    @Test func aSignedPackSyncedWithoutAKeyIsRefused() async throws {
        let site = try await Site()
        try site.build()
        let db = site.dir.appending("app.sqlite")
        let sync = await SiteCommandRun.bestiary("sync", site.packs, "--db", db)
        #expect(sync.status == 1, "\(sync.stderr)")
        #expect(sync.stderr.contains("error: refused: latest.json.sig: the pack is signed, but no key to check it with was given: give the publisher's public key"), "\(sync.stderr)")
        #expect(!sync.stderr.contains("signatures are not checked"), "\(sync.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db), "no store is left behind")
        let checked = await SiteCommandRun.bestiary("sync", site.packs, "--db", site.dir.appending("checked.sqlite"), "--public-key", site.publicKey)
        #expect(checked.stdout.contains("by full manifest, signed by key "), "\(checked.stdout)")
    }

    /// `sync` and `pack verify` without `--public-key` trust the keys the site under `--root`
    /// lists: an unsigned pack is refused, not accepted with a warning.
    @Test func syncAndVerifyTrustTheSitesPublicKeys() async throws {
        let site = try await Site()
        _ = try SiteBuilder(options: BuildOptions(root: site.root, environment: [:], time: site.now)).build()  // no key: unsigned
        let yml = site.root + "/content/site.yml"
        let text = try String(contentsOfFile: yml, encoding: .utf8)
        #expect(text.contains("packs: {id: tuxpaint"))
        try text.replacingOccurrences(of: "packs: {id: tuxpaint", with: "packs: {public_keys: [\"\(site.publicKey)\"], id: tuxpaint")
            .writeReplacing(toFile: yml)
        let db = site.dir.appending("app.sqlite")
        let sync = await SiteCommandRun.bestiary("sync", site.packs, "--db", db, "--root", site.root)
        #expect(sync.status == 1, "\(sync.stdout)\(sync.stderr)")
        #expect(!sync.stderr.contains("signatures are not checked"), "\(sync.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db), "a store the failed sync made is removed")
        let verify = await SiteCommandRun.bestiary("pack", "verify", site.packs, "--root", site.root)
        #expect(verify.status == 1, "\(verify.stdout)\(verify.stderr)")
        // A site.yml with an error: its keys cannot be read, and the commands say so instead of
        // trusting none.
        try (try String(contentsOfFile: yml, encoding: .utf8) + "titel: typo\n").writeReplacing(toFile: yml)
        for broken in [
            await SiteCommandRun.bestiary("sync", site.packs, "--db", db, "--root", site.root),
            await SiteCommandRun.bestiary("pack", "verify", site.packs, "--root", site.root),
        ] {
            #expect(broken.status == 1)
            #expect(broken.stderr.contains("site.yml has errors, so the keys it lists in packs.public_keys cannot be read"), "\(broken.stderr)")
        }
        // A --root that is no site is refused (it checked no signature: a typo must not turn the
        // check off); a site listing no keys gives the warning (PackCommandTests).
        let anywhere = await SiteCommandRun.bestiary("sync", site.packs, "--db", db, "--root", site.dir.path)
        #expect(anywhere.status == 1, "\(anywhere.stderr)")
        #expect(anywhere.stderr.contains("is not a site root (no content/site.yml under it)"), "\(anywhere.stderr)")
    }
}

/// A quiz no round can start was said by `check` alone: a volunteer's `build` of two animals with
/// four answers a question published it without a word.
@Suite struct BuildQuizWarningTests {
    @Test func aBuildSaysThatNoQuizRoundCanStart() throws {
        let dir = TemporaryDirectory("bestiary-build-quiz")
        let root = dir.appending("site")
        try Fixtures.copy("sites/tuxpaint", to: root)
        let builder = SiteBuilder(options: BuildOptions(root: root, environment: [:]))
        _ = try builder.build()
        #expect(!builder.diagnostics.items.contains { $0.message.contains("no round can start") })
        // Four answers a question, and all but two animals taken out.
        let animals = root + "/content/animals"
        for name in try FileManager.default.contentsOfDirectory(atPath: animals).sorted().dropFirst(2) {
            try FileManager.default.removeItem(atPath: animals + "/" + name)
        }
        let second = SiteBuilder(options: BuildOptions(root: root, environment: [:]))
        _ = try second.build()
        let warning = second.diagnostics.items.first { $0.message.contains("no round can start") }
        #expect(warning?.severity == .warning && warning?.location?.path == "content/site.yml", "\(second.diagnostics.items.map(\.message))")
    }
}

/// A record's file renamed gave its animal a new id, and its learners' progress and apps' record
/// were lost without a word (a volunteer tidying file names): the build that publishes it, and
/// `check` before it, say so with the `id:` that keeps the old one; the build after says nothing.
@Suite struct RenamedRecordTests {
    @Test func aRenamedRecordIsSaidOnceWithTheIdThatKeepsIt() async throws {
        let dir = TemporaryDirectory("bestiary-renamed")
        let root = dir.appending("site")
        try Fixtures.copy("sites/tuxpaint", to: root)
        func build() throws -> [String] {
            let builder = SiteBuilder(options: BuildOptions(root: root, environment: [:]))
            _ = try builder.build()
            return builder.diagnostics.items.filter { $0.message.contains("a renamed file?") }.map { "\($0.location?.path ?? ""): \($0.message)" }
        }
        #expect(try build().isEmpty)
        let animals = root + "/content/animals/"
        try FileManager.default.moveItem(atPath: animals + "badger.md", toPath: animals + "european-badger.md")
        for name in try FileManager.default.contentsOfDirectory(atPath: animals) where name.hasPrefix("badger.") {
            try FileManager.default.moveItem(atPath: animals + name, toPath: animals + "european-" + name)
        }
        let said = "content/animals/european-badger.md: 'european-badger' is new and 'badger', named 'Badger' too, is gone since the last build: a renamed file? Learners' progress and favourites, links to its page and apps' records know it as 'badger', and lose it under a new id; to keep them, write `id: badger` in content/animals/european-badger.md"
        let check = await SiteCommandRun.bestiary("check", "--root", root)
        #expect(check.stderr.contains("content/animals/european-badger.md:1:1: warning: 'european-badger' is new and 'badger'"), "\(check.stderr)")
        #expect(try build() == [said])
        // Published: the next build has nothing to say (the output has no page for 'badger'), also
        // when the record files change again (another record added: the output is looked at).
        try "---\nname: {en: Generated newt}\n---\n".write(toFile: animals + "newt.md", atomically: true, encoding: .utf8)
        #expect(try build().isEmpty)
    }

    /// `build --force` renders everything anew but still replaces the output the rename is seen
    /// in (it was skipped), and `check --output` looks at an output built elsewhere.
    @Test func forceAndAnOutputElsewhereSeeTheRenameToo() async throws {
        let dir = TemporaryDirectory("bestiary-renamed-force")
        let root = dir.appending("site")
        let output = dir.appending("public")
        try Fixtures.copy("sites/tuxpaint", to: root)
        func build(force: Bool) throws -> [String] {
            var options = BuildOptions(root: root, output: output, environment: [:])
            options.force = force
            let builder = SiteBuilder(options: options)
            _ = try builder.build()
            return builder.diagnostics.items.filter { $0.message.contains("a renamed file?") }.map(\.message)
        }
        #expect(try build(force: false).isEmpty)
        let animals = root + "/content/animals/"
        try FileManager.default.moveItem(atPath: animals + "badger.md", toPath: animals + "european-badger.md")
        let atDefault = await SiteCommandRun.bestiary("check", "--root", root)
        #expect(!atDefault.stderr.contains("a renamed file?"), "\(atDefault.stderr)")
        let elsewhere = await SiteCommandRun.bestiary("check", "--root", root, "--output", output)
        #expect(elsewhere.stderr.contains("content/animals/european-badger.md:1:1: warning: 'european-badger' is new and 'badger'"), "\(elsewhere.stderr)")
        #expect(try build(force: true).count == 1)
    }

    /// Files renamed by the dozen (a site's names put into English): five said, the rest counted.
    @Test func aMassRenamingIsCountedAfterFive() throws {
        let dir = TemporaryDirectory("bestiary-renamed-many")
        let root = dir.appending("site")
        try Fixtures.copy("sites/tuxpaint", to: root)
        _ = try SiteBuilder(options: BuildOptions(root: root, environment: [:])).build()
        let animals = root + "/content/animals/"
        let names = try FileManager.default.contentsOfDirectory(atPath: animals).filter { $0.hasSuffix(".md") && $0.split(separator: ".").count == 2 }.sorted().prefix(8)
        for name in names {
            for file in try FileManager.default.contentsOfDirectory(atPath: animals) where file.hasPrefix(name.dropLast(3) + ".") {
                try FileManager.default.moveItem(atPath: animals + file, toPath: animals + "renamed-" + file)
            }
        }
        let builder = SiteBuilder(options: BuildOptions(root: root, environment: [:]))
        _ = try builder.build()
        let said = builder.diagnostics.items.filter { $0.message.contains("renamed file") }.map(\.message)
        #expect(said.count == 6, "\(said)")
        #expect(said.last?.hasPrefix("3 more new records have the name of one gone since the last build") == true, "\(said)")
    }
}

/// `--output /var/www/birds` put the build's kept state, a copy of the last output among it,
/// beside the published site in the web root (a deploy trial served it): said when the folder
/// around the output holds an index.html, and not otherwise.
@Suite struct OutputInAWebRootTests {
    @Test func anOutputBesideAnIndexPageIsWarnedAbout() throws {
        let dir = TemporaryDirectory("bestiary-webroot")
        let root = dir.appending("site")
        try Fixtures.copy("sites/tuxpaint", to: root)
        func said(_ output: String) throws -> [String] {
            let builder = SiteBuilder(options: BuildOptions(root: root, output: output, environment: [:]))
            _ = try builder.build()
            return builder.diagnostics.items.filter { $0.message.contains("also holds an index.html") }.map(\.message)
        }
        try FileManager.default.createDirectory(atPath: dir.appending("build"), withIntermediateDirectories: true)
        #expect(try said(dir.appending("build/birds")).isEmpty)
        try FileManager.default.createDirectory(atPath: dir.appending("www"), withIntermediateDirectories: true)
        try "<p>The museum</p>\n".write(toFile: dir.appending("www/index.html"), atomically: true, encoding: .utf8)
        let warning = try said(dir.appending("www/birds"))
        #expect(warning == ["\(dir.appending("www")), which holds the output, also holds an index.html: a build keeps what the next one reuses beside its output (.birds.bestiary-*, a copy of the last output among them), so if that folder is published, they are too; build into a folder of its own and copy the output where it is served"])
    }
}
