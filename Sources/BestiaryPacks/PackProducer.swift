import BestiaryContent
import BestiaryDiagnostics
import BestiaryPackFormat
import BestiaryStorage
import BestiaryCrypto
import Foundation

/// The `packs` stage of `bestiary build`: turns the catalogue into a published pack tree
/// (DESIGN.md §5, docs/packs.md) and the next `content/packs.lock`.
///
/// A pure function of its inputs, apart from signatures: it writes nothing. The build stages
/// ``PackOutput/files`` under `output/packs/`, swaps the output in, and only then writes
/// ``PackOutput/lock`` (so a failed build never records a version nobody can download).
public struct PackProducer: Sendable {
    public let fileSystem: any FileSystem
    /// Warn when the packs are not signed; off for the preview, which never signs (its versions
    /// are never published).
    public var warnsUnsigned = true
    /// Unsigned because the build was asked to be (`build --unsigned`): the warning says so, and
    /// not how to sign.
    public var unsignedOnPurpose = false
    /// Time the packs by the day they are made (never before the last version): the preview's,
    /// which are never published.
    public var dayClock = false

    public init(fileSystem: any FileSystem = LocalFileSystem()) {
        self.fileSystem = fileSystem
    }

    /// Makes the pack tree of the catalogue.
    ///
    /// - Parameters:
    ///   - texts: per record id, per language: the text apps show (Wikipedia summaries).
    ///   - media: every media file records use, by its path relative to `content/`
    ///     (``mediaDigests(for:)`` makes them).
    ///   - lock: the current `content/packs.lock` (``PackLock/load(root:fileSystem:)``), nil if none.
    ///   - signingKeys: Ed25519 keys to sign with (``SigningKeys/load(environment:file:fileSystem:)``);
    ///     empty for an unsigned pack.
    ///   - now: the build time (`SOURCE_DATE_EPOCH` when set): a new version's creation time and
    ///     the start of the pointer's validity.
    ///   - locked: `--locked`: fail instead of adding a version.
    ///   - kept: the previous build's manifest: records whose inputs are unchanged are taken from it.
    ///   - unchanged: the ids of animals whose inputs are known to be those `kept` was made from
    ///     (none of their files changed): their input digests are taken from `kept`'s table.
    public func produce(
        catalog: Catalog, texts: [String: [String: PackText]] = [:], media: [String: MediaDigest], lock: PackLock?,
        signingKeys: [Curve25519.Signing.PrivateKey], now: Date, locked: Bool, kept: KeptRecords? = nil,
        unchanged: Set<String>? = nil, published: PublishedVersion? = nil
    ) throws(DiagnosticError) -> PackOutput {
        guard let settings = catalog.config.packs else {
            return PackOutput(
                settings: nil, files: [], lock: nil, version: 0, isNewVersion: false, signed: false, records: 0, changes: [],
                diagnostics: [])
        }
        var diagnostics: [Diagnostic] = []

        // Keys: the site may say which keys its apps trust; a key outside that list is a mistake.
        if !settings.publicKeys.isEmpty {
            if signingKeys.isEmpty, warnsUnsigned {
                let what = unsignedOnPurpose
                    ? "never deploy this output (built with --unsigned)" : "set BESTIARY_SIGNING_KEY or pass --signing-key"
                diagnostics.append(.warning(
                    "packs are not signed although site.yml lists packs.public_keys, so apps that trust those keys will refuse them; \(what)",
                    at: catalog.config.location(of: "packs.public_keys"), stage: "packs"))
            }
            // A public key given where the private one belongs (both are 32 bytes of base64).
            for key in signingKeys where settings.publicKeys.contains(PackKeys.base64(key)) {
                throw DiagnosticError(.error(
                    "the signing key is one of site.yml's packs.public_keys: either it is a public key, not the private key it belongs to (sign with the value `bestiary keys generate` printed after 'private-key:'), or site.yml lists a private key (remove it and make a new key pair: that key is no longer secret)",
                    at: catalog.config.location(of: "packs.public_keys"), stage: "packs"))
            }
            for key in signingKeys where !settings.publicKeys.contains(PackKeys.base64(key.publicKey)) {
                throw DiagnosticError(.error(
                    "the signing key's public key \(PackKeys.base64(key.publicKey)) is not in site.yml's packs.public_keys; apps that trust those keys would refuse the pack",
                    at: catalog.config.location(of: "packs.public_keys"), stage: "packs"))
            }
        } else if signingKeys.isEmpty, warnsUnsigned {
            diagnostics.append(.warning(
                unsignedOnPurpose ? "packs are not signed (built with --unsigned)"
                    : "packs are not signed: set BESTIARY_SIGNING_KEY or pass --signing-key FILE (`bestiary keys generate` makes a key pair); packs are for apps (docs/packs.md): a site without one can leave `packs:` out of content/site.yml",
                stage: "packs"))
        }

        // Records.
        var (records, digestList) = try Self.records(of: catalog, texts: texts, media: media, kept: kept, unchanged: unchanged)
        var inputDigests: [String: String] = [:]
        inputDigests.reserveCapacity(records.count)
        for (record, digest) in zip(records, digestList) { inputDigests[record.id] = digest }
        digestList = []
        var revisions: [String: String] = [:]
        for r in records { revisions[r.id] = r.rev }
        // The records come sorted by id (their bytes' order): hashed as they are, not sorted again.
        let digest = PackDigest.state(ordered: records.lazy.map { (id: $0.id, rev: $0.rev) })

        // History.
        let location = SourceLocation(path: PackLock.path)
        if let renamed = Self.renamedPack(lock: lock, settings: settings) { throw DiagnosticError(renamed) }
        var history = lock ?? PackLock(pack: settings.id)
        var created = PackTime(now)
        if dayClock {
            // The preview's packs, never published, change only when their content does: the same
            // bytes all day (each rebuild rewrote latest.json, and a restarted preview could never
            // take the output as it was).
            created = max(PackTime(seconds: created.seconds - created.seconds % 86_400), history.latest?.created ?? PackTime(seconds: 0))
        }
        // Dates are written with four-digit years: a pointer expiring after 9999 no client reads.
        if created.adding(days: settings.expiresDays).seconds >= 253_402_300_800 {
            throw DiagnosticError(.error(
                "the build time \(created) plus packs.expires_days (\(settings.expiresDays)) is after the year 9999; check SOURCE_DATE_EPOCH and the clock",
                at: catalog.config.location(of: "packs.expires_days"), stage: "packs"))
        }
        var isNew = false
        var changes: [PackLock.Change] = []
        // Also when the content is unchanged: the pointer would expire counting from a time before
        // the version it points at (it was published so, with a warning).
        if let latest = history.latest, created < latest.created {
            throw DiagnosticError(.error(
                "the build time \(created) is before version \(latest.number)'s creation (\(latest.created)); versions are made in order, so builds go on from that time: if version \(latest.number) was made with a SOURCE_DATE_EPOCH or a clock ahead (up to a day ahead is let through), build with SOURCE_DATE_EPOCH=\(latest.created.seconds) or later until the clock gets there; else check SOURCE_DATE_EPOCH and the clock",
                at: location, stage: "packs"))
        }
        if history.latest?.digest != digest {
            // A version a build published but could not record in the lock is made again with
            // its own creation time: the same bytes, which apps that have it accept. Other
            // content under its number would be refused by those apps: the build stops.
            var made = created
            let number = (history.latest?.number ?? 0) + 1
            if let published, published.version == number, !(published.created < (history.latest?.created ?? published.created)) {
                guard published.digest == digest else {
                    throw DiagnosticError(.error(
                        "version \(number) was published by the build of \(published.created), which could not record it here, with other content than now; building now would publish another version \(number), which apps that have the first refuse. Put back the content that build had and build (it records version \(number); your changes then become version \(number + 1)), or, if that output was never deployed, delete \(published.note ?? "the note next to the output")",
                        at: location, stage: "packs"))
                }
                made = published.created
            }
            var candidate = history
            candidate.append(revisions: revisions, created: made, digest: digest)
            changes = candidate.latest!.changes
            if locked {
                let what = history.latest.map { "since version \($0.number)" } ?? "and there is no content/packs.lock yet"
                throw DiagnosticError(.error(
                    "the catalogue changed \(what) (\(Self.describe(changes))); --locked forbids a new pack version: run `bestiary build` without --locked and commit content/packs.lock",
                    at: location, stage: "packs"))
            }
            if revisions.isEmpty, let latest = history.latest, latest.count > 0 {
                diagnostics.append(.warning(
                    "pack version \(latest.number + 1) has no records: every app that syncs it deletes the \(latest.count) it has; if content/animals/ is empty by mistake, restore it and build again before deploying",
                    at: location, stage: "packs"))
            }
            // The first version of a signed pack: a new pack's first build, or a clone whose lock
            // was deleted (`git rm`), which published version 1 again with a note alone, and every
            // app that holds a later one refuses it (an app developer's CI).
            if history.latest == nil, !settings.publicKeys.isEmpty, !signingKeys.isEmpty {
                diagnostics.append(.warning(
                    "there is no content/packs.lock, so this is version 1 of pack '\(settings.id)', signed for the apps site.yml's packs.public_keys name: if the pack was published before, those apps hold a later version and refuse this one; restore content/packs.lock (`git log --oneline -- content/packs.lock` lists the commits that changed it; `git checkout COMMIT -- content/packs.lock`) and build again. On a new pack's first build, this is as it should be",
                    at: location, stage: "packs"))
            }
            history = candidate
            isNew = true
        }
        let current = history.latest!

        // Files.
        var manifest = PackManifest(pack: settings.id, version: current.number, created: current.created, records: records)
        records = []  // the manifest's records are now the only ones holding their bytes
        // A one-shot rebuild writes the manifest in parts: the runs of records the last one holds
        // in the same order are slices of that file (mapped), not copied into a new buffer of the
        // whole (39 MB of new memory on the bench corpus, about 0.1 CPU-s to fill). A build
        // without one, and the preview (which keeps the new manifest in memory for its next
        // rebuild), make it whole, each record's bytes moved into it; so does a rebuild that made
        // most records again (a changed site.yml).
        var manifestBytes: Data?
        var manifestPieces: [Data]?
        let ranges: [Range<Int>]
        // A one-shot rebuild lists the media once, for the manifest's header and for the files
        // (the list is small beside what a rebuild holds anyway); a build without a kept
        // manifest lists them again for the files (see there).
        let listedMedia = kept.map { !$0.madeHere } == true ? manifest.media : nil
        if let kept, let listedMedia, let made = manifest.encodePieces(within: kept.manifest, media: listedMedia) {
            (manifestPieces, ranges) = (made.pieces, made.ranges)
        } else {
            let whole = manifest.encodeSharingRecords()
            manifestBytes = whole
            ranges = manifest.records.map { ($0.encoded.startIndex - whole.startIndex)..<($0.encoded.endIndex - whole.startIndex) }
        }
        var table = PackRecordTable(manifestPath: PackFormat.manifestPath(version: current.number), entries: [:])
        table.entries.reserveCapacity(manifest.records.count)
        for (record, range) in zip(manifest.records, ranges) {
            guard let digest = inputDigests[record.id] else { continue }
            table.entries[record.id] = PackRecordTable.Entry(digest: digest, offset: range.lowerBound, length: range.count)
        }
        inputDigests = [:]
        let baseNumbers = Set(max(1, current.number - settings.keepDeltas)..<current.number)
        let bases = history.changes(since: baseNumbers).map { PackWriter.BaseState(version: $0.key, changed: $0.value) }
        // (Timed by the day, a preview's pointer counts its days from that day's start: one more
        // day, so that it never expires sooner after it was made than expires_days says.)
        let expires = created.adding(days: settings.expiresDays + (dayClock ? 1 : 0))
        var writer = PackWriter(manifest: manifest, encodedManifest: manifestBytes, bases: bases, expires: expires, signingKeys: signingKeys)
        writer.manifestPieces = manifestPieces
        var files: [PackFile]
        do {
            files = try writer.write().files
        } catch {
            throw DiagnosticError(.error("cannot sign the pack: \(error)", stage: "packs"))
        }
        var sources: [String: String] = [:]
        for digest in media.values { sources[digest.sha256] = sources[digest.sha256] ?? digest.sourcePath }
        for byLanguage in texts.values {
            for text in byLanguage.values {
                if let image = text.image { sources[image.media.sha256] = sources[image.media.sha256] ?? image.media.sourcePath }
            }
        }
        // A build without a kept manifest lists them again rather than keeping the header's list:
        // the list (24,555 references on the bench corpus) held while the files are made raised a
        // full build's peak. A one-shot rebuild kept its list (above).
        var links: [PackFile] = []
        for ref in listedMedia ?? manifest.media {
            guard let source = sources[ref.sha256] else { continue }  // unreachable: every ref came from a digest
            links.append(PackFile(path: ref.path, contents: .link(from: source)))
        }
        files = Self.sortedByPath(files, merging: links)
        return PackOutput(
            settings: settings, files: files, lock: isNew ? history.encoded : nil, version: current.number, isNewVersion: isNew,
            signed: !signingKeys.isEmpty, records: manifest.records.count, changes: changes, diagnostics: diagnostics,
            recordTable: table,
            published: PublishedVersion(version: current.number, created: current.created, digest: current.digest, pack: settings.id),
            expires: expires)
    }

