import BestiaryCrypto
import Foundation

/// Hashes of the pack format.
public enum PackDigest {
    /// Lower-case hex SHA-256.
    public static func sha256(_ data: some DataProtocol) -> String { hex(SHA256.hash(data: data)) }

    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The digest of a catalogue state: SHA-256 over `id SP rev LF` for every record, in
    /// ascending byte order of the ids. Manifests and deltas carry it, `content/packs.lock`
    /// records it per version, and a client recomputes it from its store after applying an
    /// update, so "the store is exactly version N" is one comparison.
    public struct State {
        private var hasher = SHA256()
        private var last: [UInt8]? = nil
        public private(set) var count = 0

        public init() {}

        /// Adds the next record; ids must come in ascending byte order.
        public mutating func add(id: String, rev: String) {
            let idBytes = Array(id.utf8)
            if let last { precondition(last.lexicographicallyPrecedes(idBytes), "ids must be added in ascending order") }
            last = idBytes
            hasher.update(data: idBytes + [0x20] + Array(rev.utf8) + [0x0A])
            count += 1
        }

        public func finalize() -> String { PackDigest.hex(hasher.finalize()) }
    }

    /// The state digest of records given in ascending byte order of their ids (a manifest's),
    /// hashed in one piece like ``state(_:)``.
    public static func state(ordered records: some Collection<(id: String, rev: String)>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(records.count * 96)
        var previous = 0..<0
        for record in records {
            let start = bytes.count
            bytes.append(contentsOf: record.id.utf8)
            let id = start..<bytes.count
            precondition(
                start == 0 || bytes[previous].lexicographicallyPrecedes(bytes[id]), "ids must come in ascending order")
            previous = id
            bytes.append(0x20)
            bytes.append(contentsOf: record.rev.utf8)
            bytes.append(0x0A)
        }
        return hex(SHA256.hash(data: bytes))
    }

    /// The state digest of a state that changes a few records at a time (the versions of
    /// `content/packs.lock`, 10,000 records each): its ids sorted by their bytes once, then kept
    /// sorted as records are set and removed, instead of sorted again for each digest.
    public struct SortedState {
        private var ids: [[UInt8]] = []
        private var revs: [String] = []

        /// The state `revisions` (id → rev).
        public init(_ revisions: [String: String]) {
            var entries = revisions.map { (bytes: Array($0.key.utf8), rev: $0.value) }
            entries.sort { $0.bytes.lexicographicallyPrecedes($1.bytes) }
            ids = entries.map(\.bytes)
            revs = entries.map(\.rev)
        }

        public var count: Int { ids.count }

        /// Where `id` is, or would go.
        private func position(_ id: [UInt8]) -> (index: Int, found: Bool) {
            var low = 0, high = ids.count
            while low < high {
                let mid = (low + high) / 2
                if ids[mid].lexicographicallyPrecedes(id) { low = mid + 1 } else { high = mid }
            }
            return (low, low < ids.count && ids[low] == id)
        }

        /// Sets record `id`'s rev, or removes it (`nil`).
        public mutating func set(_ id: String, rev: String?) {
            let bytes = Array(id.utf8)
            let (index, found) = position(bytes)
            switch (found, rev) {
            case (true, let rev?): revs[index] = rev
            case (true, nil):
                ids.remove(at: index)
                revs.remove(at: index)
            case (false, let rev?):
                ids.insert(bytes, at: index)
                revs.insert(rev, at: index)
            case (false, nil): break
            }
        }

        /// ``PackDigest/state(_:)`` of the records as they are now.
        public var digest: String {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(ids.count * 96)
            for (id, rev) in zip(ids, revs) {
                bytes.append(contentsOf: id)
                bytes.append(0x20)
                bytes.append(contentsOf: rev.utf8)
                bytes.append(0x0A)
            }
            return hex(SHA256.hash(data: bytes))
        }
    }

    /// The state digest of `revisions` (id → rev): ``state(ordered:)`` over the ids sorted by
    /// their bytes (each id's bytes made once for the sort: a build computes this for the
    /// versions of `content/packs.lock` it uses, 10,000 records each).
    public static func state(_ revisions: [String: String]) -> String {
        var entries = revisions.map { (bytes: Array($0.key.utf8), id: $0.key, rev: $0.value) }
        entries.sort { $0.bytes.lexicographicallyPrecedes($1.bytes) }
        return state(ordered: entries.lazy.map { (id: $0.id, rev: $0.rev) })
    }
}
