import BestiaryContent
import BestiaryDiagnostics
import BestiaryPackFormat
import BestiaryPacks
import BestiaryStorage
import BestiaryWikipedia
import Foundation

/// The packs stage: maps what the earlier stages know (the catalogue, media hashes, cached
/// summaries) into ``PackProducer``'s inputs, and its output into files under `output/packs/`.
enum PackStage {
    /// `lock`: the pack history as ``lock(of:options:)`` read it ahead, if it did.
    static func run(
        catalog: Catalog, media: [String: MediaRecord], summaries: [String: [String: ResolvedSummary]],
        options: BuildOptions, now: Date, keys: [SigningKeys.Key], kept: KeptRecords? = nil,
        lock readAhead: Result<PackLock?, DiagnosticError>? = nil, unrecorded: String? = nil, pending: String? = nil, publishedNote: String? = nil,
        outputIndex: String? = nil, memo: BuildMemo? = nil, unchanged: Set<String>? = nil, leavingToExit: Bool = false
    ) throws(DiagnosticError) -> PackOutput {
        let fs = options.fileSystem
        guard catalog.config.packs != nil else {
            return try PackProducer(fileSystem: fs).produce(
                catalog: catalog, media: [:], lock: nil, signingKeys: [], now: now, locked: options.locked)
        }
        let lock: PackLock?
        if let readAhead { lock = try readAhead.get() } else { lock = try Self.lock(of: catalog, options: options, memo: memo) }
        // The media stage hashed every file already: reuse its digests.
        var digests: [String: MediaDigest] = [:]
        digests.reserveCapacity(media.count)
        for (path, record) in media {
            digests[path] = MediaDigest(sha256: record.sha256, bytes: record.bytes, format: record.format, sourcePath: record.fullPath)
        }
        var texts: [String: [String: PackText]] = [:]
        texts.reserveCapacity(summaries.count)
        // As on the pages (``Animal/prefersOwnDescription(in:overSummaryIn:)``).
        let index = Dictionary(catalog.animals.indices.map { (catalog.animals[$0].id, $0) }, uniquingKeysWith: { a, _ in a })
        for (id, byLanguage) in summaries {
            // Each animal's texts made room for at once: grown one language at a time, 10,000
            // tables were made twice on the bench corpus.
            var own: [String: PackText] = [:]
            own.reserveCapacity(byLanguage.count)
            for (language, summary) in byLanguage
            where !(index[id].map { catalog.animals[$0].prefersOwnDescription(in: language, overSummaryIn: summary.language) } ?? false) {
                own[language] = text(of: summary)
            }
            if !own.isEmpty { texts[id] = own }
        }
        // The version a build published but could not record in the lock (the preview, which
        // records nothing and whose output is never deployed, goes by the lock alone).
        // Else one noted as pending before a build's swap (killed after it, before the lock was
        // written, it published version N, and the next build made another N with other bytes):
        // it counts when the output does publish that version, and is left over otherwise (the
        // build stopped before its swap).
        let pendingNote = options.recordsPackVersions ? pending.flatMap { Self.versionNote(at: $0, fileSystem: fs) } : nil
        let swapped = pendingNote.flatMap { Self.outputPublishes($0, options: options) ? $0 : nil }
        if let pending, pendingNote != nil, swapped == nil { try? fs.remove(pending) }
        let published = options.recordsPackVersions ? unrecorded.flatMap { Self.versionNote(at: $0, fileSystem: fs) } ?? swapped : nil
        // (A note of another pack is that pack's: a renamed `packs.id` starts its own history.)
        if options.recordsPackVersions, let shipped = publishedNote.flatMap({ Self.versionNote(at: $0, fileSystem: fs) }),
            shipped.pack == nil || shipped.pack == catalog.config.packs?.id
        {
            try Self.checkHistory(lock: lock, noted: published, against: shipped)
        } else if options.recordsPackVersions, let settings = catalog.config.packs, let outputIndex, fs.info(outputIndex) == nil {
            // Nothing kept next to the output (every `.NAME.bestiary-*` file deleted with the
            // lock, or a fresh clone building into an output kept from elsewhere): the output's
            // own signed pointer. (A note deleted as the error above advises leaves the index.)
            try Self.checkHistory(lock: lock, noted: published, againstPointerOf: settings.id, options: options)
        }
        var producer = PackProducer(fileSystem: fs)
        producer.warnsUnsigned = options.signsPacks
        producer.unsignedOnPurpose = options.allowsUnsignedPacks
        // Without SOURCE_DATE_EPOCH (which gives the time itself), the preview's packs are timed
        // by the day: its outputs are the same bytes all day while the content is.
        producer.dayClock = !options.recordsPackVersions && options.environment["SOURCE_DATE_EPOCH"] == nil
        var output = try producer.produce(
            catalog: catalog, texts: texts, media: digests, lock: lock, signingKeys: keys, now: now, locked: options.locked, kept: kept,
            unchanged: unchanged, published: published)
        // A build in a process that ends with it leaves these to the exit, not freed one by one.
        if leavingToExit { ProcessMemory.leaveToExit([texts, digests, index]) }
        // Versions are created in order: one recorded with a build time ahead of the clock (a
        // SOURCE_DATE_EPOCH in the future) would fail every later build that changes the content
        // until that time comes, and the lock, sealed, cannot be mended by hand. A day of skew
        // between machines is let through, and so is a time no later than the last version's
        // (a site whose history is already ahead can only go on from there).
        let clock = options.time.now()
        let latest = lock?.latest?.created.date ?? .distantPast
        if options.recordsPackVersions, output.isNewVersion, now.timeIntervalSince(max(clock, latest)) > 86_400 {
            // Rounded: a SOURCE_DATE_EPOCH of "now + 5 days" taken a second before this clock was
            // read is 5 days ahead, not 4.
            let days = Int((now.timeIntervalSince(clock) / 86_400).rounded())
            throw DiagnosticError(.error(
                "the build time \(PackTime(now)) (SOURCE_DATE_EPOCH) is \(days) day\(days == 1 ? "" : "s") ahead of this machine's clock (\(PackTime(clock))): pack version \(output.version) recorded with it would make every later build that changes the content fail until then, since versions are created in order; check SOURCE_DATE_EPOCH and the clock",
                at: SourceLocation(path: PackLock.path), stage: "packs"))
        }
        // The pointer's validity starts at the build time: an old SOURCE_DATE_EPOCH (a commit's
        // date in CI) can make it expire before it is deployed.
        // Signed, the build is one to deploy, and every app would refuse it at once: an error, as
        // a missing key is (found by an app maker). Unsigned (a check, the preview), a warning.
        if let settings = catalog.config.packs, let expires = output.expires {
            if expires < PackTime(clock) {
                let problem = Diagnostic(
                    keys.isEmpty ? .warning : .error,
                    "the packs' latest.json expired at \(expires), before it was even built: its validity (packs.expires_days: \(settings.expiresDays)) starts at the build time, which SOURCE_DATE_EPOCH sets to \(PackTime(now)), and apps refuse an expired pointer; build with a recent SOURCE_DATE_EPOCH, or raise packs.expires_days",
                    at: catalog.config.location(of: "packs.expires_days"), stage: "packs")
                if !keys.isEmpty { throw DiagnosticError([problem]) }
                output.diagnostics.append(problem)
            } else if case let left = expires.date.timeIntervalSince(clock), left < Double(settings.expiresDays) * 86_400 / 2 {
                // Half its validity gone before it is built: SOURCE_DATE_EPOCH pinned to an old
                // commit (a deploy trial's expired the day after; nothing said so).
                let remaining = left >= 2 * 86_400 ? "\(Int(left / 86_400)) days" : "\(max(1, Int(left / 3_600))) hours"
                output.diagnostics.append(.warning(
                    "the packs' latest.json expires at \(expires), in \(remaining): its validity (packs.expires_days: \(settings.expiresDays)) starts at the build time, which SOURCE_DATE_EPOCH sets to \(PackTime(now)), and apps refuse an expired pointer; build with a recent SOURCE_DATE_EPOCH (a scheduled rebuild must), or raise packs.expires_days",
                    at: catalog.config.location(of: "packs.expires_days"), stage: "packs"))
            }
        }
        if let warning = rotationProblem(keys: keys, catalog: catalog, options: options) {
            output.diagnostics.append(warning)
        }
        return output
    }

