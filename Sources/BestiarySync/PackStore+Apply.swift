import BestiaryPackFormat
import Foundation
import GRDB

/// A verified update, ready to go into the store in one transaction.
struct StoreUpdate {
    enum Content {
        /// Changed records and deleted ids, relative to `baseVersion`.
        case delta(upserts: [PackRecord], tombstones: [String])
        /// The whole version: anything not in it goes.
        case full(records: [PackRecord])
    }

    var pack: String
    var version: Int
    var created: PackTime
    var manifestSHA256: String
    var count: Int
    var digest: String
    /// The version the store must still be at (another process may have synced meanwhile).
    var baseVersion: Int
    var content: Content
    /// Keys to remember for later syncs without `--public-key` (base64); nil keeps the current ones.
    var trustedKeys: [String]?
}

/// What applying changed.
struct ApplyResult: Hashable, Sendable {
    var upserted = 0
    var deleted = 0
    var mediaAdded = 0
    var mediaAddedBytes = 0
    var mediaRemoved = 0
}

extension PackStore {
    /// Applies `update` in one SQLite transaction: records, media (read from `stagedMedia`,
    /// hash → file, and verified again), garbage collection of media no record needs, a check
    /// that the result is exactly the target version (count and digest), then the trust state
    /// with `version` written last. `checkpoint` runs just before the commit; when it (or
    /// anything else) throws, the transaction rolls back and the store keeps its old state.
    func apply(
        _ update: StoreUpdate, stagedMedia: [String: String], checkpoint: () throws -> Void
    ) throws(SyncError) -> ApplyResult {
        do {
            return try queue.write { db -> ApplyResult in
                try Self.apply(update, stagedMedia: stagedMedia, checkpoint: checkpoint, db: db)
            }
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError(.store, "cannot write the store \(path): \(Self.describe(error)); it keeps its previous state")
        }
    }

