import BestiaryPackFormat
import BestiaryCrypto
import Foundation

/// The pack client: brings a ``PackStore`` up to the newest version a pack location publishes,
/// or refuses and leaves the store exactly as it was (docs/packs.md, "Client algorithm").
///
///     let store = try PackStore(path: dbPath)
///     let client = SyncClient(
///         transport: URLSessionPackTransport(baseURL: packsURL), store: store,
///         configuration: .init(trustedKeys: [try PackPublicKey(base64: embeddedKey)]))
///     let report = try await client.sync()
///
/// The order of checks follows TUF: fix "now"; read the pointer within a size cap; check its
/// signature before reading it; refuse another pack, a lower version (rollback), an expired
/// pointer (freeze), an unknown format; fetch the delta from the stored version (or the full
/// manifest) at exactly the size and hash the pointer names, and check its signature; download
/// the missing media, verifying each; apply everything in one transaction that also checks the
/// result is exactly the published state; the trust state (version, digest, keys) is written
/// in that transaction, version last, so it is never ahead of the content.
public struct SyncClient: Sendable {
    public let transport: any PackTransport
    public let store: PackStore
    public var configuration: Configuration

    public init(transport: any PackTransport, store: PackStore, configuration: Configuration = Configuration()) {
        self.transport = transport
        self.store = store
        self.configuration = configuration
    }

    private var fetcher: PackFetcher { PackFetcher(transport: transport, retry: retry) }
    private var retry: SyncRetry { SyncRetry(retries: configuration.downloadRetries, delay: configuration.retryDelay) }

    /// The folder where downloads wait for the commit.
    public var downloadsDirectory: String { configuration.downloadsDirectory ?? store.path + ".downloads" }

    /// The lock one sync of the store holds (`STORE.lock`, `flock`): a second sync of the same
    /// store, in this process or another, is refused (``SyncError/Reason/busy``, when the lock
    /// is still held after ``StoreLock/busyGrace``) instead of writing into the same downloads.
    /// Where no lock can be had (a read-only folder, a file system without `flock`), the sync goes
    /// on without one.
    public var lockPath: String { StoreLock.path(forStoreAt: store.path) }

    /// Runs one update. Safe to run again at any time, including after a crash or a refusal.
    /// Refused while another sync of the same store runs.
    public func sync() async throws(SyncError) -> SyncReport {
        let lock = try await StoreLock.acquire(forStoreAt: store.path)
        return try await sync(holding: lock)
    }

    /// ``sync()`` with the store's lock taken already, before the store was opened: two first
    /// syncs of a new store each made its tables (one failed on "table already exists") and
    /// then removed the file the other was writing (found by an app developer).
    public func sync(holding lock: StoreLock) async throws(SyncError) -> SyncReport {
        // The same store written two ways (`./s.sqlite`, a link) holds the same lock file.
        guard lock.path == lockPath || Self.sameFile(lock.path, lockPath) else {
            throw SyncError(.store, "the lock held is \(lock.path), not this store's \(lockPath)")
        }
        let report = try await update()
        removeLeftoverDownloads()
        return report
    }

    private static func sameFile(_ a: String, _ b: String) -> Bool {
        var x = stat(), y = stat()
        return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }

    /// Once the store holds the newest version, the downloads an interrupted sync left (parts of
    /// files no version may need now) are removed, and the folder when nothing else is in it.
    /// Only in the store's own folder (`STORE.downloads`): one the app chose may be shared with
    /// another store, or hold files of its own named alike.
    private func removeLeftoverDownloads() {
        guard configuration.downloadsDirectory == nil else { return }
        let folder = downloadsDirectory
        for name in StagingFiles.entries(folder) where MediaDownloader.isDownload(name) {
            StagingFiles.remove(folder + "/" + name)
        }
        StagingFiles.removeEmptyFolder(folder)
    }