    /// A signed build whose keys signed none of the pointer the output holds (the one apps have
    /// now): an app that trusts only the earlier key refuses this version and every later one.
    /// docs/packs.md's rotation signs with both keys while the apps with the new one ship; a
    /// build that skipped that was taken without a word (found by a site's admin).
    /// Without a key at all (a site that lists no `public_keys`, built where the key is not
    /// set), the signatures were dropped with only the warning any unsigned build gets.
    static func rotationProblem(keys: [SigningKeys.Key], catalog: Catalog, options: BuildOptions) -> Diagnostic? {
        guard options.recordsPackVersions, !options.allowsUnsignedPacks, catalog.config.packs != nil,
            let file = try? options.fileSystem.read(options.outputDirectory + "/packs/latest.json.sig"),
            let lines = try? PackSignature.parse(file), !lines.isEmpty
        else { return nil }
        let before = Set(lines.map(\.keyID)), now = keys.map { PackKeys.keyID($0.publicKey) }
        if keys.isEmpty {
            return .warning(
                "this build's packs are unsigned, but those the output publishes now are signed (key \(before.sorted().first!.prefix(12))…): every app that has them refuses an unsigned pointer; set \(SigningKeys.environmentVariable) or pass --signing-key FILE (listing the key in site.yml's packs.public_keys makes a build without it fail)",
                at: catalog.config.location, stage: "packs")
        }
        guard before.isDisjoint(with: now) else { return nil }
        return .warning(
            "this build signs only with keys that did not sign the packs the output publishes now (key \(before.sorted().first!.prefix(12))…, now \(now.first!.prefix(12))…): an app that trusts only the earlier key refuses this pointer and every later one; during a rotation sign with both keys until apps with the new one have shipped (docs/packs.md, \"Key rotation\")",
            at: catalog.config.location(of: "packs.public_keys"), stage: "packs")
    }

