// PackBench: how big a one-record delta is in a 10,000-record catalogue, and how long a client
// takes to apply it. Not a unit test: `swift run -c release PackBench [RECORDS]` (or `make bench`)
// prints one JSON object. The catalogue is generated (made-up names and texts, tiny made-up
// sounds), deterministic for a given size.
import BestiaryContent
import BestiaryDiagnostics
import BestiaryPackFormat
import BestiaryPacks
import BestiaryStorage
import BestiarySync
import BestiaryCrypto
import Foundation

@main
struct PackBench {
    static func main() async throws {
        let count = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 10_000
        let work = NSTemporaryDirectory() + "packbench-\(getpid())"
        let fs = LocalFileSystem()
        try? fs.remove(work)

        let syllables = ["ka", "ro", "mi", "tu", "sel", "var", "no", "pe", "lix", "dra", "qua", "bel", "zor", "fen", "ul", "tis"]
        let words = "the of and in is a to forest wetland song call nest winter summer migrates feeds insects seeds small large".split(separator: " ")
        var gen = Seeded(state: 0x5EED)
        func name() -> String { (0..<3).map { _ in syllables.randomElement(using: &gen)! }.joined().capitalized }
        func sentence() -> String { (0..<12).map { _ in String(words.randomElement(using: &gen)!) }.joined(separator: " ") + "." }

        // The generated catalogue.
        let config = SiteConfig(
            title: LocalizedText(["en": "PackBench (generated)"]), baseURL: "https://example.org/", languages: ["en", "de"],
            packs: PackSettings(id: "bench", keepDeltas: 10))
        var animals: [Animal] = []
        var media: [String: MediaDigest] = [:]
        try fs.createDirectory(work + "/media")
        for i in 0..<count {
            let id = String(format: "animal-%05d", i)
            let sound = Data("RIFF generated sound \(i) ".utf8) + Data((0..<600).map { _ in UInt8.random(in: 0...255, using: &gen) })
            let path = work + "/media/\(id).wav"
            try fs.writeNew(sound, to: path)
            media["sounds/\(id).wav"] = MediaDigest(sha256: Hashing.sha256Hex(sound), bytes: sound.count, format: .wav, sourcePath: path)
            let location = SourceLocation(path: "content/animals/\(id).md", line: 1, column: 1)
            animals.append(Animal(
                id: id, name: LocalizedText(["en": name(), "de": name()]), scientific: "\(name()) \(name().lowercased())", group: "generated",
                difficulty: i % 3 + 1, tags: ["generated", i % 2 == 0 ? "even" : "odd"],
                description: LocalizedText(["en": sentence(), "de": sentence()]),
                sound: MediaReference(kind: .sound, source: .file("sounds/\(id).wav"), format: .wav, credit: "Generated", license: "CC0-1.0", location: location),
                bodies: ["en": MarkdownBody(markdown: "## Notes\n\n\(sentence()) \(sentence())\n", location: location)], sourcePath: location.path))
        }
        let key = Curve25519.Signing.PrivateKey()
        let producer = PackProducer()
        let out1 = work + "/v1", out2 = work + "/v2"

        // Version 1.

        let produce1Start = DispatchTime.now().uptimeNanoseconds
        let output1 = try producer.produce(
            catalog: Catalog(root: work, config: config, animals: animals, pages: [], mediaFiles: [:]), media: media, lock: nil,
            signingKeys: [key], now: Date(), locked: false)
        try output1.write(to: out1, fileSystem: fs)
        let produce1 = seconds(since: produce1Start)
        let lock1 = try PackLock.parse(output1.lock!)

        // Version 2: one record's name changes.
        let changed = count / 2
        animals[changed].name.values["en"] = "Renamed (generated)"

        let produce2Start = DispatchTime.now().uptimeNanoseconds
        let output2 = try producer.produce(
            catalog: Catalog(root: work, config: config, animals: animals, pages: [], mediaFiles: [:]), media: media, lock: lock1,
            signingKeys: [key], now: Date(), locked: false)
        try output2.write(to: out2, fileSystem: fs)
        let produce2 = seconds(since: produce2Start)
        let manifestBytes = try fs.read(out2 + "/v/2.json").count
        let deltaData = try fs.read(out2 + "/d/1-2.json")
        let delta = try PackDelta.decode(deltaData, file: nil)
        let recordBytes = delta.upserts[0].json.canonicalData.count
        let lockGrowth = output2.lock!.count - output1.lock!.count

        // The client: a full sync of version 1, then the delta to version 2.
        let db = work + "/store.sqlite"
        let trusted = [PackPublicKey(key.publicKey)]
        // PACKBENCH_TRACE=1 prints each sync event with the seconds since the sync started.
        let trace = ProcessInfo.processInfo.environment["PACKBENCH_TRACE"] == "1"
        func configuration() -> SyncClient.Configuration {
            let start = DispatchTime.now().uptimeNanoseconds
            let handler: @Sendable (SyncEvent) throws -> Void = { event in
                if case .mediaDownloaded = event { return }
                let line = String(format: "%8.3f s  ", seconds(since: start)) + "\(event)\n"
                FileHandle.standardError.write(Data(line.utf8))
            }
            return SyncClient.Configuration(trustedKeys: trusted, onEvent: trace ? handler : nil)
        }
        let fullSyncStart = DispatchTime.now().uptimeNanoseconds
        _ = try await SyncClient(transport: LocalPackTransport(directory: out1), store: PackStore(path: db), configuration: configuration()).sync()
        let fullSync = seconds(since: fullSyncStart)

        let deltaSyncStart = DispatchTime.now().uptimeNanoseconds
        let report = try await SyncClient(transport: LocalPackTransport(directory: out2), store: PackStore(path: db), configuration: configuration()).sync()
        let deltaSync = seconds(since: deltaSyncStart)
        guard report.method == .delta(from: 1), report.recordsUpserted == 1 else { fatalError("expected a one-record delta, got \(String(describing: report))") }
        let upToDateStart = DispatchTime.now().uptimeNanoseconds
        _ = try await SyncClient(transport: LocalPackTransport(directory: out2), store: PackStore(path: db), configuration: configuration()).sync()
        let upToDate = seconds(since: upToDateStart)

        func r(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }
        let result: [String: Any] = [
            "records": count,
            "manifest_bytes": manifestBytes,
            "delta_bytes": deltaData.count,
            "delta_record_bytes": recordBytes,
            "delta_overhead_bytes": deltaData.count - recordBytes,
            "lock_growth_bytes": lockGrowth,
            "produce_v1_seconds": r(produce1),
            "produce_v2_seconds": r(produce2),
            "full_sync_seconds": r(fullSync),
            "delta_sync_seconds": r(deltaSync),
            "up_to_date_seconds": r(upToDate),
        ]
        let json = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
        print(String(decoding: json, as: UTF8.self))
        try? fs.remove(work)
    }
}

/// Seconds since `start` (a `DispatchTime` uptime in nanoseconds).
func seconds(since start: UInt64) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

struct Seeded: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}
