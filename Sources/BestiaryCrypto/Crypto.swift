// SHA-256 and Ed25519 for every target that hashes or signs: the part of CryptoKit's API that
// Bestiary uses, under the same names.
//
// On Apple platforms these names are CryptoKit's own types. On Linux they are small
// value types over the system's libcrypto (OpenSSL), so no copy of BoringSSL is compiled with
// the project (swift-crypto's is about 360 C and C++ files, compiled by every fresh clone).

#if canImport(CryptoKit)
// CryptoKit itself, re-exported: `import BestiaryCrypto` is `import CryptoKit` there.
@_exported import CryptoKit

#elseif os(Linux) || os(Android)
import CBestiaryCrypto
import Foundation

/// SHA-256 (FIPS 180-4), fed piece by piece. A value: a copy hashes on from where the original
/// was, and ``finalize()`` leaves the hasher as it was.
public struct SHA256: @unchecked Sendable {
    /// What ``finalize()`` returns, under CryptoKit's name.
    public typealias Digest = SHA256Digest

    // A plain C struct of integers, copied with the value.
    private var context = SHA256_CTX()

    public static let byteCount = 32

    public init() {
        bestiary_sha256_init(&context)
    }

    public mutating func update(bufferPointer: UnsafeRawBufferPointer) {
        guard let base = bufferPointer.baseAddress, !bufferPointer.isEmpty else { return }
        bestiary_sha256_update(&context, base, bufferPointer.count)
    }

    public mutating func update(data: some DataProtocol) {
        for region in data.regions {
            region.withUnsafeBytes { update(bufferPointer: $0) }
        }
    }

    /// The digest of everything fed so far.
    public func finalize() -> SHA256Digest {
        var copy = context
        var digest = SHA256Digest()
        withUnsafeMutableBytes(of: &digest.bytes) { out in
            _ = bestiary_sha256_final(&copy, out.baseAddress!)
        }
        return digest
    }

    public static func hash(data: some DataProtocol) -> SHA256Digest {
        var hasher = SHA256()
        hasher.update(data: data)
        return hasher.finalize()
    }
}

/// The 32 bytes of a SHA-256 digest.
public struct SHA256Digest: Hashable, Sendable, Sequence, ContiguousBytes, CustomStringConvertible {
    fileprivate var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    public static let byteCount = 32

    /// The digest whose 32 bytes are `bytes`; nil for another count.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == Self.byteCount else { return nil }
        Swift.withUnsafeMutableBytes(of: &self.bytes) { $0.copyBytes(from: bytes) }
    }

    init() {}

    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try Swift.withUnsafeBytes(of: bytes, body)
    }

    public func makeIterator() -> Array<UInt8>.Iterator {
        withUnsafeBytes { Array($0) }.makeIterator()
    }

    public static func == (a: SHA256Digest, b: SHA256Digest) -> Bool {
        a.bytes.0 == b.bytes.0 && a.bytes.1 == b.bytes.1 && a.bytes.2 == b.bytes.2 && a.bytes.3 == b.bytes.3
    }

    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    public var description: String {
        "SHA256 digest: " + map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// Errors of the key types, as CryptoKit names them.
public enum CryptoKitError: Error, Equatable, Sendable {
    case incorrectKeySize
    case incorrectParameterSize
    /// libcrypto failed where it should not (out of memory, say).
    case underlyingCoreCryptoError(error: Int32)
}

/// Curve25519's signature scheme, Ed25519 (RFC 8032).
public enum Curve25519 {
    public enum Signing {
        /// An Ed25519 private key: its 32-byte seed. Not `Sendable`, as CryptoKit's is not, so
        /// code that compiles here compiles on Apple platforms too.
        public struct PrivateKey {
            /// The 32-byte seed (RFC 8032's private key).
            public let rawRepresentation: Data
            public let publicKey: PublicKey

            /// A new random key (the system's secure random source).
            public init() {
                var generator = SystemRandomNumberGenerator()
                let seed = Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
                // A random 32-byte seed is always a valid key.
                try! self.init(rawRepresentation: seed)
            }

            public init(rawRepresentation: some ContiguousBytes) throws {
                let seed = rawRepresentation.withUnsafeBytes { Data($0) }
                guard seed.count == 32 else { throw CryptoKitError.incorrectKeySize }
                var publicBytes = Data(count: 32)
                let ok = seed.withUnsafeBytes { s in
                    publicBytes.withUnsafeMutableBytes { p in
                        bestiary_ed25519_public_key(s.bindMemory(to: UInt8.self).baseAddress, p.bindMemory(to: UInt8.self).baseAddress)
                    }
                }
                guard ok == 1 else { throw CryptoKitError.underlyingCoreCryptoError(error: ok) }
                self.rawRepresentation = seed
                self.publicKey = try PublicKey(rawRepresentation: publicBytes)
            }

            /// The 64-byte signature of `data`.
            public func signature(for data: some DataProtocol) throws -> Data {
                var signature = Data(count: 64)
                let ok = withContiguousBytes(of: data) { message in
                    rawRepresentation.withUnsafeBytes { seed in
                        signature.withUnsafeMutableBytes { out in
                            bestiary_ed25519_sign(
                                seed.bindMemory(to: UInt8.self).baseAddress, message.bindMemory(to: UInt8.self).baseAddress,
                                message.count, out.bindMemory(to: UInt8.self).baseAddress)
                        }
                    }
                }
                guard ok == 1 else { throw CryptoKitError.underlyingCoreCryptoError(error: ok) }
                return signature
            }
        }

        /// An Ed25519 public key: its 32 bytes (not `Sendable`, as CryptoKit's is not).
        public struct PublicKey {
            public let rawRepresentation: Data

            public init(rawRepresentation: some ContiguousBytes) throws {
                let bytes = rawRepresentation.withUnsafeBytes { Data($0) }
                guard bytes.count == 32 else { throw CryptoKitError.incorrectKeySize }
                self.rawRepresentation = bytes
            }

            /// Whether `signature` is this key's valid signature of `data`.
            public func isValidSignature(_ signature: some DataProtocol, for data: some DataProtocol) -> Bool {
                guard signature.count == 64 else { return false }
                let signatureBytes = Data(signature)
                return withContiguousBytes(of: data) { message in
                    rawRepresentation.withUnsafeBytes { key in
                        signatureBytes.withUnsafeBytes { sig in
                            bestiary_ed25519_verify(
                                key.bindMemory(to: UInt8.self).baseAddress, sig.bindMemory(to: UInt8.self).baseAddress,
                                message.bindMemory(to: UInt8.self).baseAddress, message.count)
                        }
                    }
                } == 1
            }
        }
    }
}

/// `data`'s bytes in one piece: as they are when they already are (a `Data`, an array), else
/// copied. libcrypto's Ed25519 takes the whole message at once.
private func withContiguousBytes<R>(of data: some DataProtocol, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    if data.regions.count == 1, let region = data.regions.first {
        return region.withUnsafeBytes(body)
    }
    return Array(data).withUnsafeBytes(body)
}
#else
#error("BestiaryCrypto needs CryptoKit (Apple platforms) or libcrypto (Linux, Android)")
#endif

extension SHA256 {
    /// The digest of `parts` one after the other, as of their bytes joined (a manifest written in
    /// parts is hashed so).
    public static func hash(parts: [Data]) -> Digest {
        var hasher = SHA256()
        for part in parts { hasher.update(data: part) }
        return hasher.finalize()
    }
}