    private func update() async throws(SyncError) -> SyncReport {
        let now = PackTime(configuration.now())  // fixed for the whole update (TUF §5.1)
        let state = try store.state()
        let (keys, pinned) = try trustedKeys(state)

        // 1. The pointer.
        let pointerData = try await fetcher.fetch(PackFormat.pointerPath, limit: configuration.limits.pointerBytes, tooLarge: .oversized)
        let signer = keys.isEmpty ? nil : try await checkSignature(pointerData, path: PackFormat.pointerPath, keys: keys)
        if keys.isEmpty { try await refuseSignedWithoutKey() }
        let pointer: PackPointer
        do {
            pointer = try PackPointer.decode(pointerData)
        } catch {
            throw SyncError(error)
        }
        if let pack = state.pack, pack != pointer.pack {
            throw SyncError(.wrongPack, file: PackFormat.pointerPath, "the store holds pack '\(pack)', but \(transport.location) publishes '\(pointer.pack)'")
        }
        if pointer.version < state.version {
            throw SyncError(
                .rollback, file: PackFormat.pointerPath,
                "the pack source offers version \(pointer.version), older than the stored version \(state.version); refusing to go back (a stale mirror or a replay)")
        }
        if pointer.expires <= now {
            throw SyncError(
                .expired, file: PackFormat.pointerPath,
                "the pointer expired at \(pointer.expires) (now \(now)); the publisher must rebuild or re-sign it"
                    + (state.version > 0 ? ". The stored version \(state.version) stays usable" : ""))
        }
        try emit(.pointer(pack: pointer.pack, version: pointer.version, storedVersion: state.version))
        var report = SyncReport(pack: pointer.pack, fromVersion: state.version, toVersion: pointer.version, method: .upToDate)
        report.signedBy = signer
        if pointer.version == state.version {
            guard state.manifestSHA256 == pointer.manifest.sha256 else {
                throw SyncError(
                    .republished, file: PackFormat.pointerPath,
                    "version \(pointer.version) was published again with different content: the publisher built it twice from two histories (a branch whose content/packs.lock recorded the same number, a lock that was lost or taken back), or the store took it from a preview (`bestiary serve` makes packs it never records). The publisher must publish a new version, built on the history it deployed (`bestiary pack verify --root SITE` compares a tree with a site's lock before deploying); only a store that synced from a preview is deleted and synced again")
            }
            if try store.isIntact() {
                // Checked with keys given now: the store remembers them, as a sync that changed it would.
                if let pinned, signer != nil, state.trustedKeys != pinned { try store.remember(keys: pinned, atVersion: state.version) }
                return report
            }
            // The database was changed outside the client: rebuild it from the full manifest.
            report.fellBackToFull = true
            var counted = Set<String>()
            try await applyFull(pointer: pointer, state: state, keys: keys, pinned: pinned, report: &report, counted: &counted)
            return report
        }

        // 2. A delta when there is one from here, else the full manifest. `counted`: the media the
        // report counts already (a delta's attempt's, which the manifest's download finds staged).
        var counted = Set<String>()
        if state.version > 0, let delta = pointer.delta(from: state.version) {
            var attempt = report
            do {
                try await applyDelta(delta, pointer: pointer, state: state, keys: keys, pinned: pinned, report: &attempt, counted: &counted)
                return attempt
            } catch where Self.fullManifestMayReplace(delta: delta.file.path, after: error) {
                // The full manifest, checked as ever. What the attempt downloaded counts: its
                // media wait in the staging folder, verified, for the manifest's download.
                report = attempt
                report.fellBackToFull = true
                report.deltaProblem = error.description
            }
        }
        try await applyFull(pointer: pointer, state: state, keys: keys, pinned: pinned, report: &report, counted: &counted)
        return report
    }