    /// Remembers `keys` (base64) as the keys the store's version `version` was checked with, when
    /// it is still at that version: a store that once checked signatures never takes an
    /// unsigned pack later without being told.
    func remember(keys: [String], atVersion version: Int) throws(SyncError) {
        do {
            try queue.write { db in
                guard try Self.state(db).version == version else { return }
                try db.execute(
                    sql: "INSERT INTO pack_meta (key, value) VALUES ('trusted_keys', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    arguments: [keys.joined(separator: ",")])
            }
        } catch {
            throw SyncError(.store, "cannot write the store \(path): \(Self.describe(error)); it keeps its previous state")
        }
    }

    private static func apply(
        _ update: StoreUpdate, stagedMedia: [String: String], checkpoint: () throws -> Void, db: Database
    ) throws -> ApplyResult {
        let state = try Self.state(db)
        guard state.version == update.baseVersion, state.pack == nil || state.pack == update.pack else {
            throw SyncError(.store, "the store changed while this sync ran (now version \(state.version)); run the sync again")
        }
        var result = ApplyResult()

        // Records.
        var upserts: [PackRecord] = []
        var deletions: [String] = []
        var current: [String: String] = [:]
        switch update.content {
        case .delta(let changed, let tombstones):
            // Only the ids the delta touches: applying a small delta to a large store stays cheap.
            let lookup = try db.cachedStatement(sql: "SELECT rev FROM pack_records WHERE id = ?")
            for id in changed.map(\.id) + tombstones {
                if let rev = try String.fetchOne(lookup, arguments: [id]) { current[id] = rev }
            }
            // A tombstone names an id of the version the delta starts from (section 5): one the
            // store lacks is a delta that is not what it says (or a store that drifted); the full
            // manifest is tried instead (it was taken in silence; an app developer's find).
            if let gone = tombstones.first(where: { current[$0] == nil }) {
                throw SyncError(.inconsistent, "the delta deletes '\(gone)', which version \(state.version) in the store does not have")
            }
            upserts = changed.filter { current[$0.id] != $0.rev }
            deletions = tombstones
        case .full(let records):
            let rows = try Row.fetchCursor(db, sql: "SELECT id, rev FROM pack_records")
            while let row = try rows.next() { current[row["id"]] = row["rev"] }
            let ids = Set(records.map(\.id))
            upserts = records.filter { current[$0.id] != $0.rev }
            deletions = current.keys.filter { !ids.contains($0) }.sorted()
        }
        let delete = try db.cachedStatement(sql: "DELETE FROM pack_records WHERE id = ?")
        for id in deletions { try delete.execute(arguments: [id]) }
        let upsert = try db.cachedStatement(sql: """
            INSERT INTO pack_records (id, rev, payload) VALUES (?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET rev = excluded.rev, payload = excluded.payload
            """)
        let clearMedia = try db.cachedStatement(sql: "DELETE FROM pack_record_media WHERE record_id = ?")
        let addMedia = try db.cachedStatement(sql: "INSERT INTO pack_record_media (record_id, sha256) VALUES (?, ?)")
        for record in upserts {
            try upsert.execute(arguments: [record.id, record.rev, record.payload.canonicalString])
            try clearMedia.execute(arguments: [record.id])
            for m in record.media { try addMedia.execute(arguments: [record.id, m.sha256]) }
        }
        result.upserted = upserts.count
        result.deleted = deletions.count

        // Media: every file a new record needs that the store lacks comes from the staging folder.
        // A stored file counts when it is what the manifest says (extension, size); else it is
        // replaced by the downloaded one (``PackStore/storedMedia(among:)`` left it out).
        let stored = try db.cachedStatement(sql: PackStore.intactMediaSQL)
        var have = Set<String>()
        let insertMedia = try db.cachedStatement(sql: """
            INSERT INTO pack_media (sha256, ext, bytes, data) VALUES (?, ?, ?, ?)
            ON CONFLICT(sha256) DO UPDATE SET ext = excluded.ext, bytes = excluded.bytes, data = excluded.data
            """)
        // A full update also brings back files the store lost (it checks every record's media).
        let needed: [PackMediaRef]
        switch update.content {
        case .delta: needed = upserts.flatMap(\.media)
        case .full(let records): needed = records.flatMap(\.media)
        }
        for ref in needed where !have.contains(ref.sha256) {
            if try Bool.fetchOne(stored, arguments: [ref.sha256, ref.ext, ref.bytes]) == true {
                have.insert(ref.sha256)
                continue
            }
            guard let file = stagedMedia[ref.sha256] else {
                throw SyncError(.notFound, file: ref.path, "the file was not downloaded; run the sync again")
            }
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            guard data.count == ref.bytes else {
                throw SyncError(.sizeMismatch, file: ref.path, "the downloaded file has \(data.count) bytes, not \(ref.bytes)")
            }
            guard PackDigest.sha256(data) == ref.sha256 else {
                throw SyncError(.hashMismatch, file: ref.path, "the downloaded file does not match its SHA-256")
            }
            try insertMedia.execute(arguments: [ref.sha256, ref.ext, ref.bytes, data])
            have.insert(ref.sha256)
            result.mediaAdded += 1
            result.mediaAddedBytes += ref.bytes
        }
        try db.execute(sql: "DELETE FROM pack_media WHERE sha256 NOT IN (SELECT sha256 FROM pack_record_media)")
        result.mediaRemoved = db.changesCount

        // The result must be exactly the target version, with every file its records need.
        let missing = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pack_record_media WHERE sha256 NOT IN (SELECT sha256 FROM pack_media)") ?? 0
        guard missing == 0 else {
            throw SyncError(.inconsistent, "after applying, \(missing) media file reference\(missing == 1 ? "" : "s") point\(missing == 1 ? "s" : "") to no stored file")
        }
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pack_records") ?? 0
        let digest = try Self.digest(db)
        guard count == update.count, digest == update.digest else {
            throw SyncError(
                .inconsistent,
                "after applying, the store has \(count) records with digest \(digest.prefix(12))…, but version \(update.version) has \(update.count) with \(update.digest.prefix(12))…")
        }

        try checkpoint()

        // Trust state, in the same transaction; the version goes last.
        let setMeta = try db.cachedStatement(sql: "INSERT INTO pack_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
        try setMeta.execute(arguments: ["pack", update.pack])
        try setMeta.execute(arguments: ["created", update.created.description])
        try setMeta.execute(arguments: ["digest", update.digest])
        try setMeta.execute(arguments: ["manifest_sha256", update.manifestSHA256])
        if let keys = update.trustedKeys { try setMeta.execute(arguments: ["trusted_keys", keys.joined(separator: ",")]) }
        try setMeta.execute(arguments: ["version", String(update.version)])
        return result
    }
}
