import BestiaryPackFormat
import Foundation

/// Where each record of a build's newest manifest is in that file, under the digest of what the
/// record was made from (``RecordPayload/inputDigest(for:texts:media:)``): what the next build, in
/// another process, takes unchanged records from (``KeptRecords``) instead of making and encoding
/// 10,000 records again.
public struct PackRecordTable: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var digest: String
        public var offset: Int
        public var length: Int

        public init(digest: String, offset: Int, length: Int) {
            self.digest = digest
            self.offset = offset
            self.length = length
        }
    }

    /// The manifest, relative to `output/packs/` (`v/12.json`).
    public var manifestPath: String
    /// By record id.
    public var entries: [String: Entry]

    public init(manifestPath: String, entries: [String: Entry]) {
        self.manifestPath = manifestPath
        self.entries = entries
    }
}

/// The previous build's manifest, as it is in the output, with its ``PackRecordTable``.
public struct KeptRecords: Sendable {
    public let manifest: Data
    public let table: PackRecordTable
    /// Whether the manifest is bytes this process made and kept in memory (the preview's last
    /// build), not read from a file: its records' revs are not checked against their bytes again
    /// (hashing 39 MB took about 2 % of each preview rebuild of the bench corpus).
    public let madeHere: Bool

    public init(manifest: Data, table: PackRecordTable, madeHere: Bool = false) {
        self.manifest = manifest
        self.table = table
        self.madeHere = madeHere
    }

    /// The published bytes of record `id` when they were made from inputs with `digest`.
    func bytes(of id: String, digest: String) -> Data? {
        guard let entry = table.entries[id], entry.digest == digest, entry.offset >= 0, entry.length > 0,
            entry.offset <= manifest.count, entry.length <= manifest.count - entry.offset
        else { return nil }
        let start = manifest.startIndex + entry.offset
        return manifest[start..<(start + entry.length)]
    }
}
