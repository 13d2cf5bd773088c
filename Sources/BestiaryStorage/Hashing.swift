import BestiaryCrypto
import Foundation

/// Content hashes: file names of media and assets, pack record revisions, cache keys.
public enum Hashing {
    /// Lower-case hex SHA-256 of `data`.
    public static func sha256Hex(_ data: some DataProtocol) -> String {
        hex(SHA256.hash(data: data))
    }

    /// Lower-case hex SHA-256 of `parts`, one after the other (without joining them first).
    public static func sha256Hex(parts: [[UInt8]]) -> String {
        var hasher = SHA256()
        for part in parts { part.withUnsafeBytes { hasher.update(bufferPointer: $0) } }
        return hex(hasher.finalize())
    }

    /// Lower-case hex SHA-256 of `parts`, one after the other.
    public static func sha256Hex(parts: [Data]) -> String {
        hex(SHA256.hash(parts: parts))
    }

    public static func sha256Hex(_ string: String) -> String {
        sha256Hex(Data(string.utf8))
    }

    /// The first `length` hex digits of the SHA-256: enough to bust caches in file names.
    public static func shortHash(_ data: some DataProtocol, length: Int = 10) -> String {
        String(sha256Hex(data).prefix(length))
    }

    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
