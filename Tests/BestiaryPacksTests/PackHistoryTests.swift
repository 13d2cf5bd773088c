import BestiaryPackFormat
import BestiaryPacks
import BestiarySync
import BestiaryTestSupport
import BestiaryCrypto
import Foundation
import Testing

/// Six catalogue versions with additions, edits, deletions and media changes, built by the
/// producer, served over real HTTP; a store synced from any earlier version, or from empty,
/// must end exactly like a fresh full sync.
@Suite struct PackHistoryTests {
    /// Builds versions 1…6 of a generated catalogue; returns the site and a snapshot of the
    /// published tree after each version (index = version).
    static func sixVersions(keepDeltas: Int, key: Curve25519.Signing.PrivateKey) throws -> (TestSite, [TemporaryDirectory]) {
        let site = try TestSite(packs: "{id: history, keep_deltas: \(keepDeltas), expires_days: 3650}")
        var builder = SiteBuilder(root: site.root, keys: [key])
        var snapshots: [TemporaryDirectory] = []
        func publish(_ n: Int, expectNew: Bool = true) throws {
            let output = try builder.build(now: day(n))
            #expect(output.isNewVersion == expectNew)
            if expectNew {
                #expect(output.version == snapshots.count + 1)
                let copy = TemporaryDirectory("bestiary-v\(output.version)")
                try builder.snapshot(into: copy.path)
                snapshots.append(copy)
            }
        }
        // 1: four animals.
        try site.standardAnimal("bear", name: "Generated bear", sound: 1, image: 2)
        try site.standardAnimal("cat", name: "Generated cat", sound: 3)
        try site.standardAnimal("deer", name: "Generated deer", image: 4)
        try site.standardAnimal("eel", name: "Generated eel")
        try publish(1)
        // 2: an addition and an edit.
        try site.standardAnimal("fox", name: "Generated fox", sound: 5, image: 6)
        try site.standardAnimal("cat", name: "Generated cat, edited", sound: 3)
        try publish(2)
        // 3: a deletion and a media change (same path, new bytes).
        try site.remove("content/animals/deer.md")
        try site.media("sounds/bear.ogg", GeneratedMedia.ogg(11))
        try publish(3)
        // No change: no version.
        try publish(4, expectNew: false)
        // 4: a new picture, a translated body, a description.
        try site.standardAnimal("gnu", name: "Generated gnu", image: 7)
        try site.translation("fox", "de", "Ein erzeugter Fuchs.\n")
        try site.standardAnimal("eel", name: "Generated eel", extra: "description: {en: A generated eel.}")
        try publish(5)
        // 5: two deletions; a new record reuses another's picture (one file, two records).
        try site.remove("content/animals/bear.md")
        try site.remove("content/animals/cat.md")
        try site.animal("hare", "name: {en: Generated hare}\nimage: {file: images/fox.png, focus: \"1% 2%\"}")
        try publish(6)
        // 6: texts (a summary with a new revision) and a changed crop.
        builder.texts = ["gnu": ["en": PackText(source: .wikipedia, text: "Gnus are generated.", url: "https://en.wikipedia.org/wiki/Gnu", license: "CC BY-SA 4.0", revision: "2")]]
        try site.animal("hare", "name: {en: Generated hare}\nimage: {file: images/fox.png, focus: \"3% 4%\"}")
        try publish(7)
        #expect(snapshots.count == 6)
        return (site, snapshots)
    }