    /// The signing keys, read before any page is rendered, so that a missing or bad key file
    /// stops the build at once; none without packs. A site whose `packs.public_keys`
    /// lists the keys its apps trust needs one: an unsigned pack would be refused by every app.
    /// The preview, which never records versions, builds without, as does `build --unsigned`; it
    /// does not even read them (``BuildOptions/signsPacks``).
    static func keys(for catalog: Catalog, options: BuildOptions) throws(DiagnosticError) -> [SigningKeys.Key] {
        // `--unsigned` means unsigned, a key at hand or not: its output is never deployed, and a
        // signed one would be taken by apps (it was signed whenever a key was set).
        guard let settings = catalog.config.packs, options.signsPacks, !options.allowsUnsignedPacks else { return [] }
        let keys = try SigningKeys.load(environment: options.environment, file: options.signingKeyFile, fileSystem: options.fileSystem)
        if keys.isEmpty, !settings.publicKeys.isEmpty, options.recordsPackVersions, !options.allowsUnsignedPacks {
            throw DiagnosticError(.error(
                "no signing key, but site.yml's packs.public_keys lists the keys apps trust: they would refuse an unsigned pack; set \(SigningKeys.environmentVariable) or pass --signing-key FILE (or --unsigned for a build that is not deployed, such as a check on a branch)",
                at: catalog.config.location(of: "packs.public_keys"), stage: "packs"))
        }
        return keys
    }

    /// A version a build noted next to the output (``writeVersionNote(_:at:fileSystem:)``): in
    /// `.NAME.bestiary-unrecorded`, one it published but could not record in the lock; in
    /// `.NAME.bestiary-published`, the one the output publishes.
    static func versionNote(at path: String, fileSystem: any FileSystem) -> PackProducer.PublishedVersion? {
        guard let data = try? fileSystem.readPrefix(path, count: 256) else { return nil }
        return PackProducer.PublishedVersion(line: String(decoding: data, as: UTF8.self), note: path.split(separator: "/").last.map(String.init))
    }

