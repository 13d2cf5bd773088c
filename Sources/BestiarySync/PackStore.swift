import BestiaryPackFormat
import Foundation
import GRDB

/// The client's SQLite store (GRDB): the records and media of one pack at one version.
///
/// Tables (prefixed `pack_` so an app can keep its own tables in the same file):
/// - `pack_meta(key, value)`: `pack`, `version`, `digest`, `created`, `manifest_sha256`,
///   `trusted_keys`: the trust state, written in the same transaction as the content it
///   describes, `version` last;
/// - `pack_records(id, rev, payload)`: payload is the record's canonical JSON object (SQLite's
///   JSON functions work on it);
/// - `pack_record_media(record_id, sha256)`: which record needs which file;
/// - `pack_media(sha256, ext, bytes, data)`: the files' bytes, verified before they got here.
///
/// Open it read-only from the app's UI through ``reader``; only ``SyncClient`` writes.
public final class PackStore: Sendable {
    public let path: String
    let queue: DatabaseQueue
    /// Whether opening it made the store's tables: a new file, or a database of the app's own
    /// that held none (``removeMadeTables()`` takes them out again after a failed first sync).
    public let madeTables: Bool
    /// Whether GRDB's `grdb_migrations` table was made with them (an app using GRDB has its own).
    private let madeMigrationTable: Bool

    /// Opens the store at `path`, creating it (and its tables) when missing.
    public convenience init(path: String) throws(SyncError) {
        try self.init(path: path, create: true)
    }