    @Test(arguments: [10, 2])
    func syncingFromAnyEarlierVersionEndsLikeAFreshSync(keepDeltas: Int) async throws {
        let key = Curve25519.Signing.PrivateKey()
        let publicKey = PackPublicKey(key.publicKey)
        let (site, snapshots) = try Self.sixVersions(keepDeltas: keepDeltas, key: key)
        let lock = try PackLock.parse(Data(contentsOf: URL(fileURLWithPath: site.directory.appending("content/packs.lock"))))
        #expect(lock.versions.map(\.number) == [1, 2, 3, 4, 5, 6])

        let servedRoot = TemporaryDirectory("bestiary-served")
        let server = try await PackServer.start(root: servedRoot.path)
        func serve(_ version: Int) throws {
            try? FileManager.default.removeItem(atPath: servedRoot.path)
            try FileManager.default.copyItem(atPath: snapshots[version - 1].path, toPath: servedRoot.path)
        }
        let stores = TemporaryDirectory("bestiary-stores")
        func sync(_ db: String) async throws -> SyncReport {
            try await SyncClient(
                transport: URLSessionPackTransport(baseURL: URL(string: server.url)!), store: PackStore(path: db),
                configuration: .init(trustedKeys: [publicKey], now: { day(8) })
            ).sync()
        }
        do {
            // A store synced fresh at every version 1…5 while it was the newest, and one that
            // followed the whole history version by version.
            let chain = stores.appending("chain.sqlite")
            for version in 1...5 {
                try serve(version)
                let report = try await sync(stores.appending("from-\(version).sqlite"))
                #expect(report.toVersion == version && report.method == .full)
                let chained = try await sync(chain)
                #expect(chained.method == (version == 1 ? .full : .delta(from: version - 1)))
            }
            try serve(6)
            let fresh = stores.appending("fresh.sqlite")
            let freshReport = try await sync(fresh)
            #expect(freshReport.method == .full)
            let expected = try StoreSnapshot(fresh)
            #expect(expected.state.version == 6)
            #expect(expected.records.map(\.id) == ["eel", "fox", "gnu", "hare"])
            #expect(expected.media.count == 3, "fox.ogg, fox.png (shared with hare), gnu.png; eel has none")

            for start in 1...5 {
                let db = stores.appending("from-\(start).sqlite")
                #expect(try PackStore(path: db).state().version == start)
                let report = try await sync(db)
                let deltaAvailable = 6 - start <= keepDeltas
                #expect(report.method == (deltaAvailable ? .delta(from: start) : .full), "from \(start)")
                #expect(try StoreSnapshot(db) == expected, "from version \(start)")
            }
            let chained = try await sync(chain)
            #expect(chained.method == .delta(from: 5))
            #expect(try StoreSnapshot(chain) == expected, "the store that followed every version")
            let empty = stores.appending("from-empty.sqlite")
            _ = try await sync(empty)
            #expect(try StoreSnapshot(empty) == expected)
            // The command line agrees.
            let (version, records) = try await dump(fresh)
            #expect(version == 6 && records == lock.latestRevisions)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// `pack verify --root SITE` compares the tree with the site's `content/packs.lock`: a tree
    /// built from another history (a branch, a lock taken back) is signed and whole, and passed,
    /// though every app that had the recorded version refused it as republished; a delta that
    /// does not turn the recorded version it starts from into the manifest's records passed as
    /// long as its own claims (count, digest) were the manifest's.
    @Test func verifyComparesTheTreeWithTheSitesHistory() async throws {
        let key = Curve25519.Signing.PrivateKey()
        let publicKey = PackKeys.base64(key.publicKey)
        let (site, snapshots) = try Self.sixVersions(keepDeltas: 3, key: key)
        for (n, snapshot) in snapshots.enumerated() {
            let result = await runCLI(["pack", "verify", snapshot.path, "--public-key", publicKey, "--root", site.root])
            #expect(result.status == 0, "version \(n + 1): \(result.stderr)")
            #expect(result.stdout.hasSuffix(", compared with content/packs.lock: OK"), "\(result.stdout)")
            let behind = "note: content/packs.lock records versions up to 6, but the tree publishes \(n + 1): the newest build is not deployed yet [verify]"
            #expect(result.stderr.contains(behind) == (n < 5), "\(result.stderr)")
        }
        // Another site's history of the same pack: its version 1 has other records.
        let other = try TestSite(packs: "{id: history, keep_deltas: 3, expires_days: 3650}")
        try other.standardAnimal("bear", name: "Generated bear, another branch", sound: 1, image: 2)
        _ = try SiteBuilder(root: other.root, keys: [key]).build(now: day(1))
        let branch = await runCLI(["pack", "verify", snapshots[0].path, "--public-key", publicKey, "--root", other.root])
        #expect(branch.status == 1)
        #expect(branch.stderr.contains("v/1.json:1:1: error: is version 1 with other records than content/packs.lock records for it (state "), "\(branch.stderr)")
        #expect(branch.stderr.contains("the tree and the lock come from different histories (a branch, a lock taken back, a tree built elsewhere); an app that has one of the two versions 1 refuses the other as republished [verify]"), "\(branch.stderr)")
        let ahead = await runCLI(["pack", "verify", snapshots[5].path, "--public-key", publicKey, "--root", other.root])
        #expect(ahead.status == 0 && ahead.stderr.contains("note: content/packs.lock records versions up to 1, not version 6, which the tree publishes: not compared"), "\(ahead.stderr)")
        #expect(!ahead.stdout.contains("compared with"), "\(ahead.stdout)")
        // Another pack: not compared, said only when --root was given.
        let elsewhere = try TestSite(packs: "{id: elsewhere, keep_deltas: 3, expires_days: 3650}")
        try elsewhere.standardAnimal("eel", name: "Generated eel")
        _ = try SiteBuilder(root: elsewhere.root, keys: [key]).build(now: day(1))
        let unrelated = await runCLI(["pack", "verify", snapshots[5].path, "--public-key", publicKey, "--root", elsewhere.root])
        #expect(unrelated.status == 0 && unrelated.stderr.contains("note: the tree is pack 'history', content/packs.lock records pack 'elsewhere': not compared"), "\(unrelated.stderr)")
        // A delta that leaves out one of its changes, signed by the publisher, its claims intact.
        let tree = snapshots[5].path
        let pointerData = try Data(contentsOf: URL(fileURLWithPath: tree + "/latest.json"))
        var pointer = try #require(try JSONParser.parse(pointerData).objectValue)
        let refs = try #require(pointer["deltas"]?.arrayValue)
        let ref = try #require(refs.first { $0["from"]?.integerValue == 5 })
        let path = try #require(ref["path"]?.stringValue)
        var delta = try #require(try JSONParser.parse(Data(contentsOf: URL(fileURLWithPath: tree + "/" + path))).objectValue)
        let upserts = try #require(delta["upserts"]?.arrayValue)
        #expect(!upserts.isEmpty)
        let left = try #require(upserts.last?["id"]?.stringValue)
        delta["upserts"] = .array(Array(upserts.dropLast()))
        let deltaData = JSONValue.object(delta).canonicalData
        try deltaData.write(to: URL(fileURLWithPath: tree + "/" + path))
        try PackSignature.sign(deltaData, with: [key]).write(to: URL(fileURLWithPath: tree + "/" + path + ".sig"))
        pointer["deltas"] = .array(refs.map { r in
            guard r["path"]?.stringValue == path, var o = r.objectValue else { return r }
            o["sha256"] = .string(PackDigest.sha256(deltaData))
            o["bytes"] = .integer(Int64(deltaData.count))
            return .object(o)
        })
        let newPointer = JSONValue.object(pointer).canonicalData
        try newPointer.write(to: URL(fileURLWithPath: tree + "/latest.json"))
        try PackSignature.sign(newPointer, with: [key]).write(to: URL(fileURLWithPath: tree + "/latest.json.sig"))
        let alone = await runCLI(["pack", "verify", "--root", PackCommandTests.noHistoryRoot, tree, "--public-key", publicKey])
        #expect(alone.status == 0, "without the history the delta's own claims hold: \(alone.stderr)")
        let compared = await runCLI(["pack", "verify", tree, "--public-key", publicKey, "--root", site.root])
        #expect(compared.status == 1)
        #expect(compared.stderr.contains("\(path):1:1: error: does not turn version 5, as content/packs.lock records it, into version 6: '\(left)' keeps its rev of version 5;"), "\(compared.stderr)")
    }

    /// The same records built twice, on a branch a day later: one state digest, two manifests
    /// (their `created` differs), and an app that has the recorded version 1 refuses the other as
    /// republished; `verify --root` passed it (an app developer's). A delta whose `created` is not
    /// its manifest's passed too.
    @Test func verifyComparesWhenTheRecordedVersionWasMade() async throws {
        let key = Curve25519.Signing.PrivateKey()
        let publicKey = PackKeys.base64(key.publicKey)
        func site() throws -> TestSite {
            let site = try TestSite(packs: "{id: history, keep_deltas: 3, expires_days: 3650}")
            try site.standardAnimal("bear", name: "Generated bear", sound: 1, image: 2)
            return site
        }
        let main = try site(), branch = try site()
        var mainBuilder = SiteBuilder(root: main.root, keys: [key])
        _ = try mainBuilder.build(now: day(1))
        var branchBuilder = SiteBuilder(root: branch.root, keys: [key])
        _ = try branchBuilder.build(now: day(2))
        let tree = TemporaryDirectory("bestiary-branch")
        try branchBuilder.snapshot(into: tree.path)
        let same = await runCLI(["pack", "verify", tree.path, "--public-key", publicKey, "--root", branch.root])
        #expect(same.status == 0, "\(same.stderr)")
        let other = await runCLI(["pack", "verify", tree.path, "--public-key", publicKey, "--root", main.root])
        #expect(other.status == 1)
        #expect(other.stderr.contains("v/1.json:1:1: error: is version 1 made at 2026-01-03T00:00:00Z, but content/packs.lock records version 1 made at 2026-01-02T00:00:00Z: the same records built twice"), "\(other.stderr)")

        // Version 2 with a delta from 1, whose `created` is changed and signed again.
        try main.standardAnimal("cat", name: "Generated cat", sound: 3)
        _ = try mainBuilder.build(now: day(3))
        let second = TemporaryDirectory("bestiary-v2")
        try mainBuilder.snapshot(into: second.path)
        let deltaPath = second.path + "/" + PackFormat.deltaPath(from: 1, to: 2)
        var delta = try #require(try JSONParser.parse(Data(contentsOf: URL(fileURLWithPath: deltaPath))).objectValue)
        delta["created"] = "2026-01-05T00:00:00Z"
        let deltaData = JSONValue.object(delta).canonicalData
        try deltaData.write(to: URL(fileURLWithPath: deltaPath))
        try PackSignature.sign(deltaData, with: [key]).write(to: URL(fileURLWithPath: deltaPath + ".sig"))
        var pointer = try #require(try JSONParser.parse(Data(contentsOf: URL(fileURLWithPath: second.path + "/latest.json"))).objectValue)
        pointer["deltas"] = .array(try #require(pointer["deltas"]?.arrayValue).map { ref in
            guard var o = ref.objectValue else { return ref }
            o["sha256"] = .string(PackDigest.sha256(deltaData))
            o["bytes"] = .integer(Int64(deltaData.count))
            return .object(o)
        })
        let pointerData = JSONValue.object(pointer).canonicalData
        try pointerData.write(to: URL(fileURLWithPath: second.path + "/latest.json"))
        try PackSignature.sign(pointerData, with: [key]).write(to: URL(fileURLWithPath: second.path + "/latest.json.sig"))
        let altered = await runCLI(["pack", "verify", "--root", PackCommandTests.noHistoryRoot, second.path, "--public-key", publicKey])
        #expect(altered.status == 1, "\(altered.stdout)")
        #expect(altered.stderr.contains("error: says version 2 was made at 2026-01-05T00:00:00Z, the manifest at 2026-01-04T00:00:00Z"), "\(altered.stderr)")
    }

    @Test func everyPublishedTreeVerifies() async throws {
        let key = Curve25519.Signing.PrivateKey()
        let (_, snapshots) = try Self.sixVersions(keepDeltas: 3, key: key)
        for (n, snapshot) in snapshots.enumerated() {
            let result = await runCLI(["pack", "verify", "--root", PackCommandTests.noHistoryRoot, snapshot.path, "--public-key", PackKeys.base64(key.publicKey)])
            #expect(result.status == 0, "version \(n + 1): \(result.stderr)")
            #expect(result.stdout.contains("pack 'history' version \(n + 1)") && result.stdout.hasSuffix(": OK"), "\(result.stdout)")
        }
        // One tampered byte anywhere is named.
        let last = snapshots[5].path
        let media = try FileManager.default.contentsOfDirectory(atPath: last + "/media").sorted()[0]
        var bytes = try Data(contentsOf: URL(fileURLWithPath: last + "/media/" + media))
        bytes[bytes.count / 2] ^= 1
        try bytes.write(to: URL(fileURLWithPath: last + "/media/" + media))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: last + "/d/5-6.json"))
        let result = await runCLI(["pack", "verify", "--root", PackCommandTests.noHistoryRoot, last, "--public-key", PackKeys.base64(key.publicKey)])
        #expect(result.status == 1)
        #expect(result.stderr.contains("media/\(media):1:1: error: its SHA-256 is"), "\(result.stderr)")
        #expect(result.stderr.contains("d/5-6.json:1:1: error: has 2 bytes"), "\(result.stderr)")
        #expect(result.stderr.contains("d/5-6.json:1:1: error: bad signature"), "\(result.stderr)")
        #expect(result.stdout.contains("3 problems"), "\(result.stdout)")
        let wrongKey = await runCLI(["pack", "verify", "--root", PackCommandTests.noHistoryRoot, snapshots[0].path, "--public-key", PackKeys.generate().publicKey])
        #expect(wrongKey.status == 1 && wrongKey.stderr.contains("latest.json:1:1: error: signed by key"), "\(wrongKey.stderr)")
    }
}