    /// `files` and `links` in one list sorted by path in code point order (the order the pack's
    /// files are staged and recorded in). The media links come sorted by hash, which is their
    /// paths' order (`media/HASH.EXT`): they are checked to be, one comparison each, and merged
    /// with the few other files rather than sorted with them (25,000 links on the bench corpus,
    /// about 15 comparisons of two paths each). Links out of order are sorted with the rest.
    static func sortedByPath(_ files: [PackFile], merging links: [PackFile]) -> [PackFile] {
        let before = { (a: PackFile, b: PackFile) in CanonicalJSON.codePointOrder(a.path, b.path) }
        guard zip(links, links.dropFirst()).allSatisfy({ !before($1, $0) }) else { return (files + links).sorted(by: before) }
        // (On equal paths, the other file first, as a sort of the files followed by the links kept them.)
        return .merging(files.sorted(by: before), links, by: before)
    }

    /// A version a build published (swapped into the output) but could not record in the lock,
    /// as that build noted it next to the output: `N created T digest D`.
    public struct PublishedVersion: Sendable, Equatable {
        public var version: Int
        public var created: PackTime
        public var digest: String
        /// The pack (`packs.id`) the version is of; nil in a note from before it was written.
        public var pack: String?
        /// The note's file, for messages.
        public var note: String?