    /// A folder given for the store, said as such (SQLite said "disk I/O error"); nil otherwise.
    public static func folderProblem(_ path: String) -> String? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return nil }
        return "\(path) is a folder; the store is a file (--db \(path)/store.sqlite, say)"
    }

    /// Opens an existing store; fails when there is no file at `path` (for read-only commands).
    public static func openExisting(path: String) throws(SyncError) -> PackStore {
        try PackStore(path: path, create: false)
    }

    private init(path: String, create: Bool) throws(SyncError) {
        self.path = path
        if let problem = Self.folderProblem(path) { throw SyncError(.store, problem) }
        if !create && !FileManager.default.fileExists(atPath: path) {
            throw SyncError(.store, "no store at \(path); `bestiary sync URL --db \(path)` makes one")
        }
        if create, let problem = Self.writeProblem(path) { throw SyncError(.store, problem) }
        var madeTables = false, madeMigrationTable = false
        do {
            var config = Configuration()
            config.foreignKeysEnabled = true
            config.label = "BestiarySync"
            // An app's own write to its tables in the same file waits for the sync's transaction
            // and the other way round, instead of failing at once with "database is locked"
            // (found by an app developer: a sync failed after downloading everything).
            config.busyMode = .timeout(10)
            // Opening an existing store never changes it (it may be someone else's database).
            config.readonly = !create
            queue = try DatabaseQueue(path: path, configuration: config)
            // A store a newer client already changed (a backup restored, an app downgraded): its
            // tables may no longer be what this one writes (an app developer's synced on without
            // a word). An app's own migrations in the same table are none of the store's.
            let newer = try queue.read { db in
                try db.tableExists("grdb_migrations")
                    ? try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations WHERE identifier LIKE 'pack-store-%' ORDER BY identifier")
                    : []
            }.filter { !Self.migrator.migrations.contains($0) }
            if let first = newer.first {
                throw SyncError(
                    .store,
                    "\(path) was changed by a newer client than this one (its migration '\(first)' is not one this version knows): sync it with that version, or give a new store")
            }
            if create {
                // Tables by the store's names that its migrator did not make (an app that made
                // them from docs/packs.md): said so, not SQLite's "table pack_meta already exists".
                if try queue.read({ try $0.tableExists("pack_meta") && !Self.migrator.appliedIdentifiers($0).contains("pack-store-1") }) {
                    throw SyncError(
                        .store,
                        "\(path) has a table pack_meta that this client did not make (its grdb_migrations has no 'pack-store-1'): the store's tables are made by PackStore, not by hand; give a file without them")
                }
                (madeTables, madeMigrationTable) = try queue.read { db in
                    (try !Self.migrator.appliedIdentifiers(db).contains("pack-store-1"), try !db.tableExists("grdb_migrations"))
                }
                try Self.migrator.migrate(queue)
            } else if try queue.read({ try !Self.migrator.hasCompletedMigrations($0) }) {
                // Empty: a first sync stopped before it made the store (killed at its start).
                if (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) == 0 {
                    throw SyncError(.store, "\(path) is empty: a first sync was stopped before it made the store; run the sync again")
                }
                // An app's own database no sync has made a store in yet, said as such (it read as
                // a version mismatch).
                if try queue.read({ try !Self.migrator.appliedIdentifiers($0).contains("pack-store-1") }) {
                    throw SyncError(.store, "\(path) holds no pack store: no sync has made one in it yet (`bestiary sync URL --db \(path)` makes its tables beside any others)")
                }
                throw SyncError(.store, "\(path) is not a pack store written by this version of Bestiary")
            }
        } catch let error as SyncError {
            throw error
        } catch {
            // A read-only open cannot roll back an update a crash left half done.
            if !create, FileManager.default.fileExists(atPath: path + "-journal") {
                throw SyncError(
                    .store,
                    "cannot open the store \(path) to read: an update stopped half way (\(path)-journal is there); `bestiary sync URL --db \(path)` rolls it back and goes on")
            }
            throw SyncError(.store, "cannot open the store \(path): \(Self.describe(error))")
        }
        self.madeTables = madeTables
        self.madeMigrationTable = madeMigrationTable
    }

    /// What ``removeMadeTables()`` did.
    public enum TableRemoval: Equatable, Sendable {
        /// Opening the store made no tables, or a version was committed since: nothing to take out.
        case nothingMade
        case removed
        /// They could not be taken out (the database busy, not writable): why.
        case failed(String)
    }

    /// After a first sync into an existing file failed (an app's own database, say), takes out
    /// the tables opening it made, so that the file is as it was: the app found four empty
    /// `pack_` tables and a migration row it never asked for. Only while the store holds no
    /// version (nothing was committed). `grdb_migrations` goes too when opening the store made it
    /// and no other row came into it meanwhile (an app's migrator running beside the sync).
    /// ``SyncClient`` does not call it: `bestiary sync` does, and an app may.
    @discardableResult
    public func removeMadeTables() -> TableRemoval {
        guard madeTables else { return .nothingMade }
        do {
            return try queue.write { db in
                let version = try String.fetchOne(db, sql: "SELECT value FROM pack_meta WHERE key = 'version'")
                guard version == nil, try Int.fetchOne(db, sql: "SELECT count(*) FROM pack_records") == 0 else { return .nothingMade }
                try db.execute(sql: """
                    DROP TABLE pack_record_media;
                    DROP TABLE pack_records;
                    DROP TABLE pack_media;
                    DROP TABLE pack_meta;
                    DELETE FROM grdb_migrations WHERE identifier = 'pack-store-1';
                    """)
                if madeMigrationTable, try Int.fetchOne(db, sql: "SELECT count(*) FROM grdb_migrations") == 0 {
                    try db.execute(sql: "DROP TABLE grdb_migrations")
                }
                return .removed
            }
        } catch {
            return .failed(Self.describe(error))
        }
    }

    /// For reading records from an app (`try store.reader.read { db in … }`).
    public var reader: any DatabaseReader { queue }

    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("pack-store-1") { db in
            try db.execute(sql: """
                CREATE TABLE pack_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE pack_records (id TEXT PRIMARY KEY NOT NULL, rev TEXT NOT NULL, payload TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE pack_record_media (
                    record_id TEXT NOT NULL REFERENCES pack_records(id) ON DELETE CASCADE,
                    sha256 TEXT NOT NULL,
                    PRIMARY KEY (record_id, sha256)) WITHOUT ROWID;
                CREATE INDEX pack_record_media_sha256 ON pack_record_media(sha256);
                CREATE TABLE pack_media (sha256 TEXT PRIMARY KEY NOT NULL, ext TEXT NOT NULL, bytes INTEGER NOT NULL, data BLOB NOT NULL) WITHOUT ROWID;
                """)
        }
        return m
    }

    /// Why a store at `path` could not be made or updated, in words rather than SQLite's
    /// ("unable to open database file", "attempt to write a readonly database"): its folder is
    /// missing or not writable (SQLite writes a journal next to the store on every update), or
    /// the store is read-only. Nil when none of these is known.
    static func writeProblem(_ path: String) -> String? {
        // Not NSString's deletingLastPathComponent: it traps for a one-character name (`--db s`).
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) }
        let dir = folder.map { $0.isEmpty ? "/" : $0 } ?? "."
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory) else {
            return "cannot make the store \(path): there is no folder \(dir); make it first"
        }
        guard isDirectory.boolValue else { return "cannot make the store \(path): \(dir) is not a folder" }
        if access(dir, W_OK) != 0 {
            let reason = String(cString: strerror(errno))
            let verb = FileManager.default.fileExists(atPath: path) ? "update" : "make"
            return "cannot \(verb) the store \(path): its folder \(dir) is not writable (\(reason)), and SQLite writes a journal next to the store while it updates it"
        }
        if FileManager.default.fileExists(atPath: path), access(path, W_OK) != 0 {
            return "cannot update the store \(path): the file is not writable (\(String(cString: strerror(errno))))"
        }
        return nil
    }

    static func describe(_ error: any Error) -> String {
        if let e = error as? DatabaseError { return e.message ?? "\(e.resultCode)" }
        if let e = error as? SyncError { return e.message }
        return "\(error)"
    }

    // MARK: Reading

    /// What the store holds: pack, version (0 when empty) and the trust state.
    public func state() throws(SyncError) -> PackStoreState {
        try read { db in try Self.state(db) }
    }

    static func state(_ db: Database) throws -> PackStoreState {
        var meta: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM pack_meta") { meta[row["key"]] = row["value"] }
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pack_records") ?? 0
        return PackStoreState(
            pack: meta["pack"], version: meta["version"].flatMap { Int($0) } ?? 0, digest: meta["digest"],
            created: meta["created"].flatMap { PackTime($0) }, manifestSHA256: meta["manifest_sha256"],
            trustedKeys: (meta["trusted_keys"] ?? "").split(separator: ",").map(String.init), records: count)
    }

    /// id → rev of every record.
    public func revisions() throws(SyncError) -> [String: String] {
        try read { db in
            var out: [String: String] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT id, rev FROM pack_records")
            while let row = try rows.next() { out[row["id"]] = row["rev"] }
            return out
        }
    }

    /// Every record, sorted by id.
    public func records() throws(SyncError) -> [StoredRecord] {
        try read { db in try Self.records(db, sql: "SELECT id, rev, payload FROM pack_records ORDER BY id", arguments: []) }
    }

    /// One record, or nil.
    public func record(id: String) throws(SyncError) -> StoredRecord? {
        try read { db in try Self.records(db, sql: "SELECT id, rev, payload FROM pack_records WHERE id = ?", arguments: [id]).first }
    }

    private static func records(_ db: Database, sql: String, arguments: StatementArguments) throws -> [StoredRecord] {
        var media: [String: [String]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT record_id, sha256 FROM pack_record_media ORDER BY record_id, sha256") {
            media[row["record_id"], default: []].append(row["sha256"])
        }
        return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
            let id: String = row["id"]
            return StoredRecord(id: id, rev: row["rev"], payload: row["payload"], media: media[id] ?? [])
        }
    }

    /// The bytes of a media file, or nil when the store has none with that hash.
    public func mediaData(sha256: String) throws(SyncError) -> Data? {
        try read { db in try Data.fetchOne(db, sql: "SELECT data FROM pack_media WHERE sha256 = ?", arguments: [sha256]) }
    }

    /// Hash → (extension, size) of every stored media file.
    public func mediaIndex() throws(SyncError) -> [String: PackMediaRef] {
        try read { db in
            var out: [String: PackMediaRef] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT sha256, ext, bytes FROM pack_media") {
                let sha: String = row["sha256"]
                out[sha] = PackMediaRef(sha256: sha, bytes: row["bytes"], ext: row["ext"])
            }
            return out
        }
    }

    /// A stored media file as a reference names it: its hash, extension and size, and as many
    /// bytes as that size (a file damaged in the database, or a publisher's manifest that gives
    /// another size or extension for the same hash, is downloaded again, as a fresh store would).
    static let intactMediaSQL = "SELECT 1 FROM pack_media WHERE sha256 = ? AND ext = ? AND bytes = ? AND length(data) = bytes"

    /// The hashes among `refs` that the store already has, as they name them.
    public func storedMedia(among refs: [PackMediaRef]) throws(SyncError) -> Set<String> {
        try read { db in
            let lookup = try db.cachedStatement(sql: Self.intactMediaSQL)
            var out = Set<String>()
            for ref in refs where try Bool.fetchOne(lookup, arguments: [ref.sha256, ref.ext, ref.bytes]) == true { out.insert(ref.sha256) }
            return out
        }
    }

    /// True when the records' ids and revs add up to the stored digest and every media file they
    /// need is there at its size: false means the database was changed outside the client (the
    /// next sync repairs it). Payloads and media bytes are not hashed again: one changed in place,
    /// its rev and size kept, is not found (a rev cannot be computed again from what the store
    /// keeps when a newer producer's records have members this client does not store).
    public func isIntact() throws(SyncError) -> Bool {
        try read { db in
            let state = try Self.state(db)
            guard state.version > 0 else { return true }
            let missing = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pack_record_media WHERE sha256 NOT IN (SELECT sha256 FROM pack_media)") ?? 0
            // A file cut short in the database (its bytes are checked by size, not hashed again).
            let damaged = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pack_media WHERE length(data) != bytes") ?? 0
            return try missing == 0 && damaged == 0 && Self.digest(db) == state.digest
        }
    }

    /// The state digest of the stored records (``PackDigest/State``).
    public func digest() throws(SyncError) -> String {
        try read { db in try Self.digest(db) }
    }

    static func digest(_ db: Database) throws -> String {
        var state = PackDigest.State()
        // BINARY collation compares bytes, which is the order the digest is defined in.
        let rows = try Row.fetchCursor(db, sql: "SELECT id, rev FROM pack_records ORDER BY id")
        while let row = try rows.next() { state.add(id: row["id"], rev: row["rev"]) }
        return state.finalize()
    }

    func read<T>(_ body: (Database) throws -> T) throws(SyncError) -> T {
        do {
            return try queue.read(body)
        } catch {
            throw SyncError(.store, "cannot read the store \(path): \(Self.describe(error))")
        }
    }
}

/// What a store holds (``PackStore/state()``).
public struct PackStoreState: Hashable, Sendable {
    /// Nil until the first sync.
    public var pack: String?
    /// 0 until the first sync.
    public var version: Int
    public var digest: String?
    /// When the stored version was made.
    public var created: PackTime?
    public var manifestSHA256: String?
    /// Base64 public keys the store was last synced with (used when none are given).
    public var trustedKeys: [String]
    public var records: Int
}

/// A stored record: its payload is the canonical JSON object the pack published.
public struct StoredRecord: Hashable, Sendable {
    public var id: String
    public var rev: String
    /// Canonical JSON text of the payload.
    public var payload: String
    /// Hashes of the media files it needs, sorted.
    public var media: [String]

    /// The payload parsed.
    public var payloadValue: JSONValue? { try? JSONParser.parse(Array(payload.utf8)) }
}
