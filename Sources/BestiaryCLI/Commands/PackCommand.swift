import ArgumentParser
import BestiaryFetch
import BestiaryContent
import BestiaryDiagnostics
import BestiaryPackFormat
import BestiaryPacks
import BestiarySync
import Foundation

/// `bestiary pack …`: inspect published packs and client stores.
struct PackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pack",
        abstract: "Check a published pack tree, or show what a store holds.",
        subcommands: [PackVerifyCommand.self, PackDumpCommand.self])
}

/// `pack verify` and `sync`: a location written wrong and a key that is not one are usage
/// errors (exit 2), found before anything is fetched.
func validatePackArguments(location: String, publicKeys: [String]) throws {
    if let problem = PackLocation.syntaxProblem(location) { throw ValidationError(problem) }
    for key in publicKeys {
        do {
            _ = try PackPublicKey(base64: key)
        } catch {
            throw ValidationError("--public-key: \(error.message)")
        }
    }
}

/// `bestiary pack verify DIR|URL`: every signature, hash, size and version link.
struct PackVerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check every signature, hash, size and version link of a published pack tree.",
        discussion: """
            Without --public-key, the keys in site.yml's packs.public_keys (under --root) are used; \
            with no key at all, a signed pack fails the check (nothing could tell another signer's), \
            and an unsigned one (the preview's) passes with a warning. When the site \
            under --root has a content/packs.lock for the same pack, the tree is also compared \
            with it: the version it publishes must have the records the lock records for that \
            number, and each delta must turn the version it starts from, as recorded, into them. \
            Files in a local tree that latest.json and the files it names do not name (left by \
            an upload that deletes nothing) are said in a note; they fail nothing.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The pack folder (holding latest.json): a local path or an http(s) URL.", valueName: "DIR|URL"))
    var location: String

    @Option(name: .customLong("public-key"), help: ArgumentHelp("A trusted Ed25519 public key (base64); repeatable.", valueName: "KEY"))
    var publicKeys: [String] = []

    func validate() throws {
        try validatePackArguments(location: location, publicKeys: publicKeys)
    }

    func run() async throws {
        let console = Console.current
        var keys = try publicKeys.map { try PackPublicKey(base64: $0) }
        if keys.isEmpty { keys = try global.sitePublicKeys(stage: "verify") }
        let transport: any PackTransport
        do {
            transport = try PackLocation.transport(for: location, http: { CurlPackTransport(baseURL: $0) })
        } catch {
            console.report([.error("\(error)", stage: "verify")], format: global.diagnostics, everyWarning: global.allWarnings)
            throw CommandFailure(status: 1)
        }
        var verifier = PackVerifier(transport: transport, trustedKeys: keys)
        do {
            verifier.history = try global.siteHistory()
        } catch {
            // The site --root names: its history cannot be passed by. Without --root, the current
            // folder's lock (a conflict left in it, say) is said, and the tree checked alone.
            guard !global.rootGiven else {
                await transport.close()
                console.report(error.diagnostics.map { $0.inStage("verify") }, format: global.diagnostics, everyWarning: global.allWarnings)
                throw CommandFailure(status: 1)
            }
            console.report(
                [.note("\(PackLock.path) here cannot be read, so the tree is not compared with it: \(error.diagnostics.first?.message ?? "")", stage: "verify")],
                format: global.diagnostics)
        }
        let result = await verifier.verify()
        await transport.close()
        // Why the tree was not compared is said only when --root named the site: in a site's
        // folder, checking another pack (or a copy of an older one) is no comparison asked for.
        var notes = global.rootGiven || result.comparedWithHistory ? result.historyNotes : []
        // Left by an upload that adds files and removes none (`rsync` without `--delete`, an FTP
        // client): not wrong, but not what the build made either (an app developer's question).
        if let first = result.unnamedFiles.first {
            let more = result.unnamedFiles.dropFirst()
            let others = more.isEmpty ? "" : " and \(more.count) more (\(more.prefix(3).joined(separator: ", "))\(more.count > 3 ? ", …" : ""))"
            notes.append(
                "\(first)\(others): in the tree, but named by neither latest.json, its manifest nor its deltas, so apps never fetch \(more.isEmpty ? "it" : "them"); left by an earlier upload? An upload that also deletes what the build no longer makes (rsync --delete) leaves the tree as the build made it")
        }
        // A local tree's files by the path given (`output/packs/latest.json`), which an editor or a
        // script run where the command was opens; a URL's by their path in the tree.
        // (`output/packs/latest.json` names the folder it is in; a bare `latest.json`, this one.)
        let given = location == PackFormat.pointerPath ? nil : PackLocation.localFolder(location)
        let folder = given.map { $0.isEmpty || $0.hasSuffix("/") ? $0 : $0 + "/" } ?? ""
        let place = { (file: String) in SourceLocation(path: file.isEmpty ? file : folder + file) }
        console.report(
            result.problems.map { Diagnostic.error($0.message, at: place($0.file), stage: "verify") }
                + notes.map { Diagnostic.note($0, stage: "verify") },
            format: global.diagnostics)
        // A signed tree checked without a key: every byte could be another signer's, and a CI's
        // check went green after the publisher's key was swapped (an app developer's). Refused,
        // as `sync` refuses to take it; an unsigned one (a preview's) is said and passes.
        let signedUnchecked = keys.isEmpty && result.signaturesUnchecked > 0
        if signedUnchecked {
            console.report(
                [.error(
                    "the pack is signed, but no key was given to check its signatures with: pass --public-key KEY (the public key apps trust), or list it in content/site.yml's packs.public_keys under --root",
                    at: place(PackFormat.pointerPath), stage: "verify")],
                format: global.diagnostics)
        } else if keys.isEmpty, result.pack != nil {
            // (Not where no pointer was read: a folder that is no pack has nothing to sign.)
            console.report([.warning("signatures were not checked: pass --public-key KEY", stage: "verify")], format: global.diagnostics, everyWarning: global.allWarnings)
        }
        let pack = result.pack.map { "pack '\($0)' version \(result.version ?? 0)" } ?? "pack at \(transport.location)"
        let counts = "\(BuildCommand.count(result.records, "record")), \(BuildCommand.count(result.deltas, "delta")), \(BuildCommand.count(result.mediaFiles, "media file")) (\(result.mediaBytes) bytes)"
        let signatures = keys.isEmpty ? "signatures not checked" : "\(result.signaturesChecked) signature\(result.signaturesChecked == 1 ? "" : "s") valid"
        let expiry = (result.expires.map { ", expires \($0)" } ?? "") + (result.comparedWithHistory ? ", compared with \(PackLock.path)" : "")
        if result.isValid && !signedUnchecked {
            console.result("\(pack): \(counts), \(signatures)\(expiry): OK", format: global.diagnostics)
        } else {
            let problems = result.problems.count + (signedUnchecked ? 1 : 0)
            console.result("\(pack): \(problems) problem\(problems == 1 ? "" : "s") (\(counts), \(signatures)\(expiry))", format: global.diagnostics)
            throw CommandFailure(status: 1)
        }
    }
}

/// `bestiary pack dump --db FILE`: the store's version and records as JSON.
struct PackDumpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Print a store's state as JSON: {\"version\": N, \"records\": {ID: REV, …}}, keys sorted.")

    @OptionGroup var global: ReportOptions

    @Option(name: .long, help: ArgumentHelp("The SQLite store `bestiary sync` wrote.", valueName: "FILE"))
    var db: String

    func run() async throws {
        let console = Console.current
        do {
            let store = try PackStore.openExisting(path: db)
            let state = try store.state()
            let revisions = try store.revisions()
            let records = revisions.keys.sorted(by: CanonicalJSON.codePointOrder)
                .map { "\(DiagnosticFormatter.quote($0)): \(DiagnosticFormatter.quote(revisions[$0]!))" }
            console.out("{\"version\": \(state.version), \"records\": {\(records.joined(separator: ", "))}}")
        } catch {
            console.report([.error(error.message, stage: "dump")], format: global.diagnostics, everyWarning: global.allWarnings)
            throw CommandFailure(status: 1)
        }
    }
}

extension GlobalOptions {
    /// The history of the site under `--root` (its `content/packs.lock`), for `pack verify` to
    /// compare a tree with; nil without a site or a lock there. Throws for a lock that cannot be
    /// read or is damaged (the command fails when --root named the site, and says so otherwise).
    func siteHistory() throws(DiagnosticError) -> PackVerifier.RecordedHistory? {
        guard let lock = try PackLock.load(root: siteRoot) else { return nil }
        let digests = Dictionary(uniqueKeysWithValues: lock.versions.map { ($0.number, $0.digest) })
        let created = Dictionary(uniqueKeysWithValues: lock.versions.map { ($0.number, $0.created) })
        return PackVerifier.RecordedHistory(pack: lock.pack, digests: digests, created: created, name: PackLock.path) { lock.revisions(of: $0) }
    }

    /// The keys the site under `--root` lists in site.yml's `packs.public_keys` (none without a
    /// site there): what `pack verify` and `sync` trust when no `--public-key` is given. A site.yml
    /// that is there but has errors is reported and fails the command: its keys would otherwise
    /// silently be none, and signatures would go unchecked.
    func sitePublicKeys(stage: String) throws -> [PackPublicKey] {
        let (config, diagnostics) = ContentLoader(root: siteRoot).loadConfig()
        guard let config else {
            guard FileManager.default.fileExists(atPath: (siteRoot == "." ? "" : siteRoot + "/") + "content/site.yml") else {
                // A --root given that is no site (a typo, or its content/ folder) must not pass as
                // "no keys listed": that checked no signature, and a forged pack synced (found by an
                // app maker). Without --root, a folder that is no site is what the warning says.
                guard !rootGiven else {
                    Console.current.report(
                        [.error("--root \(root.isEmpty ? "''" : root) is not a site root (no content/site.yml under it), so no packs.public_keys can be read from it; give the folder holding content/, or pass --public-key", stage: stage)],
                        format: self.diagnostics)
                    throw CommandFailure(status: 1)
                }
                return []
            }
            Console.current.report(
                diagnostics.filter { $0.severity == .error }
                    + [.error("site.yml has errors, so the keys it lists in packs.public_keys cannot be read; fix it (`bestiary check`) or pass --public-key", stage: stage)],
                format: self.diagnostics)
            throw CommandFailure(status: 1)
        }
        return (config.packs?.publicKeys ?? []).compactMap { try? PackPublicKey(base64: $0) }
    }
}