    /// Whether the full manifest is tried after the delta from the stored version failed with
    /// `error`. The delta is an optimisation: a server that lacks it (HTTP 404 or 410; 403, as a
    /// storage bucket answers for a missing file; a page that is not the file, at the wrong size
    /// or hash) or a delta that does not lead to the published state leaves the manifest, which
    /// is checked as ever. A delta signed by an untrusted key, or with a signature that does not
    /// match, still stops the sync (someone signed what the publisher did not); one without a
    /// signature at all is taken as one the server lacks. A network that failed stops it too:
    /// the manifest would fail alike, and the next run goes on.
    static func fullManifestMayReplace(delta path: String, after error: SyncError) -> Bool {
        if error.reason == .inconsistent { return true }
        guard error.file == path || error.file == path + PackFormat.signatureSuffix else { return false }
        switch error.reason {
        case .notFound, .sizeMismatch, .hashMismatch, .malformed, .unknownFormat, .oversized: return true
        case .transport: return error.definitive
        case .badSignature: return error.signatureMissing
        default: return false
        }
    }

    /// Unsigned packs allowed and no key: a pack whose pointer is signed is still refused. Taken
    /// unchecked, the store would remember no key and check no later version either (a sync
    /// run again without its `--public-key` did so, with a warning; an app developer's find).
    private func refuseSignedWithoutKey() async throws(SyncError) {
        let path = PackFormat.pointerPath + PackFormat.signatureSuffix
        guard let signature = try? await fetcher.fetch(path, limit: PackSignature.maxBytes, tooLarge: .oversized),
            PackSignature.hasSignatureLine(signature)
        else { return }
        throw SyncError(
            .untrusted, file: path,
            "the pack is signed, but no key to check it with was given: give the publisher's public key; a store that takes a signed pack unchecked checks no later version either")
    }

    // MARK: Steps

    private func trustedKeys(_ state: PackStoreState) throws(SyncError) -> (keys: [PackPublicKey], pin: [String]?) {
        if !configuration.trustedKeys.isEmpty {
            return (configuration.trustedKeys, configuration.trustedKeys.map(\.base64))
        }
        if !state.trustedKeys.isEmpty {
            var keys: [PackPublicKey] = []
            for text in state.trustedKeys {
                do {
                    keys.append(try PackPublicKey(base64: text))
                } catch {
                    throw SyncError(.store, "the store's remembered key is damaged: \(error.message)")
                }
            }
            return (keys, nil)
        }
        guard configuration.allowUnsigned else {
            throw SyncError(.untrusted, "no public key to check the pack's signatures with; give the publisher's key (`--public-key`)")
        }
        return ([], nil)
    }

    private func applyDelta(
        _ ref: PackDeltaRef, pointer: PackPointer, state: PackStoreState, keys: [PackPublicKey], pinned: [String]?,
        report: inout SyncReport, counted: inout Set<String>
    ) async throws(SyncError) {
        let data = try await fetchVerified(ref.file, keys: keys, counting: &report.metadataBytesTransferred)
        let delta: PackDelta
        do {
            delta = try PackDelta.decode(data, file: ref.file.path)
        } catch {
            throw SyncError(error)
        }
        guard delta.pack == pointer.pack, delta.from == state.version, delta.version == pointer.version else {
            throw SyncError(
                .malformed, file: ref.file.path,
                "the delta is for pack '\(delta.pack)' from \(delta.from) to \(delta.version), not what the pointer says ('\(pointer.pack)' from \(state.version) to \(pointer.version))")
        }
        let update = StoreUpdate(
            pack: pointer.pack, version: pointer.version, created: delta.created, manifestSHA256: pointer.manifest.sha256,
            count: delta.count, digest: delta.digest, baseVersion: state.version,
            content: .delta(upserts: delta.upserts, tombstones: delta.tombstones), trustedKeys: pinned)
        report.method = .delta(from: state.version)
        try await download(delta.upserts.flatMap(\.media), thenApply: update, report: &report, counted: &counted)
    }

