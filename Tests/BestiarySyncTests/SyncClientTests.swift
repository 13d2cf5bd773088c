import BestiaryPackFormat
import BestiarySync
import BestiaryTestSupport
import BestiaryCrypto
import Foundation
import GRDB
import Testing

/// The client against real HTTP on 127.0.0.1, with packs made by PackWriter from generated records.
@Suite struct SyncClientTests {
    static let zoo: [String: GeneratedAnimal] = [
        "bear": GeneratedAnimal(name: "Generated bear", media: [generatedMedia(1)]),
        "owl": GeneratedAnimal(name: "Generated owl", media: [generatedMedia(2), generatedMedia(3, size: 5000)]),
        "yak": GeneratedAnimal(name: "Generated yak"),
    ]

    struct Setup {
        let publisher: TestPublisher
        let server: PackServer
        let storeDirectory = TemporaryDirectory("bestiary-store")
        var storePath: String { storeDirectory.appending("store.sqlite") }

        func store() throws -> PackStore { try PackStore(path: storePath) }

        func client(_ configuration: SyncClient.Configuration? = nil) throws -> SyncClient {
            SyncClient(
                transport: URLSessionPackTransport(baseURL: URL(string: server.url)!), store: try store(),
                configuration: configuration ?? .testing(keys: [publisher.publicKey]))
        }

        /// A store synced from nothing, in a directory of its own.
        func freshSnapshot() async throws -> StoreSnapshot {
            let dir = TemporaryDirectory("bestiary-fresh")
            let store = try PackStore(path: dir.appending("fresh.sqlite"))
            _ = try await SyncClient(
                transport: URLSessionPackTransport(baseURL: URL(string: server.url)!), store: store,
                configuration: .testing(keys: [publisher.publicKey])
            ).sync()
            return try StoreSnapshot(store)
        }
    }

    static func setup(_ animals: [String: GeneratedAnimal] = zoo) async throws -> Setup {
        let publisher = TestPublisher()
        try publisher.publish(animals)
        return Setup(publisher: publisher, server: try await PackServer.start(root: publisher.root))
    }

    /// Runs `body`, then stops the server (also when `body` throws).
    static func run(_ setup: @autoclosure () async throws -> Setup, _ body: (Setup) async throws -> Void) async throws {
        let s = try await setup()
        do {
            try await body(s)
        } catch {
            await s.server.stop()
            throw error
        }
        await s.server.stop()
    }

    /// Runs a sync that must be refused for `reason`, and checks the store did not change.
    static func expectRefusal(
        _ reason: SyncError.Reason, _ setup: Setup, configuration: SyncClient.Configuration? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> SyncError? {
        let before = try StoreSnapshot(try setup.store())
        let client = try setup.client(configuration)
        do {
            let report = try await client.sync()
            Issue.record("sync succeeded (\(report)) but should be refused for \(reason)", sourceLocation: sourceLocation)
            return nil
        } catch {
            #expect(error.reason == reason, "\(error)", sourceLocation: sourceLocation)
            #expect(try StoreSnapshot(try setup.store()) == before, "the store changed", sourceLocation: sourceLocation)
            return error
        }
    }

    @Test func firstSyncStoresEverythingThenIsUpToDate() async throws {
        try await Self.run(try await Self.setup()) { s in
            let report = try await s.client().sync()
            #expect(report.method == .full)
            #expect(report.toVersion == 1 && report.fromVersion == 0)
            #expect(report.recordsUpserted == 3 && report.mediaDownloaded == 3)
            #expect(report.signedBy == s.publisher.publicKey.keyID)
            let store = try s.store()
            #expect(try store.revisions() == s.publisher.versions[1])
            #expect(try store.mediaData(sha256: PackDigest.sha256(generatedMedia(3, size: 5000))) == generatedMedia(3, size: 5000))
            let owl = try #require(try store.record(id: "owl"))
            #expect(owl.payloadValue?["name"]?["en"] == "Generated owl")
            #expect(owl.media.count == 2)
            #expect(try store.state().trustedKeys == [s.publisher.publicKey.base64])
            #expect(!FileManager.default.fileExists(atPath: s.storePath + ".downloads"), "staging folder cleaned up")

            let again = try await s.client().sync()
            #expect(again.method == .upToDate)
            #expect(s.server.requests("v/1.json").count == 1, "the manifest is not fetched again")
        }
    }

    @Test func deltaFetchesOnlyWhatChangedAndEndsLikeAFreshSync() async throws {
        try await Self.run(try await Self.setup()) { s in
            _ = try await s.client().sync()
            var zoo = Self.zoo
            zoo["owl"]!.name = "Generated owl, renamed"
            zoo["yak"] = nil
            zoo["fox"] = GeneratedAnimal(name: "Generated fox", media: [generatedMedia(4), generatedMedia(1)])
            zoo["bear"]!.media = []
            try s.publisher.publish(zoo)
            let report = try await s.client().sync()
            #expect(report.method == .delta(from: 1))
            #expect(report.recordsUpserted == 3 && report.recordsDeleted == 1)
            #expect(report.mediaDownloaded == 1, "only the new sound; media 1 is still stored (now used by the fox)")
            #expect(s.server.requests("v/2.json").isEmpty)
            #expect(s.server.requests("d/1-2.json").count == 1)
            #expect(s.server.requests(prefix: "media/").count == 4)
            #expect(try StoreSnapshot(try s.store()) == (try await s.freshSnapshot()))
        }
    }

    @Test func mediaNoRecordNeedsAnyMoreIsRemoved() async throws {
        try await Self.run(try await Self.setup()) { s in
            _ = try await s.client().sync()
            var zoo = Self.zoo
            zoo["owl"] = nil
            try s.publisher.publish(zoo)
            let report = try await s.client().sync()
            #expect(report.mediaRemoved == 2)
            #expect(try s.store().mediaIndex().count == 1)
        }
    }

    @Test func tamperedManifestIsRefused() async throws {
        try await Self.run(try await Self.setup()) { s in
            let path = s.publisher.root + "/v/1.json"
            var text = try String(contentsOfFile: path, encoding: .utf8)
            text = text.replacingOccurrences(of: "Generated owl", with: "Generated cat")
            try text.writeReplacing(toFile: path)
            let error = try await Self.expectRefusal(.hashMismatch, s)
            #expect(error?.file == "v/1.json")
        }
    }

    @Test func tamperedManifestWithAnUpdatedPointerFailsTheSignature() async throws {
        try await Self.run(try await Self.setup()) { s in
            let path = s.publisher.root + "/v/1.json"
            let data = Data(try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "Generated owl", with: "Generated cat").utf8)
            try data.write(to: URL(fileURLWithPath: path))
            // The attacker fixes the pointer's hash but cannot sign with the publisher's key.
            try s.publisher.rewritePointer(signWith: Curve25519.Signing.PrivateKey()) {
                $0["manifest"] = ["path": "v/1.json", "sha256": .string(PackDigest.sha256(data)), "bytes": .integer(Int64(data.count))]
            }
            let error = try await Self.expectRefusal(.badSignature, s)
            #expect(error?.file == "latest.json")
        }
    }