        public init(version: Int, created: PackTime, digest: String, pack: String? = nil, note: String? = nil) {
            self.version = version
            self.created = created
            self.digest = digest
            self.pack = pack
            self.note = note
        }

        /// The note's line: `N created T digest D pack ID`.
        public var line: String { "\(version) created \(created) digest \(digest)\(pack.map { " pack \($0)" } ?? "")\n" }

        /// The note read back (with or without its pack); nil when it is not one.
        public init?(line text: String, note: String? = nil) {
            let parts = text.split(whereSeparator: \.isWhitespace)
            guard parts.count == 5 || (parts.count == 7 && parts[5] == "pack"), parts[1] == "created", parts[3] == "digest",
                let version = Int(parts[0]), let created = PackTime(String(parts[2])), parts[4].count == 64
            else { return nil }
            self.init(version: version, created: created, digest: String(parts[4]), pack: parts.count == 7 ? String(parts[6]) : nil, note: note)
        }
    }

    /// The error when `lock` is the history of another pack than site.yml's `packs.id` (the
    /// build stops at it; `bestiary check` reports it too).
    public static func renamedPack(lock: PackLock?, settings: PackSettings?) -> Diagnostic? {
        guard let lock, let settings, lock.pack != settings.id else { return nil }
        return .error(
            "the pack history is for pack '\(lock.pack)' but site.yml says packs.id '\(settings.id)'; apps of '\(lock.pack)' would not follow a renamed pack. Put the id back, or delete content/packs.lock to start '\(settings.id)' at version 1",
            at: SourceLocation(path: PackLock.path), stage: "packs")
    }