    private func applyFull(
        pointer: PackPointer, state: PackStoreState, keys: [PackPublicKey], pinned: [String]?, report: inout SyncReport,
        counted: inout Set<String>
    ) async throws(SyncError) {
        let data = try await fetchVerified(pointer.manifest, keys: keys, counting: &report.metadataBytesTransferred)
        let manifest: PackManifest
        do {
            manifest = try PackManifest.decode(data, file: pointer.manifest.path)
        } catch {
            throw SyncError(error)
        }
        guard manifest.pack == pointer.pack, manifest.version == pointer.version else {
            throw SyncError(
                .malformed, file: pointer.manifest.path,
                "the manifest is pack '\(manifest.pack)' version \(manifest.version), not '\(pointer.pack)' version \(pointer.version) as the pointer says")
        }
        let update = StoreUpdate(
            pack: pointer.pack, version: pointer.version, created: manifest.created, manifestSHA256: pointer.manifest.sha256,
            count: manifest.records.count, digest: manifest.digest, baseVersion: state.version,
            content: .full(records: manifest.records), trustedKeys: pinned)
        report.method = .full
        try await download(manifest.media, thenApply: update, report: &report, counted: &counted)
    }

    /// Downloads the media of `refs` the store lacks and applies `update`. The report counts the
    /// downloads before the store is written (a delta that does not add up has still cost them),
    /// and not again those it counted already (by this sync's attempt of a delta).
    private func download(
        _ refs: [PackMediaRef], thenApply update: StoreUpdate, report r: inout SyncReport, counted: inout Set<String>
    ) async throws(SyncError) {
        let stored = try store.storedMedia(among: refs)
        var missing: [PackMediaRef] = []
        var seen = Set<String>()
        for ref in refs.sorted() where !stored.contains(ref.sha256) && seen.insert(ref.sha256).inserted {
            guard ref.bytes <= configuration.limits.mediaBytes else {
                throw SyncError(.oversized, file: ref.path, "\(ref.bytes) bytes is more than the \(configuration.limits.mediaBytes) bytes allowed for one media file")
            }
            missing.append(ref)
        }
        let total = missing.reduce(0) { $0 + $1.bytes }
        guard total <= configuration.limits.updateBytes else {
            throw SyncError(.oversized, "the update needs \(total) bytes of media, more than the \(configuration.limits.updateBytes) allowed")
        }
        try emit(.plan(method: r.method, media: missing.count, mediaBytes: total))
        let downloader = MediaDownloader(
            transport: transport, directory: downloadsDirectory, retry: retry,
            concurrency: configuration.concurrentDownloads, onEvent: configuration.onEvent)
        let outcomes = try await downloader.fetchAll(missing)
        for (sha256, outcome) in outcomes where !counted.contains(sha256) {
            if outcome.reused { r.mediaReused += 1 } else { r.mediaDownloaded += 1 }
            counted.insert(sha256)
            if outcome.resumed { r.mediaResumed += 1 }
            r.mediaBytesTransferred += outcome.transferred
        }
        if Task.isCancelled { throw SyncError(.cancelled, "the sync was cancelled before applying; the store is unchanged") }
        try emit(.applying)
        let result = try store.apply(update, stagedMedia: outcomes.mapValues(\.path)) { () throws(SyncError) in
            try emit(.committing)
        }
        try? configuration.onEvent?(.committed(version: update.version))
        for outcome in outcomes.values { StagingFiles.remove(outcome.path) }
        r.recordsUpserted = result.upserted
        r.recordsDeleted = result.deleted
        r.mediaRemoved = result.mediaRemoved
    }

    // MARK: Fetching

    private func emit(_ event: SyncEvent) throws(SyncError) {
        do {
            try configuration.onEvent?(event)
        } catch {
            throw SyncError(.cancelled, "stopped: \(error)")
        }
    }