    @Test func tamperedMediaIsRefusedAndNotKept() async throws {
        try await Self.run(try await Self.setup()) { s in
            let media = generatedMedia(2)
            let sha = PackDigest.sha256(media)
            var bad = media
            bad[100] ^= 0xFF
            try bad.write(to: URL(fileURLWithPath: s.publisher.root + "/media/\(sha).ogg"))
            let error = try await Self.expectRefusal(.hashMismatch, s)
            #expect(error?.file == "media/\(sha).ogg")
            #expect(!FileManager.default.fileExists(atPath: s.storePath + ".downloads/\(sha).ogg"))
            #expect(!FileManager.default.fileExists(atPath: s.storePath + ".downloads/\(sha).ogg.part"))
        }
    }

    /// A media file cut short on the server (its whole answer shorter than the manifest says) is
    /// refused at once as the wrong size: it was asked for three times and then reported as a
    /// network failure that the next sync would "continue", for ever (found by an app developer).
    @Test func aMediaFileCutShortOnTheServerIsTheWrongSize() async throws {
        try await Self.run(try await Self.setup()) { s in
            let sha = PackDigest.sha256(generatedMedia(2))
            try generatedMedia(2).prefix(2990).write(to: URL(fileURLWithPath: s.publisher.root + "/media/\(sha).ogg"))
            let error = try await Self.expectRefusal(.sizeMismatch, s)
            #expect(error?.file == "media/\(sha).ogg")
            #expect(s.server.requests("media/\(sha).ogg").count == 1)
            #expect(!FileManager.default.fileExists(atPath: s.storePath + ".downloads/\(sha).ogg.part"))
        }
    }

    /// A handler that throws when a media file is downloaded stops the sync as at every other
    /// event (`cancelled`; it was a `transport` failure, "Stop()").
    @Test func aHandlerThatThrowsAtADownloadCancels() async throws {
        try await Self.run(try await Self.setup()) { s in
            struct Stop: Error {}
            var configuration = SyncClient.Configuration.testing(keys: [s.publisher.publicKey])
            configuration.onEvent = { event in
                if case .mediaDownloaded = event { throw Stop() }
            }
            let error = try await Self.expectRefusal(.cancelled, s, configuration: configuration)
            #expect(error?.message.hasPrefix("stopped: ") == true, "\(String(describing: error))")
        }
    }