    /// Every animal's record, sorted by id, holding only its published bytes (10,000 records'
    /// trees are tens of MB), and the digest of each one's inputs. A record whose inputs have the
    /// digest `kept` has for it is taken from there as it is; so is an `unchanged` animal's, with
    /// its digest (``produce(catalog:texts:media:lock:signingKeys:now:locked:kept:unchanged:published:)``).
    static func records(
        of catalog: Catalog, texts: [String: [String: PackText]], media: [String: MediaDigest], kept: KeptRecords? = nil,
        unchanged: Set<String>? = nil
    ) throws(DiagnosticError) -> ([PackRecord], [String?]) {
        let animals = catalog.animals.sorted { CanonicalJSON.codePointOrder($0.id, $1.id) }
        let built = Parallel.map(animals) { animal -> Result<(PackRecord, String?), DiagnosticError> in
            let texts = texts[animal.id] ?? [:]
            let known = unchanged?.contains(animal.id) == true ? kept?.table.entries[animal.id]?.digest : nil
            let digest = known ?? RecordPayload.inputDigest(for: animal, texts: texts, media: media)
            if let digest, let bytes = kept?.bytes(of: animal.id, digest: digest),
                let record = PackRecord.published(
                    id: animal.id, media: RecordPayload.mediaRefs(for: animal, texts: texts, media: media), bytes: bytes,
                    checkingRev: kept?.madeHere != true)
            {
                return .success((record, digest))
            }
            do throws(DiagnosticError) {
                return .success((try RecordPayload.record(for: animal, texts: texts, media: media), digest))
            } catch {
                return .failure(error)
            }
        }
        var records: [PackRecord] = []
        var digests: [String?] = []
        records.reserveCapacity(built.count)
        digests.reserveCapacity(built.count)
        var bag = DiagnosticBag()
        for result in built {
            switch result {
            case .success(let (r, d)):
                records.append(r)
                digests.append(d)
            case .failure(let e): bag.append(contentsOf: e.diagnostics)
            }
        }
        if bag.hasErrors { throw DiagnosticError(bag.sorted) }
        return (records, digests)
    }

