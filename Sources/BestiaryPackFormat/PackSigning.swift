import BestiaryCrypto
import Foundation

/// A problem with a key given by the user (flag, environment, file).
public struct PackKeyError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// An Ed25519 public key that clients trust: a `Hashable`, `Sendable` value (CryptoKit's key type is neither),
/// compared and remembered by its 32 bytes.
public struct PackPublicKey: Hashable, Sendable, CustomStringConvertible {
    /// The 32 key bytes.
    public let rawRepresentation: Data

    public init(_ key: Curve25519.Signing.PublicKey) {
        rawRepresentation = key.rawRepresentation
    }

    /// Parses the base64 form `bestiary keys generate` prints after `public-key:`.
    public init(base64: String) throws(PackKeyError) {
        self.init(try PackKeys.publicKey(base64: base64))
    }

    public var key: Curve25519.Signing.PublicKey {
        // The bytes came from a valid key.
        try! Curve25519.Signing.PublicKey(rawRepresentation: rawRepresentation)
    }

    public var base64: String { rawRepresentation.base64EncodedString() }
    /// Hex SHA-256 of the key bytes: how signature files name the key.
    public var keyID: String { PackDigest.sha256(rawRepresentation) }
    public var description: String { base64 }
}

/// Ed25519 keys as Bestiary writes them: the 32 raw key bytes in standard base64 (what
/// `bestiary keys generate` prints), identified by the hex SHA-256 of the public key's bytes.
public enum PackKeys {
    public static func publicKey(base64 text: String) throws(PackKeyError) -> Curve25519.Signing.PublicKey {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let data = Data(base64Encoded: trimmed) else {
            throw PackKeyError("'\(short(trimmed))' is not base64; a public key looks like what `bestiary keys generate` prints after 'public-key:'")
        }
        guard data.count == 32, let key = try? Curve25519.Signing.PublicKey(rawRepresentation: data) else {
            // Not quoted: 64 bytes are how libsodium writes a private key (its seed first), and
            // any start of it is part of a secret (a reviewer's find).
            let secret = data.count == 64 ? ": 64 bytes are how libsodium writes a private key, which must not be given or shared; give the public key" : ""
            throw PackKeyError("the key given is \(data.count) bytes, not a 32-byte Ed25519 public key\(secret)")
        }
        return key
    }

    public static func privateKey(base64 text: String) throws(PackKeyError) -> Curve25519.Signing.PrivateKey {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let data = Data(base64Encoded: trimmed) else {
            throw PackKeyError("the signing key is not base64; use the value `bestiary keys generate` prints after 'private-key:'")
        }
        guard data.count == 32, let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: data) else {
            // libsodium and NaCl keep the private key as 64 bytes: the 32-byte seed, then the public key.
            let seed = data.count == 64 ? "; a 64-byte key (libsodium's, NaCl's) is the 32-byte private key followed by the public key: give the first 32 bytes, base64-encoded" : ""
            throw PackKeyError("the signing key is \(data.count) bytes, not a 32-byte Ed25519 private key\(seed)")
        }
        return key
    }

    /// A new key pair, both halves in base64 (what `bestiary keys generate` prints).
    public static func generate() -> (publicKey: String, privateKey: String) {
        let key = Curve25519.Signing.PrivateKey()
        return (base64(key.publicKey), base64(key))
    }

    public static func base64(_ key: Curve25519.Signing.PublicKey) -> String { key.rawRepresentation.base64EncodedString() }
    public static func base64(_ key: Curve25519.Signing.PrivateKey) -> String { key.rawRepresentation.base64EncodedString() }

    /// Hex SHA-256 of the 32 public key bytes: names the key in signature files.
    public static func keyID(_ key: Curve25519.Signing.PublicKey) -> String { PackDigest.sha256(key.rawRepresentation) }

    private static func short(_ s: String) -> String { s.count > 16 ? String(s.prefix(12)) + "…" : s }
}

/// Detached signatures: `FILE.sig` next to `FILE`, over FILE's exact bytes.
///
/// A signature file is UTF-8 text with one line per signature,
/// `ed25519 KEYID BASE64SIGNATURE\n`, so a publisher can sign with an old and a new key
/// during a key rotation. Readers ignore lines whose first word is an algorithm they do not
/// know. A file verifies when at least one line carries a valid signature by a trusted key.
///
/// Signing is not required to be deterministic (CryptoKit on Apple platforms randomizes
/// Ed25519 signatures; libcrypto, used elsewhere, does not). Nothing hashes
/// `.sig` files, so that never affects the rest of the pack.
public enum PackSignature {
    /// Largest signature file a reader accepts.
    public static let maxBytes = 16 * 1024

    /// Why a whole pack may be unsigned, and how to sign it: said where a pack has no signature.
    public static let unsignedPackHint =
        "`bestiary build` signs packs only with a signing key (BESTIARY_SIGNING_KEY or --signing-key FILE), and `bestiary serve` never signs them"

    public struct Line: Hashable, Sendable {
        public var keyID: String
        public var signature: Data
    }

    /// The signature file for `data`, one line per key, in the order of the keys' ids (not the
    /// order they were given in: `BESTIARY_SIGNING_KEY=A,B` and `B,A` wrote other bytes).
    public static func sign(_ data: Data, with keys: [Curve25519.Signing.PrivateKey]) throws -> Data {
        var text = ""
        for key in keys.sorted(by: { PackKeys.keyID($0.publicKey) < PackKeys.keyID($1.publicKey) }) {
            let sig = try key.signature(for: data)
            text += "ed25519 \(PackKeys.keyID(key.publicKey)) \(sig.base64EncodedString())\n"
        }
        return Data(text.utf8)
    }

