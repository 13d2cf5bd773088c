import BestiaryPackFormat
import BestiaryCrypto
import Foundation

/// Checks a published pack tree the way a client would, but everything and without stopping
/// at the first problem: every signature, hash, size and version link, every record's rev,
/// every media file (`bestiary pack verify`).
public struct PackVerifier: Sendable {
    public let transport: any PackTransport
    /// Keys whose signatures count; empty: signatures are not checked (and the result says so).
    public var trustedKeys: [PackPublicKey]
    public var now: Date
    public var limits: SyncLimits
    /// The publisher's record of the versions (`content/packs.lock`), when known: the tree is
    /// also checked against it (``RecordedHistory``).
    public var history: RecordedHistory?

    public init(transport: any PackTransport, trustedKeys: [PackPublicKey], now: Date = Date(), limits: SyncLimits = SyncLimits()) {
        self.transport = transport
        self.trustedKeys = trustedKeys
        self.now = now
        self.limits = limits
    }

    /// What the publisher's history (`content/packs.lock`, which this library does not read)
    /// records: each version's state digest, and the records of the versions asked for. A tree
    /// checked against it must publish, under a recorded number, the records recorded for it,
    /// and each delta must turn the version it starts from, as recorded, into that state: a
    /// tree built from another branch's lock, or from a lock taken back, is signed and whole,
    /// and every app that has the recorded version refuses it as republished.
    public struct RecordedHistory: Sendable {
        public var pack: String
        /// Version number → its state digest (``PackDigest/state(_:)``).
        public var digests: [Int: String]
        /// Version number → when it was made, where recorded: the same records made again at
        /// another time are another manifest, which apps that have the first refuse.
        public var created: [Int: PackTime]
        /// The records (id → rev) of the versions asked for.
        public var revisions: @Sendable (Set<Int>) -> [Int: [String: String]]
        /// How the history is named in messages (`content/packs.lock`).
        public var name: String

        public init(
            pack: String, digests: [Int: String], created: [Int: PackTime] = [:], name: String,
            revisions: @escaping @Sendable (Set<Int>) -> [Int: [String: String]]
        ) {
            self.pack = pack
            self.digests = digests
            self.created = created
            self.name = name
            self.revisions = revisions
        }
    }

    /// One problem found: the file and what is wrong.
    public struct Problem: Hashable, Sendable, CustomStringConvertible {
        public var file: String
        public var message: String
        public var description: String { "\(file): \(message)" }
    }

    public struct Result: Hashable, Sendable {
        public var problems: [Problem] = []
        public var pack: String?
        public var version: Int?
        public var expires: PackTime?
        public var records = 0
        public var deltas = 0
        public var mediaFiles = 0
        public var mediaBytes = 0
        /// Files whose signature was checked and found valid.
        public var signaturesChecked = 0
        /// Files with a signature file that was not checked: no key was given to check it with.
        public var signaturesUnchecked = 0
        /// Whether the tree was compared with ``RecordedHistory`` (it was given, of this pack,
        /// and records the version the tree publishes).
        public var comparedWithHistory = false
        /// What the comparison could not cover, in words (another pack, a version the history
        /// does not have yet or has newer ones than): not problems of the tree.
        public var historyNotes: [String] = []
        /// Files in a local tree that neither `latest.json` nor the files it names name (an older
        /// version's manifest or deltas, media no record has now): apps never fetch them. Not
        /// problems: a tree may keep what it published before. Empty where the tree cannot be
        /// listed (HTTP), or when the pointer or the manifest could not be read.
        public var unnamedFiles: [String] = []
        public var isValid: Bool { problems.isEmpty }
    }