    /// Hashes every media file of the catalogue (in parallel), keyed by path under `content/`.
    public func mediaDigests(for catalog: Catalog) throws(DiagnosticError) -> [String: MediaDigest] {
        let files = catalog.mediaFiles.values.sorted { $0.path < $1.path }
        let content = catalog.contentDirectory
        let results = Parallel.map(files, chunk: 4) { file -> Result<MediaDigest, DiagnosticError> in
            do {
                return .success(try MediaDigest.compute(path: content + "/" + file.path, format: file.format, fileSystem: fileSystem))
            } catch {
                return .failure(DiagnosticError(.error(
                    "cannot read the media file: \(error)", at: SourceLocation(path: "content/" + file.path), stage: "packs")))
            }
        }
        var out: [String: MediaDigest] = [:]
        var bag = DiagnosticBag()
        for (file, result) in zip(files, results) {
            switch result {
            case .success(let d): out[file.path] = d
            case .failure(let e): bag.append(contentsOf: e.diagnostics)
            }
        }
        if bag.hasErrors { throw DiagnosticError(bag.sorted) }
        return out
    }

    /// "2 added: fox, owl; 1 changed: bear; 1 removed: cat", with long lists shortened.
    static func describe(_ changes: [PackLock.Change]) -> String {
        var added: [String] = [], changed: [String] = [], removed: [String] = []
        for c in changes {
            switch c {
            case .added(let id, _): added.append(id)
            case .changed(let id, _): changed.append(id)
            case .removed(let id): removed.append(id)
            }
        }
        func part(_ ids: [String], _ verb: String) -> String? {
            guard !ids.isEmpty else { return nil }
            let shown = ids.prefix(5).joined(separator: ", ") + (ids.count > 5 ? ", …" : "")
            return "\(ids.count) \(verb): \(shown)"
        }
        return [part(added, "added"), part(changed, "changed"), part(removed, "removed")].compactMap { $0 }.joined(separator: "; ")
    }
}