    /// The Ed25519 lines of a signature file.
    public static func parse(_ file: Data) throws(PackFormatError) -> [Line] {
        guard file.count <= maxBytes else { throw PackFormatError(file: nil, "signature file is larger than \(maxBytes) bytes") }
        // A byte-order mark an editor put first is dropped (docs/packs.md says so), here rather
        // than by whichever UTF-8 decoding Foundation does.
        let body = file.starts(with: [0xEF, 0xBB, 0xBF]) ? file.dropFirst(3) : file[...]
        guard let text = String(data: Data(body), encoding: .utf8) else { throw PackFormatError(file: nil, "signature file is not UTF-8 text") }
        var lines: [Line] = []
        // A line may end in CR LF (one Character in Swift): a file that went through git's
        // autocrlf or a Windows tool on its way to the server (the signature covers the signed
        // file, not this one). Such a file was refused as holding no valid line.
        for (n, raw) in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let words = raw.split(separator: " ")
            guard words.first == "ed25519" else { continue }
            guard words.count == 3, PackFormat.isSHA256(String(words[1])),
                let sig = Data(base64Encoded: String(words[2])), sig.count == 64
            else {
                throw PackFormatError(file: nil, "signature line \(n + 1) is not 'ed25519 KEYID BASE64SIGNATURE'")
            }
            lines.append(Line(keyID: String(words[1]), signature: sig))
        }
        return lines
    }

    /// Whether `file` has a line starting with `ed25519`: a signature file, maybe a damaged one.
    /// False for a page a server gives in its place (in any encoding) and for an empty file.
    /// Judged by its bytes alone, with lines as ``parse(_:)`` splits them (a byte-order mark
    /// first, `\r\n` ends).
    public static func hasSignatureLine(_ file: Data) -> Bool {
        let body = file.starts(with: [0xEF, 0xBB, 0xBF]) ? file.dropFirst(3) : file[...]
        let word = Array("ed25519".utf8)
        return body.split(separator: UInt8(ascii: "\n")).contains { whole in
            let line = whole.drop { $0 == UInt8(ascii: " ") }
            return line.starts(with: word)
                && (line.count == word.count || [UInt8(ascii: " "), UInt8(ascii: "\r")].contains(line[line.startIndex + word.count]))
        }
    }

    /// What checking a signature file against trusted keys found.
    public enum Check: Hashable, Sendable {
        /// A valid signature by the trusted key with this id.
        case valid(keyID: String)
        /// No line verifies; the message says why (no signature by a trusted key, or one that
        /// does not match the bytes).
        case invalid(String)
    }

    /// How ``verify(_:signatureFile:trustedKeys:)`` begins the message when no line is by a
    /// trusted key.
    public static let untrustedSigner = "signed by key"

    /// What to say when a key given as trusted is a private key whose public key signed
    /// `signatureFile`'s lines (a publisher's `private-key:` pasted as `--public-key`: the two are
    /// 32 bytes in base64 alike), or nil. Never the key itself: it was echoed into a CI log.
    public static func privateKeyHint(_ keys: [PackPublicKey], data: Data, signatureFile: Data) -> String? {
        guard let lines = try? parse(signatureFile) else { return nil }
        // Only for a signature that holds: a line naming that key's id with bytes that are no
        // signature would have a developer rotate keys for a forgery (a reviewer's find).
        guard let signer = keys.lazy.compactMap({ key -> String? in
            guard let derived = try? Curve25519.Signing.PrivateKey(rawRepresentation: key.rawRepresentation) else { return nil }
            let id = PackPublicKey(derived.publicKey).keyID
            let holds = lines.contains { $0.keyID == id && derived.publicKey.isValidSignature($0.signature, for: data) }
            return holds ? id : nil
        }).first else { return nil }
        return "the key given as trusted is that signer's private key (id \(signer.prefix(16))… is its public key's), not a public key: give the public key instead (`bestiary keys public FILE` prints it), and keep the private key secret: if it was shared or logged, make a new key pair"
    }

    /// Checks that `signatureFile` holds a valid signature of `data` by one of `trustedKeys`.
    public static func verify(_ data: Data, signatureFile: Data, trustedKeys: [PackPublicKey]) -> Check {
        let lines: [Line]
        do {
            lines = try parse(signatureFile)
        } catch {
            return .invalid(error.message)
        }
        if lines.isEmpty { return .invalid("the signature file holds no Ed25519 signature") }
        var mismatched: [String] = []
        for line in lines {
            guard let key = trustedKeys.first(where: { $0.keyID == line.keyID }) else { continue }
            if key.key.isValidSignature(line.signature, for: data) { return .valid(keyID: line.keyID) }
            mismatched.append(line.keyID)
        }
        if let id = mismatched.first {
            // A server's page served with 200 in the file's place (an app developer's find).
            let page = data.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "<")
                ? "; it is an HTML page, not JSON: a server's page served in the file's place?" : ""
            // Or an upload under way: the new file beside the old signature (docs/packs.md's order).
            let upload = page.isEmpty ? "; if the pack is being published right now, the file may be new and its signature not yet: try again in a minute" : ""
            return .invalid("the signature by key \(id.prefix(16))… does not match the file's bytes (the file was altered or signed by someone else)\(page)\(upload)")
        }
        let signers = lines.map { String($0.keyID.prefix(16)) + "…" }.joined(separator: ", ")
        return .invalid("\(untrustedSigner) \(signers), which is not a trusted key")
    }
}
