import BestiaryCLI
import BestiaryContent
import BestiaryDiagnostics
import BestiaryPackFormat
import BestiaryPacks
import BestiaryStorage
import BestiarySync
import BestiaryTestSupport
import BestiaryCrypto
import Foundation

/// Does what `bestiary build` does for packs: load content/, hash media, produce, stage the
/// output, swap it in, then write content/packs.lock. The lead's build calls the same API.
struct SiteBuilder {
    let root: String
    var keys: [Curve25519.Signing.PrivateKey] = []
    var texts: [String: [String: PackText]] = [:]
    /// Records the previous build made, taken while their inputs are unchanged.
    var kept: KeptRecords?

    var packs: String { root + "/output/packs" }

    @discardableResult
    func build(now: Date, locked: Bool = false) throws(DiagnosticError) -> PackOutput {
        let loaded = ContentLoader(root: root).load()
        guard let catalog = loaded.catalog, !loaded.diagnostics.hasErrors else {
            throw DiagnosticError(loaded.diagnostics.items.filter { $0.severity == .error })
        }
        let producer = PackProducer()
        let media = try producer.mediaDigests(for: catalog)
        let lock = try PackLock.load(root: root)
        let output = try producer.produce(
            catalog: catalog, texts: texts, media: media, lock: lock, signingKeys: keys, now: now, locked: locked, kept: kept)
        let fs = LocalFileSystem()
        let staging = root + "/output/.packs-staging"
        try? fs.remove(staging)
        do { try fs.createDirectory(staging) } catch { throw DiagnosticError(.error("\(error)")) }
        try output.write(to: staging, fileSystem: fs)
        try? fs.remove(packs)
        do {
            try fs.createDirectory(root + "/output")
            try fs.move(staging, to: packs)
            if let lockData = output.lock { try fs.writeAtomically(lockData, to: root + "/" + PackLock.path) }
        } catch {
            throw DiagnosticError(.error("\(error)"))
        }
        return output
    }

    /// A copy of the published tree as it is now (to serve an old version later).
    func snapshot(into directory: String) throws {
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.copyItem(atPath: packs, toPath: directory)
    }
}

/// Generated media (not real recordings or pictures): headers that the content loader
/// recognises, then bytes that differ per seed.
enum GeneratedMedia {
    static func ogg(_ seed: Int, size: Int = 2048) -> Data { Data("OggS\u{0}\u{2}\u{1}vorbis".utf8) + filler(seed, size - 14) }
    static func png(_ seed: Int, size: Int = 1024) -> Data { Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + filler(seed, size - 8) }

    static func filler(_ seed: Int, _ count: Int) -> Data {
        var x = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1
        var out = Data(capacity: count)
        for _ in 0..<count {
            x ^= x << 13
            x ^= x >> 7
            x ^= x << 17
            out.append(UInt8(truncatingIfNeeded: x))
        }
        return out
    }
}

/// Runs the `bestiary` command line in-process and captures what it prints.
struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

func runCLI(_ arguments: [String]) async -> CLIResult {
    let (console, captured) = Console.capturing()
    let status = await Console.$current.withValue(console) { await BestiaryCommand.run(arguments: arguments) }
    // BESTIARY_CLI_LOG=FILE keeps a transcript (for reports and debugging).
    if let log = ProcessInfo.processInfo.environment["BESTIARY_CLI_LOG"], let handle = FileHandle(forWritingAtPath: log) ?? {
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        return FileHandle(forWritingAtPath: log)
    }() {
        handle.seekToEndOfFile()
        handle.write(Data("$ bestiary \(arguments.joined(separator: " "))\n\(captured.stdout)\n\(captured.stderr)\n[exit \(status)]\n\n".utf8))
        handle.closeFile()
    }
    return CLIResult(status: status, stdout: captured.stdout, stderr: captured.stderr)
}

/// `pack dump`'s JSON, parsed.
func dump(_ db: String) async throws -> (version: Int, records: [String: String]) {
    let r = await runCLI(["pack", "dump", "--db", db])
    guard r.status == 0 else { throw DiagnosticError(.error("pack dump failed: \(r.stderr)")) }
    let json = try JSONParser.parse(Array(r.stdout.utf8))
    var records: [String: String] = [:]
    for (id, rev) in json["records"]?.objectValue ?? [:] { records[id] = rev.stringValue }
    return (Int(json["version"]?.integerValue ?? -1), records)
}

/// Everything a store holds, comparable (records with payloads, media bytes' hashes, trust state).
struct StoreSnapshot: Equatable, CustomStringConvertible {
    var state: PackStoreState
    var records: [StoredRecord]
    var media: [String: String]

    init(_ path: String) throws {
        let store = try PackStore.openExisting(path: path)
        state = try store.state()
        records = try store.records()
        var media: [String: String] = [:]
        for sha in try store.mediaIndex().keys { media[sha] = PackDigest.sha256(try store.mediaData(sha256: sha)!) }
        self.media = media
    }

    var description: String { "version \(state.version), \(records.count) records, \(media.count) media" }
}

let january2026 = Date(timeIntervalSince1970: 1_767_225_600)

func day(_ n: Int) -> Date { january2026.addingTimeInterval(Double(n) * 86_400) }