    /// Whether the output's `packs/latest.json` points at `version` of its pack.
    static func outputPublishes(_ version: PackProducer.PublishedVersion, options: BuildOptions) -> Bool {
        let path = options.outputDirectory + "/packs/" + PackFormat.pointerPath
        guard let data = try? options.fileSystem.read(path), let pointer = try? PackPointer.decode(data) else { return false }
        return pointer.version == version.version && (version.pack == nil || version.pack == pointer.pack)
    }

    /// Notes that the output publishes `version` (`path`: which note, ``versionNote(at:fileSystem:)``):
    /// whether the note could be written. A preview never writes one: its versions are never published.
    static func writeVersionNote(_ version: PackProducer.PublishedVersion, at path: String, fileSystem: any FileSystem) -> Bool {
        (try? fileSystem.writeAtomically(Data(version.line.utf8), to: path)) != nil
    }

    /// The pack history (`content/packs.lock`), replayed, with the digests of the versions this
    /// build uses checked: the newest and its deltas' bases. Nil without one, or without packs.
    /// A build of this output published a version the history does not have (`shipped`, as the
    /// build that published it noted next to the output): `content/packs.lock` was deleted,
    /// never committed, or taken back from an older commit. Building on would number the next
    /// version from the history's last, and every app that has the newer one refuses it ("older
    /// than the stored version"). A version only noted as unrecorded (the lock could not be
    /// written, ``versionNote(at:fileSystem:)``) counts as recorded; the preview, whose
    /// versions are never published, notes none.
    static func checkHistory(
        lock: PackLock?, noted: PackProducer.PublishedVersion?, against shipped: PackProducer.PublishedVersion
    ) throws(DiagnosticError) {
        let note = shipped.note ?? "the note next to the output"
        // The lock records that number with other content: another branch's history (each
        // recorded the next version from the same one), or a merge that took the other side. A
        // build on it published the other version N as N, and every app that had the output's
        // refused it and each later one (found by an app maker's audit).
        if let lock, shipped.version >= 1, shipped.version <= lock.versions.count,
            case let recorded = lock.versions[shipped.version - 1], recorded.digest != shipped.digest || recorded.created != shipped.created
        {
            throw DiagnosticError(.error(
                "content/packs.lock records pack version \(shipped.version) (created \(recorded.created)) with other content than the version \(shipped.version) a build of this output published (created \(shipped.created)): this lock is another history (another branch's, or a merge that kept the other side's), and a build on it publishes versions that every app that has the output's version \(shipped.version) refuses. If the output's version was deployed, build from the content/packs.lock that recorded it (its branch, or `git log --oneline -- content/packs.lock` and `git checkout COMMIT -- content/packs.lock`), with your changes on top. If it was only built here and never deployed, delete \(note) and build again",
                at: SourceLocation(path: PackLock.path), stage: "packs"))
        }
        try checkHistory(
            lock: lock, noted: noted, shipped: shipped.version,
            published: "a build of this output published pack version \(shipped.version) (created \(shipped.created))",
            unlessDeployed: "delete \(note) and build again (`bestiary serve` previews without publishing versions)")
    }

    /// The same check against the signed `packs/latest.json` the output holds, when no build
    /// noted what it published next to it: the lock and those notes deleted together (a clean-up
    /// of every `.output.bestiary-*` file) quietly started the pack at version 1 again, and every
    /// app refused it. A preview's pointer, never signed, is not taken for a published one.
    static func checkHistory(
        lock: PackLock?, noted: PackProducer.PublishedVersion?, againstPointerOf pack: String, options: BuildOptions
    ) throws(DiagnosticError) {
        let folder = options.outputDirectory + "/packs/"
        let fs = options.fileSystem
        guard fs.info(folder + PackFormat.pointerPath + PackFormat.signatureSuffix) != nil,
            let data = try? fs.readPrefix(folder + PackFormat.pointerPath, count: 1 << 20),
            let pointer = try? PackPointer.decode(data), pointer.pack == pack
        else { return }
        try checkHistory(
            lock: lock, noted: noted, shipped: pointer.version,
            published: "the output publishes signed pack version \(pointer.version) (\(folder + PackFormat.pointerPath))",
            unlessDeployed: "delete \(options.outputDirectory)/packs and build again")
    }

