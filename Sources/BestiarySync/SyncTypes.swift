import BestiaryPackFormat
import BestiaryCrypto
import Foundation

/// Upper bounds on what a client downloads (TUF's "endless data" attack, and plain mistakes).
public struct SyncLimits: Hashable, Sendable {
    /// `latest.json`.
    public var pointerBytes = 64 * 1024
    /// One manifest or delta.
    public var metadataBytes = 256 * 1024 * 1024
    /// One media file.
    public var mediaBytes = 512 * 1024 * 1024
    /// All media of one update together.
    public var updateBytes = Int(clamping: Int64(8) << 30)

    public init() {}
}

/// How an update was applied.
public enum SyncMethod: Hashable, Sendable {
    /// Nothing to do: the store already holds the newest version.
    case upToDate
    /// A delta from the stored version.
    case delta(from: Int)
    /// The full manifest (first sync, no delta from the stored version, or the delta did not
    /// lead to the published state).
    case full
}

/// Progress, in order; a handler that throws stops the sync and the store keeps its state.
public enum SyncEvent: Sendable {
    /// `latest.json` passed its checks.
    case pointer(pack: String, version: Int, storedVersion: Int)
    /// What will be fetched.
    case plan(method: SyncMethod, media: Int, mediaBytes: Int)
    /// A media file is verified in the staging folder.
    case mediaDownloaded(ref: PackMediaRef, transferred: Int, resumed: Bool)
    /// Everything is downloaded and verified; the store transaction starts.
    case applying
    /// Inside the transaction, everything written and checked, just before the commit.
    case committing
    /// The new version is committed.
    case committed(version: Int)
}

/// What a sync did.
public struct SyncReport: Hashable, Sendable {
    public var pack: String
    public var fromVersion: Int
    public var toVersion: Int
    public var method: SyncMethod
    /// True when the full manifest was used for another way: a delta that could not be used
    /// (``deltaProblem`` says why), or a repair of a store changed outside the client at the
    /// version it holds (``fromVersion`` equals ``toVersion``).
    public var fellBackToFull = false
    /// Why the delta was not used (`d/3-5.json: not found at …`), when it was tried.
    public var deltaProblem: String?
    public var recordsUpserted = 0
    public var recordsDeleted = 0
    public var mediaDownloaded = 0
    /// Bytes received for media in this run.
    public var mediaBytesTransferred = 0
    /// Bytes of the delta or manifest received: after a fallback, the delta's and the manifest's.
    /// Counted as the files' own bytes, as the media's are: a compressed transfer cost less.
    public var metadataBytesTransferred = 0
    /// Files that an earlier, interrupted run had already downloaded and verified.
    public var mediaReused = 0
    /// Downloads that continued a partial file.
    public var mediaResumed = 0
    public var mediaRemoved = 0
    /// The key whose signature was checked (hex id), nil for unsigned packs.
    public var signedBy: String?
}

extension SyncClient {
    /// How a client trusts, limits and reports.
    public struct Configuration: Sendable {
        /// Ed25519 public keys whose signatures are accepted (two during a key rotation). Empty:
        /// the keys remembered in the store from the last sync with keys.
        public var trustedKeys: [PackPublicKey]
        /// Accept packs without checking signatures when no key is known at all. Off by default;
        /// the `sync` command turns it on (with a warning) when given no `--public-key`.
        public var allowUnsigned: Bool
        public var limits: SyncLimits
        /// Where downloads wait for the commit; default `STORE.downloads` beside the store. Only
        /// the default folder has the parts an interrupted sync left removed once the store is
        /// up to date: a folder given here may be shared, so only each sync's own files go.
        public var downloadsDirectory: String?
        /// Extra attempts per file after a transfer failed in a way that may pass (a broken
        /// connection, HTTP 408, 429 or 5xx): media files resume with Range.
        public var downloadRetries: Int
        /// The wait before the first retry of a file; it doubles for each next one (at most
        /// 8 s), so a busy server (503) is not asked again at once. A server's `Retry-After` is
        /// waited for when longer, up to 60 s; a longer one ends the sync, saying so.
        public var retryDelay: Duration
        public var concurrentDownloads: Int
        /// The clock; read once, at the start of each sync.
        public var now: @Sendable () -> Date
        /// Progress; throwing stops the sync.
        public var onEvent: (@Sendable (SyncEvent) throws -> Void)?

        public init(
            trustedKeys: [PackPublicKey] = [], allowUnsigned: Bool = false, limits: SyncLimits = SyncLimits(),
            downloadsDirectory: String? = nil, downloadRetries: Int = 2, retryDelay: Duration = .milliseconds(500),
            concurrentDownloads: Int = 4,
            now: @escaping @Sendable () -> Date = { Date() }, onEvent: (@Sendable (SyncEvent) throws -> Void)? = nil
        ) {
            self.trustedKeys = trustedKeys
            self.allowUnsigned = allowUnsigned
            self.limits = limits
            self.downloadsDirectory = downloadsDirectory
            self.downloadRetries = downloadRetries
            self.retryDelay = retryDelay
            self.concurrentDownloads = concurrentDownloads
            self.now = now
            self.onEvent = onEvent
        }
    }
}
