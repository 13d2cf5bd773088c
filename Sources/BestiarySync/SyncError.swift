import BestiaryPackFormat

/// Why a sync stopped. Every refusal leaves the store exactly as it was.
public struct SyncError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: String, Hashable, Sendable, CaseIterable {
        /// A signature is missing, malformed, by an untrusted key, or does not match the bytes.
        case badSignature
        /// A file's SHA-256 is not the one its signed reference names.
        case hashMismatch
        /// A file is shorter or longer than its signed reference says.
        case sizeMismatch
        /// The server offers a version lower than the store holds.
        case rollback
        /// The pointer's `expires` has passed (it may be replayed by someone holding an old copy).
        case expired
        /// A file is in a format version this client does not read.
        case unknownFormat
        /// A file is larger than the client's limits allow.
        case oversized
        /// The pointer is for a different pack than the store holds.
        case wrongPack
        /// The same version number was published twice with different content.
        case republished
        /// A file is not the JSON shape format 1 describes, or contradicts another file.
        case malformed
        /// A file the pointer names is missing on the server.
        case notFound
        /// The network or the file system failed (the download can be resumed by running again).
        case transport
        /// The store cannot be opened or written.
        case store
        /// After applying, the store is not the version it should be (it was changed behind
        /// the client's back); nothing was committed.
        case inconsistent
        /// No key to check signatures with, and unsigned packs are not allowed.
        case untrusted
        /// The caller stopped the sync (task cancellation or a throwing event handler).
        case cancelled
        /// Another sync of the same store is running (it holds the store's lock); nothing was
        /// done, and the store is not this sync's to remove.
        case busy
    }

    public var reason: Reason
    /// The file of the pack concerned (`latest.json`, `media/…`), when there is one.
    public var file: String?
    public var message: String
    /// A ``Reason/badSignature`` because the file has no signature at all (`FILE.sig` is not
    /// there, or is no signature file: a page a server gives in its place, an empty file): a
    /// missing delta's signature falls back to the manifest, as a missing delta does.
    var signatureMissing = false
    /// The signature of a file the signed pointer names (a manifest, a delta) is not on the
    /// server (404): as the file itself missing, most likely a publish still uploading.
    var signatureNotYetThere = false
    /// A ``Reason/transport`` error that asking again will not mend: the server answered, but not
    /// with the file (HTTP 403, as a storage bucket answers for a file it lacks; a redirect loop).
    var definitive = false

    public init(_ reason: Reason, file: String? = nil, _ message: String) {
        self.reason = reason
        self.file = file
        self.message = message
    }

    public var description: String { file.map { "\($0): \(message)" } ?? message }

    /// Whether the same sync, run again later with nothing changed by anyone, may succeed: the
    /// network or the server failed (not a 403 or a redirect loop, which stay so), a file the
    /// signed pointer names, or its signature, is not there yet (a publish still uploading), another sync held the
    /// store, or the sync was stopped. Not a refusal of the content, nor a store that cannot be
    /// opened or written, nor a pointer missing at the address given (a wrong address is more
    /// likely than an upload under way): those need someone to act. `bestiary sync` exits with
    /// 75 (sysexits' EX_TEMPFAIL) for these, 1 for the others.
    public var isTemporary: Bool {
        switch reason {
        case .transport: !definitive
        case .notFound: file != PackFormat.pointerPath
        case .busy, .cancelled: true
        case .badSignature: signatureNotYetThere
        default: false
        }
    }

    init(_ error: PackFormatError) {
        self.init(error.reason == .unknownFormat ? .unknownFormat : .malformed, file: error.file, error.message)
    }
}