    public func verify() async -> Result {
        var result = Result()
        let client = PackFetcher(transport: transport, retry: Self.retry)
        func problem(_ file: String, _ message: String) { result.problems.append(Problem(file: file, message: message)) }
        func report(_ error: SyncError, default file: String) { problem(error.file ?? file, error.message) }
        // Files with no signature beside them, and how many files had one looked for: a pack none
        // of whose files is signed is said once (a preview's output said it of each file).
        var unsigned: [(file: String, at: Int)] = []
        var signatureLookups = 0

        /// Fetches a file (exact size and hash when `ref` is given) and checks its signature.
        func load(_ path: String, ref: PackFileRef?) async -> Data? {
            let data: Data
            do {
                data = try await client.fetch(path, limit: ref?.bytes ?? limits.pointerBytes, tooLarge: ref == nil ? .oversized : .sizeMismatch)
            } catch {
                report(error, default: path)
                return nil
            }
            var intact = true
            if let ref {
                if data.count != ref.bytes {
                    problem(path, "has \(data.count) bytes, but latest.json says \(ref.bytes)")
                    intact = false
                } else if PackDigest.sha256(data) != ref.sha256 {
                    problem(path, "its SHA-256 is not the one latest.json names; it was altered or damaged")
                    intact = false
                }
            }
            await checkSignature(data, path: path)
            return intact ? data : nil
        }

        func checkSignature(_ data: Data, path: String) async {
            let sigPath = path + PackFormat.signatureSuffix
            let signature: Data
            signatureLookups += 1
            do {
                signature = try await client.fetch(sigPath, limit: PackSignature.maxBytes, tooLarge: .badSignature)
            } catch where error.reason == .notFound {
                if !trustedKeys.isEmpty {
                    unsigned.append((path, result.problems.count))
                    problem(path, "is not signed (no \(sigPath))")
                }
                return
            } catch {
                report(error, default: sigPath)
                return
            }
            if trustedKeys.isEmpty {
                do {
                    _ = try PackSignature.parse(signature)
                    result.signaturesUnchecked += 1
                } catch {
                    problem(sigPath, error.message)
                }
                return
            }
            switch PackSignature.verify(data, signatureFile: signature, trustedKeys: trustedKeys) {
            case .valid: result.signaturesChecked += 1
            // A valid signature by another key: not a "bad" one.
            case .invalid(let why) where why.hasPrefix(PackSignature.untrustedSigner):
                problem(path, PackSignature.privateKeyHint(trustedKeys, data: data, signatureFile: signature).map { "\(why): \($0)" } ?? why)
            case .invalid(let why): problem(path, "bad signature: \(why)")
            }
        }

        func sayingUnsignedOnce(_ result: Result) -> Result {
            guard unsigned.count > 1, unsigned.count == signatureLookups, let first = unsigned.first else { return result }
            var result = result
            let at = Set(unsigned.map(\.at))
            result.problems = result.problems.enumerated().filter { !at.contains($0.offset) || $0.offset == first.at }.map(\.element)
            result.problems[first.at] = Problem(file: first.file, message: "no file of the pack is signed (none of its \(unsigned.count) files has a \(PackFormat.signatureSuffix) beside it): " + PackSignature.unsignedPackHint)
            return result
        }

        // The pointer.
        guard let pointerData = await load(PackFormat.pointerPath, ref: nil) else { return sayingUnsignedOnce(result) }
        let pointer: PackPointer
        do {
            pointer = try PackPointer.decode(pointerData)
        } catch {
            problem(PackFormat.pointerPath, error.message)
            return sayingUnsignedOnce(result)
        }
        // Its pack, version and expiry are said only when its signature holds (an altered
        // `expires` was printed as the pack's; an app developer's find).
        if !result.problems.contains(where: { $0.file == PackFormat.pointerPath }) {
            result.pack = pointer.pack
            result.version = pointer.version
            result.expires = pointer.expires
        }
        if pointer.expires <= PackTime(now) {
            problem(PackFormat.pointerPath, "expired at \(pointer.expires); clients refuse it until it is rebuilt or re-signed")
        }

        // The manifest.
        var manifest: PackManifest? = nil
        if let data = await load(pointer.manifest.path, ref: pointer.manifest) {
            do throws(PackFormatError) {
                // Parsed once: decoded, and its media summary read from the same value.
                let json: JSONValue
                do {
                    json = try JSONParser.parse(data)
                } catch {
                    throw PackFormatError(file: pointer.manifest.path, "not valid JSON: \(error)")
                }
                let m = try PackManifest.decode(json, file: pointer.manifest.path)
                if m.pack != pointer.pack || m.version != pointer.version {
                    problem(pointer.manifest.path, "is pack '\(m.pack)' version \(m.version), but latest.json says '\(pointer.pack)' version \(pointer.version)")
                }
                manifest = m
                result.records = m.records.count
                // The summary apps show progress by (clients do not rely on it, so decoding lets it
                // pass): the distinct files the records name, and their bytes.
                let media = m.media
                let summary = json["media"]
                let (count, bytes) = (summary?["count"]?.integerValue, summary?["bytes"]?.integerValue)
                let total = media.reduce(0) { $0 + $1.bytes }
                if count != Int64(media.count) || bytes != Int64(total) {
                    func files(_ n: Int64?) -> String { n.map { "\($0) file\($0 == 1 ? "" : "s")" } ?? "no number of files" }
                    problem(
                        pointer.manifest.path,
                        "its media summary says \(files(count)) of \(bytes.map(String.init) ?? "no number of") bytes, but its records name \(files(Int64(media.count))) of \(total) bytes")
                }
            } catch {
                problem(pointer.manifest.path, error.message)
            }
        }

        // The deltas.
        let byID = Dictionary(uniqueKeysWithValues: (manifest?.records ?? []).map { ($0.id, $0) })
        var decodedDeltas: [(path: String, delta: PackDelta)] = []
        for ref in pointer.deltas {
            result.deltas += 1
            let path = ref.file.path
            guard let data = await load(path, ref: ref.file) else { continue }
            let delta: PackDelta
            do {
                delta = try PackDelta.decode(data, file: path)
            } catch {
                problem(path, error.message)
                continue
            }
            decodedDeltas.append((path, delta))
            if delta.pack != pointer.pack || delta.from != ref.from || delta.version != pointer.version {
                problem(path, "goes from \(delta.from) to \(delta.version) of '\(delta.pack)', but latest.json lists it from \(ref.from) to \(pointer.version) of '\(pointer.pack)'")
            }
            guard let manifest else { continue }
            // A client that applies the delta records its `created` as the version's: another
            // than the manifest's, and the same version reads as made twice.
            if delta.created != manifest.created {
                problem(path, "says version \(delta.version) was made at \(delta.created), the manifest at \(manifest.created): a delta and the manifest of one version are made by one build")
            }
            if delta.count != manifest.records.count || delta.digest != manifest.digest {
                problem(path, "does not end in the manifest's state (count \(delta.count) vs \(manifest.records.count), digest differs: \(delta.digest != manifest.digest))")
            }
            for record in delta.upserts where byID[record.id]?.rev != record.rev {
                problem(path, "upserts '\(record.id)' with rev \(record.rev.prefix(12))…, which is not the manifest's record")
            }
            for id in delta.tombstones where byID[id] != nil {
                problem(path, "deletes '\(id)', which the manifest still has")
            }
        }

        if let history, let manifest {
            compare(pointer: pointer, manifest: manifest, deltas: decodedDeltas, with: history, into: &result)
        }

        // The media.
        for ref in manifest?.media ?? [] {
            result.mediaFiles += 1
            result.mediaBytes += ref.bytes
            do {
                let (bytes, sha) = try await hash(ref.path, limit: ref.bytes)
                if bytes > ref.bytes {
                    // Read only up to the first byte too many: how many more there are is not known.
                    problem(ref.path, "has more than the \(ref.bytes) bytes the manifest says")
                } else if bytes < ref.bytes {
                    problem(ref.path, "has \(bytes) bytes, but the manifest says \(ref.bytes)")
                } else if sha != ref.sha256 {
                    problem(ref.path, "its SHA-256 is \(sha), not the one in its name; it was altered or damaged")
                }
            } catch let error as SyncError {
                report(error, default: ref.path)
            } catch {
                problem(ref.path, "\(error)")
            }
        }
        if let manifest, let files = await transport.listFiles() {
            var named: Set<String> = [PackFormat.pointerPath, pointer.manifest.path]
            named.formUnion(pointer.deltas.map(\.file.path))
            named.formUnion(named.map { $0 + PackFormat.signatureSuffix })
            named.formUnion(manifest.media.map(\.path))
            result.unnamedFiles = files.filter { !named.contains($0) }
        }
        return sayingUnsignedOnce(result)
    }