    /// An app writing to its own table in the same file while the sync applies: the sync waits
    /// for it (it failed at once with "database is locked", after downloading everything).
    @Test func anAppsWriteInTheSameFileIsWaitedFor() async throws {
        try await Self.run(try await Self.setup()) { s in
            _ = try s.store()  // made, so that the app's connection opens the same file
            let app = try DatabaseQueue(path: s.storePath)
            try await app.write { db in try db.execute(sql: "CREATE TABLE app_notes (id INTEGER PRIMARY KEY, text TEXT)") }
            var configuration = SyncClient.Configuration.testing(keys: [s.publisher.publicKey])
            configuration.onEvent = { event in
                guard case .applying = event else { return }
                // The app holds the write lock for a second, from just before the sync writes.
                let holding = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    try? app.inTransaction(.immediate) { db in
                        try db.execute(sql: "INSERT INTO app_notes (text) VALUES ('busy')")
                        holding.signal()
                        Thread.sleep(forTimeInterval: 1)
                        return .commit
                    }
                }
                holding.wait()
            }
            let report = try await s.client(configuration).sync()
            #expect(report.toVersion == 1)
            #expect(try await app.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM app_notes") } == 1)
        }
    }

    @Test func wrongKeyIsRefused() async throws {
        try await Self.run(try await Self.setup()) { s in
            let error = try await Self.expectRefusal(.badSignature, s, configuration: .testing(keys: [PackPublicKey(Curve25519.Signing.PrivateKey().publicKey)]))
            #expect(error?.message.contains("not a trusted key") == true)
        }
    }

    @Test func missingSignatureIsRefused() async throws {
        try await Self.run(try await Self.setup()) { s in
            try FileManager.default.removeItem(atPath: s.publisher.root + "/v/1.json.sig")
            let error = try await Self.expectRefusal(.badSignature, s)
            #expect(error?.file == "v/1.json")
        }
    }

    @Test func rollbackIsRefused() async throws {
        try await Self.run(try await Self.setup()) { s in
            let version1 = try s.publisher.snapshot()
            var zoo = Self.zoo
            zoo["yak"]!.name = "Generated yak 2"
            try s.publisher.publish(zoo)
            _ = try await s.client().sync()
            #expect(try s.store().state().version == 2)
            // A stale mirror (or an attacker) serves the old, validly signed version 1.
            try FileManager.default.removeItem(atPath: s.publisher.root)
            try FileManager.default.copyItem(atPath: version1.path, toPath: s.publisher.root)
            let error = try await Self.expectRefusal(.rollback, s)
            #expect(error?.message.contains("older than the stored version 2") == true)
        }
    }

    @Test func expiredPointerIsRefusedAndNowIsFixed() async throws {
        let publisher = TestPublisher()
        try publisher.publish(Self.zoo, expires: PackTime(seconds: 1_767_225_600 + 3600))
        try await Self.run(Setup(publisher: publisher, server: try await PackServer.start(root: publisher.root))) { s in
            _ = try await Self.expectRefusal(.expired, s, configuration: .testing(keys: [publisher.publicKey], now: Date(timeIntervalSince1970: 1_767_225_600 + 3600)))
            let ok = try await s.client(.testing(keys: [publisher.publicKey], now: Date(timeIntervalSince1970: 1_767_225_600 + 3599))).sync()
            #expect(ok.toVersion == 1)
        }
    }

    @Test func unknownFormatIsRefused() async throws {
        try await Self.run(try await Self.setup()) { s in
            try s.publisher.rewritePointer { $0["format"] = 2 }
            let error = try await Self.expectRefusal(.unknownFormat, s)
            #expect(error?.message.contains("format 2") == true)
        }
    }

    @Test func oversizedFilesAreRefused() async throws {
        try await Self.run(try await Self.setup()) { s in
            var limits = SyncLimits()
            limits.mediaBytes = 4000
            var configuration = SyncClient.Configuration.testing(keys: [s.publisher.publicKey])
            configuration.limits = limits
            _ = try await Self.expectRefusal(.oversized, s, configuration: configuration)

            // An endless pointer stops at the cap.
            s.server.intercept { request, normal in
                request.path == "/packs/latest.json" ? .bytes(Array(repeating: 0x20, count: 200_000)) : nil
            }
            _ = try await Self.expectRefusal(.oversized, s)

            // A media file longer than the manifest says is refused.
            let sha = PackDigest.sha256(generatedMedia(1))
            s.server.intercept { request, normal in
                request.path == "/packs/media/\(sha).ogg" ? .bytes(normal.body + Array(repeating: 1, count: 10_000)) : nil
            }
            let longer = try await Self.expectRefusal(.sizeMismatch, s)
            let size = generatedMedia(1).count
            #expect(longer?.message == "the pack source offers \(size + 10_000) bytes, but the pack says the file has \(size): the file on the server is not the one the pack was built with (an upload cut short?); its publisher must upload it again", "\(String(describing: longer))")
            // One that announces no length is cut off once it passes the manifest's size.
            s.server.intercept { request, normal in
                request.path == "/packs/media/\(sha).ogg" ? .endlessBody() : nil
            }
            let endless = try await Self.expectRefusal(.sizeMismatch, s)
            #expect(endless?.message == "more than the \(size) bytes the pack names arrived", "\(String(describing: endless))")
        }
    }

    @Test func aDownloadCutHalfWayResumesWithRange() async throws {
        try await Self.run(try await Self.setup()) { s in
            let big = generatedMedia(3, size: 5000)
            let path = "/packs/media/\(PackDigest.sha256(big)).ogg"
            let cuts = Counter()
            s.server.intercept { request, normal in
                guard request.path == path, request.header("range") == nil, cuts.next() == 0 else { return nil }
                var cut = normal
                cut.truncateAfter = 2500
                return cut
            }
            var configuration = SyncClient.Configuration.testing(keys: [s.publisher.publicKey])
            configuration.retryDelay = .milliseconds(700)
            let start = ContinuousClock.now
            let report = try await s.client(configuration).sync()
            // The retry waited (a busy server was asked again at once, hundreds of times a second).
            #expect(ContinuousClock.now - start >= .milliseconds(700))
            #expect(report.mediaResumed == 1)
            let requests = s.server.requests(String(path.dropFirst("/packs/".count)))
            #expect(requests.count == 2)
            #expect(requests.last?.header("range") == "bytes=2500-")
            #expect(report.mediaBytesTransferred == 3000 + 3000 + 5000, "each byte once: 2500 before the cut, 2500 after")
            #expect(try s.store().mediaData(sha256: PackDigest.sha256(big)) == big)
        }
    }

    @Test func aDownloadCutHalfWayContinuesOnTheNextRun() async throws {
        try await Self.run(try await Self.setup()) { s in
            let big = generatedMedia(3, size: 5000)
            let sha = PackDigest.sha256(big)
            s.server.intercept { request, normal in
                guard request.path == "/packs/media/\(sha).ogg" else { return nil }
                var cut = normal
                cut.truncateAfter = 2000
                return cut
            }
            var configuration = SyncClient.Configuration.testing(keys: [s.publisher.publicKey])
            configuration.downloadRetries = 0
            _ = try await Self.expectRefusal(.transport, s, configuration: configuration)
            let part = s.storePath + ".downloads/\(sha).ogg.part"
            #expect((try? Data(contentsOf: URL(fileURLWithPath: part)))?.count == 2000, "the part is kept")

            s.server.intercept(nil)
            let report = try await s.client().sync()
            #expect(report.mediaResumed == 1)
            #expect(s.server.requests("media/\(sha).ogg").last?.header("range") == "bytes=2000-")
            #expect(try s.store().mediaData(sha256: sha) == big)
            #expect(try StoreSnapshot(try s.store()) == (try await s.freshSnapshot()))
        }
    }

    /// A whole-length part an earlier run left damaged (a crash after its last write, before its
    /// rename) is downloaded once more from zero, not called the server's tampering without the
    /// server being asked (found by an app maker's audit: the next run then succeeded).
    @Test func aDamagedWholePartFromAnEarlierRunIsDownloadedAgain() async throws {
        try await Self.run(try await Self.setup()) { s in
            let big = generatedMedia(3, size: 5000)
            let sha = PackDigest.sha256(big)
            let folder = s.storePath + ".downloads"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(repeating: 0x5A, count: big.count).write(to: URL(fileURLWithPath: folder + "/\(sha).ogg.part"))
            let report = try await s.client().sync()
            #expect(report.toVersion == 1)
            #expect(s.server.requests("media/\(sha).ogg").last?.header("range") == nil, "asked for whole")
            #expect(try s.store().mediaData(sha256: sha) == big)
        }
    }

    /// A busy server (503) is asked again, after the wait it asks for: the pointer, as every
    /// file (a single 503 on `latest.json` failed the sync).
    @Test func aBusyServerIsAskedAgainAfterTheWaitItAsksFor() async throws {
        try await Self.run(try await Self.setup()) { s in
            let (pointerCalls, mediaCalls) = (Counter(), Counter())
            let media = "/packs/media/\(PackDigest.sha256(generatedMedia(1))).ogg"
            let times = RequestTimes()
            s.server.intercept { request, _ in
                times.note(request.path)
                let calls = request.path == "/packs/latest.json" ? pointerCalls : request.path == media ? mediaCalls : nil
                guard let calls, calls.next() == 0 else { return nil }
                return .status(503, headers: [("Retry-After", "1")])
            }
            var configuration = SyncClient.Configuration.testing(keys: [s.publisher.publicKey])
            configuration.retryDelay = .milliseconds(10)
            let report = try await s.client(configuration).sync()
            #expect(report.toVersion == 1)
            for path in ["/packs/latest.json", media] {
                let asked = times.of(path)
                #expect(asked.count == 2, "\(path)")
                if asked.count == 2 { #expect(asked[1] - asked[0] >= .seconds(1), "\(path): asked again before the second it was asked to wait") }
            }
            #expect(try StoreSnapshot(try s.store()) == (try await s.freshSnapshot()))
        }
    }

    /// A server that asks for a longer wait than a sync makes (over a minute) is not waited
    /// for, and an answer that will not change (403) is not asked again: one request each.
    @Test(.timeLimit(.minutes(1))) func aLongWaitOrARefusalEndsTheSyncAtOnce() async throws {
        for (reply, words) in [
            (
                LoopbackServer.Reply.status(503, headers: [("Retry-After", "3600")]),
                "HTTP 503 (the server asks to wait 3600 s); waits longer than 60 s are not made, so try again later"
            ),
            (LoopbackServer.Reply.status(403), "HTTP 403"),
            // A date past the year a wait is capped at is not reported as the cap (found by a tester).
            (
                LoopbackServer.Reply.status(503, headers: [("Retry-After", "Fri, 31 Dec 2099 23:59:59 GMT")]),
                "HTTP 503 (the server asks to wait a year or more); waits longer than 60 s are not made, so try again later"
            ),
        ] {
            try await Self.run(try await Self.setup()) { s in
                s.server.intercept { request, _ in request.path == "/packs/latest.json" ? reply : nil }
                // Not waited for: one request, and the test's time limit (a sync under parallel
                // test load took more than 10 s, so no tighter bound is asserted).
                let error = try await Self.expectRefusal(.transport, s)
                #expect(error?.file == "latest.json")
                #expect(error?.isTemporary == !words.hasPrefix("HTTP 403"), "a 403 stays; a wait not made may pass later")
                #expect(error.map { "\($0)" }?.hasSuffix("/packs/latest.json: \(words)") == true, "\(String(describing: error))")
                #expect(s.server.requests("latest.json").count == 1)
            }
        }
    }

    /// Whether the same sync run later may pass (`SyncError.isTemporary`, `bestiary sync`'s exit
    /// 75): a 403 on a media file will not change, as on the pointer (a media file's was taken
    /// as temporary: a reviewer's find); a 503 that stays may.
    @Test(.timeLimit(.minutes(1))) func aMediaFileTheServerRefusesIsNotTemporary() async throws {
        for (status, temporary) in [(403, false), (503, true)] {
            try await Self.run(try await Self.setup()) { s in
                s.server.intercept { request, _ in request.path.hasPrefix("/packs/media/") ? .status(status) : nil }
                var configuration = SyncClient.Configuration.testing(keys: [s.publisher.publicKey])
                configuration.retryDelay = .milliseconds(10)
                let error = try await Self.expectRefusal(.transport, s, configuration: configuration)
                #expect(error?.file?.hasPrefix("media/") == true, "\(String(describing: error))")
                #expect(error?.isTemporary == temporary, "HTTP \(status): \(String(describing: error))")
            }
        }
    }

    /// A pointer that stays busy fails the sync after the retries, saying how many attempts.
    @Test func aPointerThatStaysBusyFailsAfterTheRetries() async throws {
        try await Self.run(try await Self.setup()) { s in
            s.server.intercept { request, _ in request.path == "/packs/latest.json" ? .status(502) : nil }
            var configuration = SyncClient.Configuration.testing(keys: [s.publisher.publicKey])
            configuration.retryDelay = .milliseconds(10)
            let error = try await Self.expectRefusal(.transport, s, configuration: configuration)
            #expect(error.map { "\($0)" }?.hasSuffix("/packs/latest.json: HTTP 502, after 3 attempts") == true, "\(String(describing: error))")
            #expect(s.server.requests("latest.json").count == 3)
        }
    }

    @Test func aCrashBetweenDownloadAndCommitKeepsTheOldStateAndTheDownloads() async throws {
        try await Self.run(try await Self.setup()) { s in
            _ = try await s.client().sync()
            var zoo = Self.zoo
            zoo["fox"] = GeneratedAnimal(name: "Generated fox", media: [generatedMedia(7)])
            zoo["bear"] = nil
            try s.publisher.publish(zoo)
            let before = try StoreSnapshot(try s.store())

            struct Crash: Error {}
            var configuration = SyncClient.Configuration.testing(keys: [s.publisher.publicKey])
            configuration.onEvent = { event in
                if case .committing = event { throw Crash() }  // everything written, not committed
            }
            await #expect(throws: SyncError.self) { try await s.client(configuration).sync() }
            #expect(try StoreSnapshot(try s.store()) == before, "version 1 survives, records and media")
            let fox = PackDigest.sha256(generatedMedia(7))
            #expect(FileManager.default.fileExists(atPath: s.storePath + ".downloads/\(fox).ogg"))

            let mediaRequests = s.server.requests(prefix: "media/").count
            let report = try await s.client().sync()
            #expect(report.toVersion == 2)
            #expect(report.mediaReused == 1 && report.mediaDownloaded == 0)
            #expect(s.server.requests(prefix: "media/").count == mediaRequests, "nothing downloaded twice")
            #expect(try StoreSnapshot(try s.store()) == (try await s.freshSnapshot()))
        }
    }

    /// Parts an interrupted sync left for files no version needs any more are removed once the
    /// store holds the newest version (on a phone they were kept for ever); what is not named as
    /// a download stays, and so does the folder then.
    @Test func leftoverDownloadsGoOnceTheStoreIsUpToDate() async throws {
        try await Self.run(try await Self.setup()) { s in
            let folder = s.storePath + ".downloads"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let gone = String(repeating: "ab", count: 32)
            for name in ["\(gone).ogg.part", "\(gone).png", "notes.txt", "\(gone).ogg.partial"] {
                try Data("left".utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
            }
            _ = try await s.client().sync()
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["\(gone).ogg.partial", "notes.txt"])

            // Up to date, nothing else there: the folder goes too.
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) { try FileManager.default.removeItem(atPath: folder + "/" + name) }
            try Data("left".utf8).write(to: URL(fileURLWithPath: folder + "/\(gone).ogg.part"))
            #expect(try await s.client().sync().method == .upToDate)
            #expect(!FileManager.default.fileExists(atPath: folder))

            // A downloads folder the app chose may be shared: nothing in it is removed but this
            // sync's own downloads.
            let chosen = s.storeDirectory.appending("cache")
            try FileManager.default.createDirectory(atPath: chosen, withIntermediateDirectories: true)
            try Data("app's".utf8).write(to: URL(fileURLWithPath: chosen + "/\(gone).png"))
            var configuration = SyncClient.Configuration.testing(keys: [s.publisher.publicKey])
            configuration.downloadsDirectory = chosen
            #expect(try await s.client(configuration).sync().method == .upToDate)
            #expect(try FileManager.default.contentsOfDirectory(atPath: chosen) == ["\(gone).png"])
        }
    }

    /// A sync into a downloads folder the app chose leaves there only what was there before: the
    /// files it downloaded went into the store.
    @Test func aChosenDownloadsFolderKeepsNoneOfTheSyncsFiles() async throws {
        try await Self.run(try await Self.setup()) { s in
            let chosen = s.storeDirectory.appending("cache")
            try FileManager.default.createDirectory(atPath: chosen, withIntermediateDirectories: true)
            try Data("app's".utf8).write(to: URL(fileURLWithPath: chosen + "/notes.txt"))
            var configuration = SyncClient.Configuration.testing(keys: [s.publisher.publicKey])
            configuration.downloadsDirectory = chosen
            let report = try await s.client(configuration).sync()
            #expect(report.mediaDownloaded == 3)
            #expect(try FileManager.default.contentsOfDirectory(atPath: chosen) == ["notes.txt"])
        }
    }

    /// A lock released a moment after a sync asks for it (a process the app started held a copy
    /// of its descriptor, say) is waited for: the sync runs, not refused as busy.
    @Test func aLockReleasedWithinTheGraceIsWaitedFor() async throws {
        try await Self.run(try await Self.setup()) { s in
            let client = try s.client()
            let held = open(client.lockPath, O_RDWR | O_CREAT, 0o644)
            #expect(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0)
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { close(held) }
            let report = try await client.sync()
            #expect(report.mediaDownloaded == 3)
            #expect(try s.store().state().version == 1)
        }
    }

    /// Two syncs of one store at once wrote into the same downloads and one failed renaming a
    /// file the other had taken; the second is now refused (while the first still holds the lock
    /// after ``StoreLock/busyGrace``), and the store is unchanged.
    @Test func aSecondSyncOfTheSameStoreIsRefusedWhileTheFirstRuns() async throws {
        try await Self.run(try await Self.setup()) { s in
            let client = try s.client()
            let held = open(client.lockPath, O_RDWR | O_CREAT, 0o644)
            #expect(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0, "the test holds the lock as a running sync does")
            let error = await #expect(throws: SyncError.self) { try await client.sync() }
            #expect(error?.reason == .busy)
            #expect(error?.message == "another sync of this store is running (it holds \(client.lockPath)); let it finish, then sync again")
            #expect(try s.store().state().version == 0)
            #expect(s.server.requests(prefix: "").isEmpty, "nothing was fetched")
            close(held)
            #expect(try await client.sync().toVersion == 1, "once it is released, the sync runs")
        }
    }

    @Test func aVersionPublishedTwiceWithOtherContentIsRefused() async throws {
        try await Self.run(try await Self.setup()) { s in
            _ = try await s.client().sync()
            let other = TestPublisher()
            var zoo = Self.zoo
            zoo["yak"]!.name = "Generated yak, other history"
            try other.publish(zoo)
            try FileManager.default.removeItem(atPath: s.publisher.root)
            try FileManager.default.copyItem(atPath: other.root, toPath: s.publisher.root)
            _ = try await Self.expectRefusal(.republished, s, configuration: .testing(keys: [other.publicKey]))
        }
    }

    @Test func anotherPackIsRefused() async throws {
        try await Self.run(try await Self.setup()) { s in
            _ = try await s.client().sync()
            let other = TestPublisher(pack: "other")
            try other.publish(Self.zoo)
            try other.publish(Self.zoo.filter { $0.key != "yak" })
            try FileManager.default.removeItem(atPath: s.publisher.root)
            try FileManager.default.copyItem(atPath: other.root, toPath: s.publisher.root)
            _ = try await Self.expectRefusal(.wrongPack, s, configuration: .testing(keys: [other.publicKey]))
        }
    }

    @Test func aStoreChangedBehindTheClientsBackIsRepairedFromTheFullManifest() async throws {
        try await Self.run(try await Self.setup()) { s in
            _ = try await s.client().sync()
            let dbQueue = try DatabaseQueue(path: s.storePath)
            try await dbQueue.write { db in try db.execute(sql: "DELETE FROM pack_records WHERE id = 'yak'") }
            var zoo = Self.zoo
            zoo["bear"]!.name = "Generated bear 2"
            zoo["bear"]!.media = [generatedMedia(7, size: 1234)]
            try s.publisher.publish(zoo)
            let report = try await s.client().sync()
            #expect(report.fellBackToFull)
            #expect(report.method == .full)
            #expect(s.server.requests("d/1-2.json").count == 1 && s.server.requests("v/2.json").count == 1)
            // The delta's media were downloaded before it did not add up: counted once, with their
            // bytes and the delta's (it said "1 media file fetched (0 bytes transferred)").
            #expect(report.mediaDownloaded == 1 && report.mediaReused == 0)
            #expect(report.mediaBytesTransferred == 1234)
            let delta = try Data(contentsOf: URL(fileURLWithPath: s.publisher.root + "/d/1-2.json")).count
            let manifest = try Data(contentsOf: URL(fileURLWithPath: s.publisher.root + "/v/2.json")).count
            #expect(report.metadataBytesTransferred == delta + manifest)
            #expect(try StoreSnapshot(try s.store()) == (try await s.freshSnapshot()))
        }
    }

    @Test func aDamagedStoreAtTheNewestVersionIsRepaired() async throws {
        try await Self.run(try await Self.setup()) { s in
            _ = try await s.client().sync()
            let expected = try StoreSnapshot(try s.store())
            let dbQueue = try DatabaseQueue(path: s.storePath)
            try await dbQueue.write { db in
                try db.execute(sql: "DELETE FROM pack_media WHERE sha256 = ?", arguments: [PackDigest.sha256(generatedMedia(2))])
                try db.execute(sql: "UPDATE pack_records SET payload = '{}' WHERE id = 'bear'")
                try db.execute(sql: "DELETE FROM pack_records WHERE id = 'yak'")
            }
            #expect(try s.store().isIntact() == false)
            let report = try await s.client().sync()
            #expect(report.method == .full && report.fellBackToFull && report.toVersion == 1)
            #expect(report.mediaDownloaded == 1, "only the lost file")
            #expect(try s.store().isIntact())
            // The payload edit kept the rev, so only what the digest and media check see is repaired;
            // the yak and the lost file are back.
            let repaired = try StoreSnapshot(try s.store())
            #expect(repaired.media == expected.media)
            #expect(repaired.records.map(\.id) == expected.records.map(\.id))
            // A file cut short inside the database is found (by its size) and downloaded again.
            try await dbQueue.write { db in
                try db.execute(sql: "UPDATE pack_media SET data = X'00' WHERE sha256 = ?", arguments: [PackDigest.sha256(generatedMedia(2))])
            }
            #expect(try s.store().isIntact() == false)
            let again = try await s.client().sync()
            #expect(again.fellBackToFull && again.mediaDownloaded == 1)
            #expect(try StoreSnapshot(try s.store()).media == expected.media)
        }
    }

    @Test func aMissingDeltaFallsBackToTheManifest() async throws {
        try await Self.run(try await Self.setup()) { s in
            _ = try await s.client().sync()
            try s.publisher.publish(Self.zoo.filter { $0.key != "owl" })
            try FileManager.default.removeItem(atPath: s.publisher.root + "/d/1-2.json")
            let report = try await s.client().sync()
            #expect(report.method == .full && report.fellBackToFull)
            #expect(try s.store().state().version == 2)
        }
    }

    /// A delta the server will not give (403, as a storage bucket answers for a file it lacks), a
    /// page in its place (200 with the wrong bytes), or a damaged one: the full manifest, and the
    /// report says why. A delta that stays busy (502 after the retries) still ends the sync: the
    /// manifest would fail alike (found by an app maker: only a 404 fell back).
    @Test func aDeltaTheServerWillNotGiveFallsBackToTheManifest() async throws {
        let replies: [(LoopbackServer.Reply, String)] = [
            (.status(403), "HTTP 403"),
            (.text("<html>Not here</html>"), "bytes, but the pointer says"),
        ]
        for (reply, words) in replies {
            try await Self.run(try await Self.setup()) { s in
                _ = try await s.client().sync()
                try s.publisher.publish(Self.zoo.filter { $0.key != "owl" })
                s.server.intercept { request, _ in request.path == "/packs/d/1-2.json" ? reply : nil }
                let report = try await s.client().sync()
                #expect(report.method == .full && report.fellBackToFull)
                #expect(report.deltaProblem?.hasPrefix("d/1-2.json: ") == true && report.deltaProblem?.contains(words) == true, "\(String(describing: report.deltaProblem))")
                #expect(s.server.requests("v/2.json").count == 1)
                #expect(try StoreSnapshot(try s.store()) == (try await s.freshSnapshot()))
            }
        }
        try await Self.run(try await Self.setup()) { s in
            _ = try await s.client().sync()
            try s.publisher.publish(Self.zoo.filter { $0.key != "owl" })
            var delta = try Data(contentsOf: URL(fileURLWithPath: s.publisher.root + "/d/1-2.json"))
            delta[delta.count / 2] ^= 0x20
            try delta.write(to: URL(fileURLWithPath: s.publisher.root + "/d/1-2.json"))
            let report = try await s.client().sync()
            #expect(report.fellBackToFull && report.deltaProblem?.contains("SHA-256") == true)
            #expect(try s.store().state().version == 2)
            // Its download counts, with the manifest's.
            let manifest = try Data(contentsOf: URL(fileURLWithPath: s.publisher.root + "/v/2.json")).count
            #expect(report.metadataBytesTransferred == delta.count + manifest)

            try s.publisher.publish(Self.zoo)
            s.server.intercept { request, _ in request.path == "/packs/d/2-3.json" ? .status(502) : nil }
            var configuration = SyncClient.Configuration.testing(keys: [s.publisher.publicKey])
            configuration.retryDelay = .milliseconds(10)
            let error = try await Self.expectRefusal(.transport, s, configuration: configuration)
            #expect(error?.file == "d/2-3.json")
            #expect(s.server.requests("v/3.json").isEmpty)
        }
    }

    /// Only the delta's signature is missing, or a page stands in its place (a server that
    /// answers 200 for a file it lacks): the same fallback (it refused the whole sync), while a
    /// delta signed wrongly is still refused.
    @Test func aDeltaWithoutItsSignatureFallsBackToTheManifest() async throws {
        try await Self.run(try await Self.setup()) { s in
            _ = try await s.client().sync()
            try s.publisher.publish(Self.zoo.filter { $0.key != "owl" })
            try FileManager.default.removeItem(atPath: s.publisher.root + "/d/1-2.json.sig")
            let report = try await s.client().sync()
            #expect(report.method == .full && report.fellBackToFull)
            #expect(try StoreSnapshot(try s.store()) == (try await s.freshSnapshot()))

            try s.publisher.publish(Self.zoo)
            s.server.intercept { request, _ in request.path == "/packs/d/2-3.json.sig" ? .text("<html>Not here</html>") : nil }
            let page = try await s.client().sync()
            #expect(page.method == .full && page.fellBackToFull)
            #expect(page.deltaProblem == "d/2-3.json: the file is not signed (d/2-3.json.sig holds no Ed25519 signature line: a page served in its place?), but a signature by a trusted key is required", "\(String(describing: page.deltaProblem))")
            #expect(try StoreSnapshot(try s.store()) == (try await s.freshSnapshot()))
            s.server.intercept(nil)

            var zoo = Self.zoo
            zoo["yak"]!.name = "Generated yak 4"
            try s.publisher.publish(zoo)
            let delta = try Data(contentsOf: URL(fileURLWithPath: s.publisher.root + "/d/3-4.json"))
            try PackSignature.sign(delta, with: [Curve25519.Signing.PrivateKey()]).write(to: URL(fileURLWithPath: s.publisher.root + "/d/3-4.json.sig"))
            let error = try await Self.expectRefusal(.badSignature, s)
            #expect(error?.file == "d/3-4.json")
            #expect(error?.message.hasSuffix("which is not a trusted key (the trusted key: id \(s.publisher.publicKey.keyID.prefix(16))…)") == true, "\(String(describing: error))")
            #expect(try s.store().state().version == 3)
        }
    }

    /// What stands in a `.sig`'s place and counts as no signature: a page of any size or
    /// encoding, an empty file. For a delta that is the fallback; for the pointer and the
    /// manifest a refusal, as when their `.sig` is missing. A damaged signature line is refused
    /// for a delta too.
    @Test func aPageInPlaceOfASignatureIsNoSignature() async throws {
        let pages: [(LoopbackServer.Reply, String)] = [
            (.text(String(repeating: "<p>Not here</p>\n", count: 2_000)), "is larger than the 16384 bytes of any signature file"),
            (.bytes([0x3C, 0x70, 0x3E, 0x47, 0x72, 0xFC, 0xDF, 0x65, 0x0A]), "holds no Ed25519 signature line"),  // Latin-1 "<p>Grüße"
            (.bytes([]), "holds no Ed25519 signature line"),
        ]
        for (page, words) in pages {
            try await Self.run(try await Self.setup()) { s in
                s.server.intercept { request, _ in request.path == "/packs/v/1.json.sig" ? page : nil }
                let manifest = try await Self.expectRefusal(.badSignature, s)
                #expect(manifest?.file == "v/1.json" && manifest?.message.contains(words) == true, "\(String(describing: manifest))")
                s.server.intercept(nil)
                _ = try await s.client().sync()

                try s.publisher.publish(Self.zoo.filter { $0.key != "owl" })
                s.server.intercept { request, _ in request.path == "/packs/latest.json.sig" ? page : nil }
                let pointer = try await Self.expectRefusal(.badSignature, s)
                #expect(pointer?.file == "latest.json" && pointer?.message.contains(words) == true, "\(String(describing: pointer))")

                s.server.intercept { request, _ in request.path == "/packs/d/1-2.json.sig" ? page : nil }
                let report = try await s.client().sync()
                #expect(report.fellBackToFull && report.deltaProblem?.contains(words) == true, "\(String(describing: report.deltaProblem))")
                #expect(try s.store().state().version == 2)
            }
        }
        try await Self.run(try await Self.setup()) { s in
            _ = try await s.client().sync()
            try s.publisher.publish(Self.zoo.filter { $0.key != "owl" })
            s.server.intercept { request, _ in request.path == "/packs/d/1-2.json.sig" ? .text("ed25519 damaged\n") : nil }
            let error = try await Self.expectRefusal(.badSignature, s)
            #expect(error?.file == "d/1-2.json")
        }
        #expect(PackSignature.hasSignatureLine(Data("\u{FEFF}ed25519 a b\r\n".utf8)))
        #expect(PackSignature.hasSignatureLine(Data("# comment\n  ed25519\n".utf8)))
        #expect(!PackSignature.hasSignatureLine(Data("ed25519x a b\n<html>ed25519 </html>\n".utf8)))
    }

    @Test func rememberedKeysAreUsedWhenNoneAreGiven() async throws {
        try await Self.run(try await Self.setup()) { s in
            _ = try await s.client().sync()
            var zoo = Self.zoo
            zoo["yak"]!.name = "Generated yak 3"
            try s.publisher.publish(zoo)
            // Re-signed by someone else: refused although the caller gives no key.
            try s.publisher.rewritePointer(signWith: Curve25519.Signing.PrivateKey()) { _ in }
            let error = try await Self.expectRefusal(.badSignature, s, configuration: .testing(keys: []))
            // Said where the trust came from, and what a key rotation needs.
            let remembered = String(s.publisher.publicKey.keyID.prefix(16))
            #expect(error?.message.hasSuffix("which is not a trusted key (this store trusts the key it remembers from its last sync, \(remembered)…; after a key rotation, give the client the publisher's new key: `bestiary sync --public-key KEY`)") == true, "\(String(describing: error))")
            // Given keys are the caller's own choice: no such note.
            let given = try await Self.expectRefusal(.badSignature, s)
            #expect(given?.message.contains("which is not a trusted key (the trusted key: ") == true, "\(String(describing: given))")
            try s.publisher.rewritePointer { _ in }
            let report = try await s.client(.testing(keys: [])).sync()
            #expect(report.toVersion == 2 && report.signedBy == s.publisher.publicKey.keyID)
        }
    }

    /// A delta whose tombstone names an id the stored version lacks is not what it says
    /// (tombstones are ids of the version it starts from): the full manifest is used instead. It
    /// was applied in silence (an app developer's find).
    @Test func aDeltaDeletingAnIdTheStoreLacksGivesWayToTheManifest() async throws {
        try await Self.run(try await Self.setup()) { s in
            _ = try await s.client().sync()
            var zoo = Self.zoo
            zoo["yak"]!.name = "Generated yak 2"
            try s.publisher.publish(zoo)
            try s.publisher.rewriteDelta(from: 1) { $0["tombstones"] = ["zebra"] }
            let report = try await s.client().sync()
            #expect(report.fellBackToFull, "\(report)")
            #expect(report.deltaProblem?.contains("the delta deletes 'zebra', which version 1 in the store does not have") == true, "\(String(describing: report.deltaProblem))")
            #expect(try s.store().revisions() == s.publisher.versions[2])
        }
    }

    /// Unsigned packs allowed, no key: a signed pack is refused all the same. Taken unchecked,
    /// the store would remember no key and check no later version (a sync run again without its
    /// key did so; an app developer's find).
    @Test func aSignedPackIsRefusedWithoutAKeyThoughUnsignedOnesAreAllowed() async throws {
        try await Self.run(try await Self.setup()) { s in
            var unsigned = SyncClient.Configuration.testing(keys: [])
            unsigned.allowUnsigned = true
            let error = try await Self.expectRefusal(.untrusted, s, configuration: unsigned)
            #expect(error?.file == "latest.json.sig" && error?.message.hasPrefix("the pack is signed, but no key to check it with was given") == true, "\(String(describing: error))")
            // A signature file that is no signature (a page served with 200) is none.
            try s.publisher.publish(Self.zoo, signed: false)
            try Data("<html>not here</html>".utf8).write(to: URL(fileURLWithPath: s.publisher.root + "/latest.json.sig"))
            #expect(try await s.client(unsigned).sync().toVersion == 2)
        }
    }

    @Test func noKeyAtAllIsRefusedUnlessUnsignedIsAllowed() async throws {
        let publisher = TestPublisher()
        try publisher.publish(Self.zoo, signed: false)
        try await Self.run(Setup(publisher: publisher, server: try await PackServer.start(root: publisher.root))) { s in
            _ = try await Self.expectRefusal(.untrusted, s, configuration: .testing(keys: []))
            _ = try await Self.expectRefusal(.badSignature, s)
            var unsigned = SyncClient.Configuration.testing(keys: [])
            unsigned.allowUnsigned = true
            let report = try await s.client(unsigned).sync()
            #expect(report.signedBy == nil && report.toVersion == 1)
        }
    }

    /// A store that was up to date when a key first checked its pack remembers that key: a later
    /// unsigned version is refused though the caller allows unsigned packs (docs/packs.md §11).
    @Test func aKeyThatCheckedAnUpToDateStoreIsRemembered() async throws {
        let publisher = TestPublisher()
        try publisher.publish(Self.zoo, signed: false)
        try await Self.run(Setup(publisher: publisher, server: try await PackServer.start(root: publisher.root))) { s in
            var unsigned = SyncClient.Configuration.testing(keys: [])
            unsigned.allowUnsigned = true
            #expect(try await s.client(unsigned).sync().toVersion == 1)
            #expect(try s.store().state().trustedKeys.isEmpty)
            // The publisher starts signing, content unchanged: up to date, and the key checked it.
            try s.publisher.rewritePointer { _ in }
            let checked = try await s.client().sync()
            #expect(checked.method == .upToDate && checked.signedBy == s.publisher.publicKey.keyID)
            #expect(try s.store().state().trustedKeys == [s.publisher.publicKey.base64])
            // An unsigned version 2 (an attacker's, or a publisher who lost the key) is refused.
            var zoo = Self.zoo
            zoo["yak"]!.name = "Generated yak 2"
            try s.publisher.publish(zoo, signed: false)
            _ = try await Self.expectRefusal(.badSignature, s, configuration: unsigned)
            #expect(try s.store().state().version == 1)
        }
    }

    @Test func syncsFromALocalFolder() async throws {
        let publisher = TestPublisher()
        try publisher.publish(Self.zoo)
        let dir = TemporaryDirectory("bestiary-local")
        let store = try PackStore(path: dir.appending("s.sqlite"))
        let transport = try PackLocation.transport(for: publisher.root + "/latest.json")
        #expect(transport is LocalPackTransport)
        let report = try await SyncClient(transport: transport, store: store, configuration: .testing(keys: [publisher.publicKey])).sync()
        #expect(report.recordsUpserted == 3)
        #expect(try store.revisions() == publisher.versions[1])
    }

    /// A site's address given for its pack folder: the pointer is not found there, and the
    /// folder below that holds it is named (a URL said only "not found").
    @Test func theSitesAddressForItsPackFolderNamesThePackFolder() async throws {
        let publisher = TestPublisher()
        try publisher.publish(Self.zoo)
        let site = TemporaryDirectory("bestiary-site")
        try FileManager.default.createSymbolicLink(atPath: site.appending("packs"), withDestinationPath: publisher.root)
        let store = try PackStore(path: site.appending("s.sqlite"))
        let client = SyncClient(transport: LocalPackTransport(directory: site.path), store: store, configuration: .testing(keys: [publisher.publicKey]))
        let error = await #expect(throws: SyncError.self) { try await client.sync() }
        #expect(error?.reason == .notFound)
        #expect(error?.message == "not found at \(site.path), but \(site.path)/packs holds one: give that folder (the one holding latest.json)")
        #expect(try store.state().version == 0)
        // Nor below: the address, or the publishing, is what to look at (an app developer's).
        let empty = TemporaryDirectory("bestiary-site")
        let nowhere = SyncClient(transport: LocalPackTransport(directory: empty.path), store: store, configuration: .testing(keys: [publisher.publicKey]))
        let missing = await #expect(throws: SyncError.self) { try await nowhere.sync() }
        #expect(missing?.message == "not found at \(empty.path): is that the address of the folder holding latest.json (a site's packs/ folder), and is the pack published there?")
    }
}