    /// A manifest or delta at exactly the size and hash `ref` names, with a valid signature.
    /// `bytes` counts what was received, also when the file is then refused (a delta at the wrong
    /// size or hash still cost its download before the manifest's).
    private func fetchVerified(_ ref: PackFileRef, keys: [PackPublicKey], counting bytes: inout Int) async throws(SyncError) -> Data {
        guard ref.bytes <= configuration.limits.metadataBytes else {
            throw SyncError(.oversized, file: ref.path, "\(ref.bytes) bytes is more than the \(configuration.limits.metadataBytes) bytes allowed for a manifest or delta")
        }
        let data = try await fetcher.fetch(ref.path, limit: ref.bytes, tooLarge: .sizeMismatch)
        bytes += data.count
        guard data.count == ref.bytes else {
            throw SyncError(.sizeMismatch, file: ref.path, "the file has \(data.count) bytes, but the pointer says \(ref.bytes)")
        }
        guard PackDigest.sha256(data) == ref.sha256 else {
            throw SyncError(.hashMismatch, file: ref.path, "the file's SHA-256 is not the one the pointer names; it was altered or damaged")
        }
        if !keys.isEmpty { _ = try await checkSignature(data, path: ref.path, keys: keys) }
        return data
    }

    private func checkSignature(_ data: Data, path: String, keys: [PackPublicKey]) async throws(SyncError) -> String {
        let sigPath = path + PackFormat.signatureSuffix
        func unsigned(_ why: String) -> SyncError {
            var error = SyncError(.badSignature, file: path, "the file is not signed (\(why)), but a signature by a trusted key is required")
            error.signatureMissing = true
            return error
        }
        let signature: Data
        do {
            signature = try await fetcher.fetch(sigPath, limit: PackSignature.maxBytes, tooLarge: .oversized)
        } catch where error.reason == .notFound {
            // Without a signed pointer no file of the pack is likely to be: say how packs are signed.
            if path == PackFormat.pointerPath {
                var error = unsigned("no \(sigPath)")
                error.message += "; " + PackSignature.unsignedPackHint
                throw error
            }
            // The pointer names this file by its hash, so it is the publisher's: its signature
            // not there yet is an upload under way (the files go up one by one), as the file
            // itself missing is (an app developer's).
            var error = unsigned("no \(sigPath)")
            error.message += "; a publish still uploading its files may not have put it there yet: try again later"
            error.signatureNotYetThere = true
            throw error
        } catch where error.reason == .oversized {
            // No signature file is that large (a line is about 140 bytes): a page in its place.
            throw unsigned("\(sigPath) is larger than the \(PackSignature.maxBytes) bytes of any signature file: a page served in its place?")
        }
        // Not one `ed25519` line: a page a server gives with 200 for a file it lacks (in any
        // encoding), or an empty file. Taken as no signature (a delta's falls back as a 404
        // does); a file with a signature line, damaged or wrong, is refused below.
        if !PackSignature.hasSignatureLine(signature) {
            throw unsigned("\(sigPath) holds no Ed25519 signature line: a page served in its place?")
        }
        switch PackSignature.verify(data, signatureFile: signature, trustedKeys: keys) {
        case .valid(let keyID): return keyID
        case .invalid(let why) where why.hasPrefix(PackSignature.untrustedSigner) && configuration.trustedKeys.isEmpty:
            // Trusted by memory alone: after a key rotation, the store still trusts the old key.
            let remembered = keys.map { String($0.keyID.prefix(16)) + "…" }.joined(separator: ", ")
            throw SyncError(
                .badSignature, file: path,
                "\(why) (this store trusts the key\(keys.count == 1 ? "" : "s") it remembers from its last sync, \(remembered); after a key rotation, give the client the publisher's new key: `bestiary sync --public-key KEY`)")
        case .invalid(let why) where why.hasPrefix(PackSignature.untrustedSigner):
            if let hint = PackSignature.privateKeyHint(keys, data: data, signatureFile: signature) {
                throw SyncError(.badSignature, file: path, "\(why): \(hint)")
            }
            // The signer and the keys given are named by their ids, never by the text given: a
            // private key given in place of a public one would be printed (a reviewer's find).
            let trusted = keys.map { "id \($0.keyID.prefix(16))…" }.joined(separator: "; ")
            throw SyncError(.badSignature, file: path, "\(why) (the trusted key\(keys.count == 1 ? "" : "s"): \(trusted))")
        case .invalid(let why): throw SyncError(.badSignature, file: path, why)
        }
    }
}
