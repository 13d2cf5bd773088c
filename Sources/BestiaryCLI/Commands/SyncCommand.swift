import ArgumentParser
import BestiaryFetch
import BestiaryDiagnostics
import BestiaryPackFormat
import BestiarySync
import Foundation

/// `bestiary sync URL --db FILE`: the reference pack client.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Bring a SQLite store up to the newest content pack (the reference client).",
        discussion: """
            URL is the folder holding latest.json: an http(s) URL or a local path. The store is \
            created when missing. Refuses (exit 1, store unchanged) a bad signature, a hash or \
            size mismatch, an older version than the store holds, an expired pointer, an unknown \
            format or an oversized file. Exits 75 instead (store unchanged) when the same sync may \
            succeed later as it is: the network or the server failed, a file the pointer names is \
            not there yet, another sync held the store. Interrupted media downloads continue on \
            the next run.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The pack folder (holding latest.json): http(s) URL or local path.", valueName: "URL"))
    var url: String

    @Option(name: .long, help: ArgumentHelp("The SQLite store to update.", valueName: "FILE"))
    var db: String

    @Option(
        name: .customLong("public-key"),
        help: ArgumentHelp(
            "A trusted Ed25519 public key (base64; repeat during a key rotation). Without one, the keys of the store's last sync, else those in site.yml's packs.public_keys under --root; with none, only an unsigned pack is taken.",
            valueName: "KEY"))
    var publicKeys: [String] = []

    func validate() throws {
        try validatePackArguments(location: url, publicKeys: publicKeys)
    }

    func run() async throws {
        let console = Console.current
        func fail(_ message: String, temporary: Bool = false, code: SyncError.Reason? = nil) -> CommandFailure {
            // The reason's name goes with the message (JSON's `code`), for a script that tells a
            // refusal from a server not answering without reading the words (an app maker's CI).
            var diagnostic = Diagnostic.error(message, stage: "sync")
            diagnostic.code = code?.rawValue
            console.report([diagnostic], format: global.diagnostics, everyWarning: global.allWarnings)
            return CommandFailure(status: temporary ? Self.temporaryFailure : 1)
        }
        var keys = try publicKeys.map { try PackPublicKey(base64: $0) }
        let transport: any PackTransport
        do {
            transport = try PackLocation.transport(for: url, http: { CurlPackTransport(baseURL: $0) })
        } catch {
            throw fail("\(error)")
        }
        // A folder given for the store: said before a lock file is made beside it.
        if let problem = PackStore.folderProblem(db) {
            await transport.close()
            throw fail(problem)
        }
        // The store's lock before the store is opened (or made): a second sync, which may find the
        // first one's new file, is refused as busy, and leaves it alone.
        let lock: StoreLock
        // A lock file this run makes goes again with a failed sync, as a store it makes does
        // (`--db notes.txt`, which is no store, left an empty `notes.txt.lock`).
        let lockPath = StoreLock.path(forStoreAt: db)
        let lockExisted = FileManager.default.fileExists(atPath: lockPath)
        do {
            lock = try await StoreLock.acquire(forStoreAt: db)
        } catch {
            await transport.close()
            throw fail(error.description, temporary: error.isTemporary, code: error.reason)
        }
        // Held until the failed store's files are removed below, not just to its last use.
        defer { withExtendedLifetime(lock) {} }
        // A store this run creates is removed again when the sync fails: "unchanged" means no file.
        let existed = FileManager.default.fileExists(atPath: db)
        // An empty file (a first sync killed at its start) is left empty again.
        let wasEmpty = existed && (try? FileManager.default.attributesOfItem(atPath: db)[.size] as? Int) == 0
        // What a failure leaves: the store as it was, or (a first sync) none at all.
        var unchanged = existed ? "the store is unchanged" : "no store was made"
        // The transport is closed whatever happens (its connections end with it).
        let outcome: Result<SyncReport, any Error>
        var unchecked = false
        var opened: PackStore?
        func removeCreatedStore() {
            // A file that was there (an app's own database) loses the tables this sync made in it.
            if existed, let store = opened {
                switch store.removeMadeTables() {
                case .nothingMade: break
                case .removed:
                    unchanged = "\(db) is as it was: the tables this sync made in it were taken out again"
                    if wasEmpty {
                        opened = nil  // closed before the file is emptied
                        if truncate(db, 0) == 0 { unchanged = "\(db) is empty again, as it was" }
                    }
                case .failed(let why):
                    unchanged = "the store's empty tables this sync made in \(db) are still there (\(why)): run the sync again, or remove them (docs/packs.md, section 11)"
                }
            }
            if !lockExisted { try? FileManager.default.removeItem(atPath: lockPath) }
            guard !existed else { return }
            for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
        }
        do {
            let store = try PackStore(path: db)
            opened = store
            // Without --public-key: the keys the store remembers, else those of the site under --root.
            if keys.isEmpty, try store.state().trustedKeys.isEmpty { keys = try global.sitePublicKeys(stage: "sync") }
            var configuration = SyncClient.Configuration(trustedKeys: keys)
            if keys.isEmpty, try store.state().trustedKeys.isEmpty {
                // An unsigned pack only: a signed one is refused without a key (SyncClient).
                configuration.allowUnsigned = true
                unchecked = true
            }
            outcome = .success(try await SyncClient(transport: transport, store: store, configuration: configuration).sync(holding: lock))
        } catch {
            outcome = .failure(error)
        }
        await transport.close()
        switch outcome {
        case .success(let report):
            if unchecked {
                console.report(
                    [.warning("signatures are not checked: no --public-key given, the store remembers none, and no site.yml under --root lists packs.public_keys; pass the publisher's key", stage: "sync")],
                    format: global.diagnostics)
            }
            console.result(Self.describe(report, unchecked: unchecked), format: global.diagnostics)
        case .failure(let error as SyncError):
            removeCreatedStore()
            let refusal = ![.transport, .store, .cancelled, .notFound].contains(error.reason)
            throw fail("\(refusal ? "refused: " : "")\(error.description) (\(unchanged))", temporary: error.isTemporary, code: error.reason)
        case .failure(let error as CommandFailure):
            removeCreatedStore()  // already reported
            throw error
        case .failure(let error):
            removeCreatedStore()
            throw fail("\(error) (\(unchanged))")
        }
    }

    /// The exit status of a sync that may succeed when run again later as it is
    /// (``SyncError/isTemporary``): sysexits' EX_TEMPFAIL, which cron jobs and service managers
    /// take as "try again", apart from 1, a refusal or a store that needs someone to act.
    static let temporaryFailure: Int32 = 75

    /// The summary line; `unchecked`: no key to check signatures with (the pack may be signed).
    static func describe(_ r: SyncReport, unchecked: Bool = false) -> String {
        switch r.method {
        case .upToDate:
            return "pack '\(r.pack)' is up to date at version \(r.toVersion)"
        case .delta, .full:
            let how: String
            if case .delta(let from) = r.method {
                how = "delta from \(from)"
            } else if r.fromVersion == r.toVersion {
                how = "full manifest (a repair: the store had been changed outside Bestiary)"
            } else {
                how = r.deltaProblem.map { "full manifest (the delta could not be used: \($0))" } ?? "full manifest"
            }
            var parts = ["\(r.recordsUpserted) record\(r.recordsUpserted == 1 ? "" : "s") added or changed", "\(r.recordsDeleted) deleted"]
            parts.append("\(r.mediaDownloaded + r.mediaReused) media file\(r.mediaDownloaded + r.mediaReused == 1 ? "" : "s") fetched (\(r.mediaBytesTransferred) bytes transferred\(r.mediaResumed > 0 ? ", \(r.mediaResumed) resumed" : ""))")
            // What a phone's data plan pays: the delta or manifest too (it said 0 bytes for a
            // sync by delta; found by a site's admin), the delta tried first after a fallback.
            // The files' own bytes: a compressed transfer cost less.
            let what = r.method == .full ? (r.deltaProblem != nil ? "delta and manifest" : "manifest") : "delta"
            parts.append("\(r.metadataBytesTransferred) bytes of \(what), \(r.mediaBytesTransferred + r.metadataBytesTransferred) bytes in all")
            if r.mediaRemoved > 0 { parts.append("\(r.mediaRemoved) no longer needed removed") }
            let signed = r.signedBy.map { ", signed by key \($0.prefix(16))…" } ?? (unchecked ? ", signatures not checked" : ", unsigned")
            return "pack '\(r.pack)' synced from version \(r.fromVersion) to \(r.toVersion) by \(how)\(signed): " + parts.joined(separator: ", ")
        }
    }
}