    /// The tree against the publisher's history (``RecordedHistory``): the manifest's state is the
    /// one recorded under its number, and each delta from a recorded version turns that
    /// version's records into the manifest's.
    private func compare(
        pointer: PackPointer, manifest: PackManifest, deltas: [(path: String, delta: PackDelta)], with history: RecordedHistory,
        into result: inout Result
    ) {
        func problem(_ file: String, _ message: String) { result.problems.append(Problem(file: file, message: message)) }
        guard history.pack == pointer.pack else {
            result.historyNotes.append("the tree is pack '\(pointer.pack)', \(history.name) records pack '\(history.pack)': not compared")
            return
        }
        let newest = history.digests.keys.max() ?? 0
        guard let recorded = history.digests[pointer.version] else {
            result.historyNotes.append(
                "\(history.name) records versions up to \(newest), not version \(pointer.version), which the tree publishes: not compared (a checkout older than the publish, or a tree whose version no lock recorded, such as the preview's)")
            return
        }
        result.comparedWithHistory = true
        if pointer.version < newest {
            result.historyNotes.append("\(history.name) records versions up to \(newest), but the tree publishes \(pointer.version): the newest build is not deployed yet")
        }
        if manifest.digest != recorded {
            problem(
                pointer.manifest.path,
                "is version \(pointer.version) with other records than \(history.name) records for it (state \(manifest.digest.prefix(12))…, recorded \(recorded.prefix(12))…): the tree and the lock come from different histories (a branch, a lock taken back, a tree built elsewhere); an app that has one of the two versions \(pointer.version) refuses the other as republished")
            return
        }
        if let made = history.created[pointer.version], made != manifest.created {
            problem(
                pointer.manifest.path,
                "is version \(pointer.version) made at \(manifest.created), but \(history.name) records version \(pointer.version) made at \(made): the same records built twice (a branch, a lock taken back, a tree built elsewhere) are two manifests, and an app that has one of the two versions \(pointer.version) refuses the other as republished")
            return
        }
        let target = Dictionary(uniqueKeysWithValues: manifest.records.map { ($0.id, $0.rev) })
        let bases = history.revisions(Set(deltas.map(\.delta.from)).filter { history.digests[$0] != nil })
        for (path, delta) in deltas {
            guard var state = bases[delta.from] else { continue }
            let from = state
            if let id = delta.tombstones.first(where: { from[$0] == nil }) {
                problem(path, "deletes '\(id)', which version \(delta.from) does not have as \(history.name) records it")
            }
            for id in delta.tombstones { state[id] = nil }
            for record in delta.upserts { state[record.id] = record.rev }
            guard state != target else { continue }
            let missing = target.keys.filter { state[$0] != target[$0] }.sorted()
            let extra = state.keys.filter { target[$0] == nil }.sorted()
            // A record the delta upserts with another rev than the manifest's is said above.
            let unsaid = missing.filter { id in !delta.upserts.contains { $0.id == id } }
            guard !unsaid.isEmpty || !extra.isEmpty else { continue }
            let first = unsaid.first.map { id in
                state[id] == nil
                    ? (from[id] == nil ? "'\(id)' is not added" : "'\(id)' is deleted, but version \(pointer.version) has it")
                    : "'\(id)' keeps its rev of version \(delta.from)"
            } ?? extra.first.map { "'\($0)' is not deleted" } ?? ""
            let more = unsaid.count + extra.count > 1 ? " (and \(unsaid.count + extra.count - 1) more)" : ""
            problem(
                path,
                "does not turn version \(delta.from), as \(history.name) records it, into version \(pointer.version): \(first)\(more); an app that applies it ends in another state than the manifest's and syncs the whole manifest instead")
        }
    }

    /// How a check asks again after a transfer that may pass (HTTP 503, a broken connection):
    /// as sync does, but a server's `Retry-After` is waited for only up to 10 s per file.
    static let retry = SyncRetry(retries: 2, delay: .milliseconds(500), maxRetryAfter: .seconds(10))

    /// Size and SHA-256 of a file, streamed (media can be large); stops after `limit` + 1 bytes.
    private func hash(_ path: String, limit: Int) async throws -> (Int, String) {
        try await Self.retry.run(path: path) { try await hashOnce(path, limit: limit) }
    }

    private func hashOnce(_ path: String, limit: Int) async throws -> (Int, String) {
        let response = try await transport.open(path, from: 0)
        switch response.status {
        case .notFound: throw SyncError(.notFound, file: path, "is missing")
        case .full: break
        default: throw SyncError(.transport, file: path, "the server answered with a partial response")
        }
        var hasher = SHA256()
        var count = 0
        for try await chunk in response.body {
            count += chunk.count
            if count > limit { return (limit + 1, "") }
            hasher.update(data: chunk)
        }
        return (count, PackDigest.hex(hasher.finalize()))
    }
}