/// When each path was asked for, in order.
final class RequestTimes: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [(path: String, at: ContinuousClock.Instant)] = []
    func note(_ path: String) { lock.withLock { seen.append((path, .now)) } }
    func of(_ path: String) -> [ContinuousClock.Instant] { lock.withLock { seen.filter { $0.path == path }.map(\.at) } }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int { lock.withLock { defer { value += 1 }; return value } }
}

/// A store that cannot be made where it is asked for is named in words, not with SQLite's
/// "unable to open database file"; nothing is made.
@Suite struct PackStoreLocationTests {
    @Test func aStoreInAFolderThatIsNotThereOrIsAFileIsNamedSo() throws {
        let dir = TemporaryDirectory("bestiary-store-where")
        func problem(_ path: String) -> String? {
            do {
                _ = try PackStore(path: path)
                return nil
            } catch {
                return error.message
            }
        }
        #expect(problem(dir.appending("missing/store.sqlite")) == "cannot make the store \(dir.appending("missing/store.sqlite")): there is no folder \(dir.appending("missing")); make it first")
        try dir.write("a file", to: "notes")
        #expect(problem(dir.appending("notes/store.sqlite")) == "cannot make the store \(dir.appending("notes/store.sqlite")): \(dir.appending("notes")) is not a folder")
        #expect(!FileManager.default.fileExists(atPath: dir.appending("missing")))
        #expect(problem(dir.appending("store.sqlite")) == nil)
    }