    private static func checkHistory(
        lock: PackLock?, noted: PackProducer.PublishedVersion?, shipped: Int, published: String, unlessDeployed: String
    ) throws(DiagnosticError) {
        let recorded = max(lock?.latest?.number ?? 0, noted?.version ?? 0)
        guard shipped > recorded else { return }
        let history = recorded == 0 ? "has no content/packs.lock" : "records versions up to \(recorded) only (content/packs.lock)"
        let harm = recorded + 1 == shipped
            ? "this build would publish another version \(shipped) with other bytes, which every app that has the first refuses"
            : "this build would publish version \(recorded + 1), older than the \(shipped) apps may have, which they refuse"
        // `git checkout content/packs.lock` restores the index's copy only: after a revert or a
        // reset that is the old history again (an editor's find).
        throw DiagnosticError(.error(
            "the site \(history), but \(published): \(harm). If that version was only built here and never deployed (a local build whose changes you then dropped), \(unlessDeployed). If it was deployed, restore content/packs.lock from the commit that recorded version \(shipped) (`git log --oneline -- content/packs.lock` lists the commits that changed it; then `git checkout COMMIT -- content/packs.lock`)",
            at: SourceLocation(path: PackLock.path), stage: "packs"))
    }

    /// With the preview's `memo`: the history it replayed last, while the file holds the same
    /// bytes (the preview never writes it; replaying the bench corpus's 38 versions took 60–80
    /// ms of each rebuild).
    static func lock(of catalog: Catalog, options: BuildOptions, memo: BuildMemo? = nil) throws(DiagnosticError) -> PackLock? {
        guard let settings = catalog.config.packs else { return nil }
        let recent = settings.keepDeltas + 1
        do {
            guard let memo else { return try PackLock.load(root: options.root, fileSystem: options.fileSystem, checkingDigestsOfLast: recent) }
            guard let data = try PackLock.read(root: options.root, fileSystem: options.fileSystem) else { return nil }
            if let kept = memo.packHistory(of: data, checkingDigestsOfLast: recent) { return kept }
            let lock = try PackLock.parse(data, checkingDigestsOfLast: recent)
            memo.keepPackHistory(lock, of: data, checkingDigestsOfLast: recent)
            return lock
        } catch {
            throw DiagnosticError(error.diagnostics.map { $0.inStage("packs") })
        }
    }

    /// A cached summary as a pack text; its image is the largest cached rendition (apps scale down).
    static func text(of summary: ResolvedSummary) -> PackText {
        var image: PackImage?
        if let lead = summary.image,
            let best = lead.renditions.max(by: { ($0.width, $0.sha256) < ($1.width, $1.sha256) }),
            let format = MediaFormat(rawValue: best.format.lowercased() == "jpg" ? "jpeg" : best.format.lowercased())
        {
            let attribution = lead.attribution
            image = PackImage(
                media: MediaDigest(sha256: best.sha256, bytes: best.bytes, format: format, sourcePath: best.absolutePath),
                credit: attribution?.artist ?? attribution?.credit, license: attribution?.license?.name,
                sourceURL: attribution?.descriptionURL ?? lead.descriptionURL)
        }
        return PackText(
            source: .wikipedia, text: summary.extract, language: summary.language, title: summary.title, url: summary.url,
            license: summary.license.name, licenseURL: summary.license.url, credit: nil, revision: summary.revision,
            image: image)
    }

    /// The pack files as output files under `packs/`.
    static func outputFiles(_ output: PackOutput) -> [OutputFile] {
        output.files.map { file in
            switch file.contents {
            case .bytes(let data): OutputFile(path: "packs/" + file.path, data: data, sha256: file.sha256)
            case .pieces(let parts): OutputFile(path: "packs/" + file.path, content: .parts(parts), sha256: file.sha256)
            case .link(let source): OutputFile(path: "packs/" + file.path, linking: source)
            }
        }
    }
}