    /// The store's tables made by hand from docs/packs.md (found by an app maker): said so, not
    /// SQLite's "table pack_meta already exists"; an app's own tables in the file do not matter.
    @Test func tablesMadeByHandAreNamed() throws {
        let dir = TemporaryDirectory("bestiary-store-tables")
        let path = dir.appending("app.sqlite")
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "CREATE TABLE pack_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID")
        }
        do {
            _ = try PackStore(path: path)
            Issue.record("a store was opened over tables made by hand")
        } catch {
            #expect(error.reason == .store)
            #expect(error.message == "\(path) has a table pack_meta that this client did not make (its grdb_migrations has no 'pack-store-1'): the store's tables are made by PackStore, not by hand; give a file without them")
        }
        let own = dir.appending("own.sqlite")
        try DatabaseQueue(path: own).write { db in try db.execute(sql: "CREATE TABLE app_notes (id INTEGER PRIMARY KEY)") }
        _ = try PackStore(path: own)
    }

    /// A store a newer client already migrated (a backup restored, an app downgraded) was
    /// synced on without a word (an app developer's): refused, for syncing and reading. An app's
    /// own migrations in the same table are not the store's.
    @Test func aStoreANewerClientMigratedIsRefused() throws {
        let dir = TemporaryDirectory("bestiary-store-newer")
        let path = dir.appending("store.sqlite")
        _ = try PackStore(path: path)
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('app-v7')") }
        _ = try PackStore(path: path)
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('pack-store-2')") }
        for create in [true, false] {
            do {
                _ = create ? try PackStore(path: path) : try PackStore.openExisting(path: path)
                Issue.record("a store a newer client migrated was opened")
            } catch {
                #expect(error.reason == .store)
                #expect(error.message == "\(path) was changed by a newer client than this one (its migration 'pack-store-2' is not one this version knows): sync it with that version, or give a new store")
            }
        }
    }
}
