import BestiaryCrypto
import Foundation
import Testing

/// Known answers from the standards (FIPS 180-4's examples for SHA-256, RFC 8032 section 7.1
/// for Ed25519), and the value semantics the callers rely on.
@Suite struct CryptoTests {
    static func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
    static func bytes(_ hex: String) -> Data {
        var out = Data()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return out
    }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func sha256KnownAnswers(message: String, digest: String) {
        #expect(Self.hex(SHA256.hash(data: Data(message.utf8))) == digest)
        #expect(Self.hex(SHA256.hash(data: Array(message.utf8))) == digest)
    }

    /// A million 'a's fed in uneven pieces, from arrays, slices, raw buffers and a `DispatchData`
    /// of several regions: the same digest as in one piece.
    @Test func sha256InPiecesIsTheSameAsInOne() {
        let million = [UInt8](repeating: 0x61, count: 1_000_000)
        let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        #expect(Self.hex(SHA256.hash(data: million)) == expected)
        var hasher = SHA256()
        var offset = 0
        var size = 1
        while offset < million.count {
            let end = min(million.count, offset + size)
            if size % 2 == 0 {
                hasher.update(data: million[offset..<end])
            } else {
                million[offset..<end].withUnsafeBytes { hasher.update(bufferPointer: $0) }
            }
            offset = end
            size = size * 3 + 1
        }
        #expect(Self.hex(hasher.finalize()) == expected)

        var regions = DispatchData.empty
        for piece in stride(from: 0, to: 3000, by: 1000) {
            million[piece..<(piece + 1000)].withUnsafeBytes { regions.append($0) }
        }
        #expect(regions.regions.count > 1)
        #expect(SHA256.hash(data: regions) == SHA256.hash(data: million.prefix(3000)))
    }

    /// `finalize()` leaves the hasher as it was, and a copy hashes on on its own.
    @Test func sha256IsAValue() {
        var a = SHA256()
        a.update(data: Array("ab".utf8))
        let early = a.finalize()
        #expect(a.finalize() == early)
        var b = a
        b.update(data: Array("c".utf8))
        a.update(data: Array("x".utf8))
        #expect(Self.hex(b.finalize()) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(a.finalize() == SHA256.hash(data: Array("abx".utf8)))
        #expect(early == SHA256.hash(data: Array("ab".utf8)))
        #expect(early != a.finalize())
        #expect(Set([early, SHA256.hash(data: Array("ab".utf8))]).count == 1)
    }

    @Test(arguments: [
        // RFC 8032, 7.1: TEST 1 (empty message), TEST 2, TEST 3.
        ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
         "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
         "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
        ("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
         "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
         "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
        ("c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
         "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
         "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"),
    ])
    func ed25519KnownAnswers(seed: String, publicKey: String, message: String, signature: String) throws {
        let key = try Curve25519.Signing.PrivateKey(rawRepresentation: Self.bytes(seed))
        #expect(Self.hex(key.rawRepresentation) == seed)
        #expect(Self.hex(key.publicKey.rawRepresentation) == publicKey)
        let signed = try key.signature(for: Self.bytes(message))
        #if !canImport(CryptoKit)
        // libcrypto's Ed25519 is RFC 8032's, deterministic; CryptoKit's is randomized.
        #expect(Self.hex(signed) == signature)
        #endif
        let verifier = try Curve25519.Signing.PublicKey(rawRepresentation: Self.bytes(publicKey))
        #expect(verifier.isValidSignature(Self.bytes(signature), for: Self.bytes(message)))
        #expect(verifier.isValidSignature(signed, for: Self.bytes(message)))
    }

    @Test func ed25519RefusesWhatIsNotSigned() throws {
        let key = Curve25519.Signing.PrivateKey()
        let other = Curve25519.Signing.PrivateKey()
        #expect(key.rawRepresentation != other.rawRepresentation, "two new keys are random")
        let message = Data("the catalogue, version 7".utf8)
        let signature = try key.signature(for: message)
        #expect(signature.count == 64)
        #expect(key.publicKey.isValidSignature(signature, for: message))
        #expect(!key.publicKey.isValidSignature(signature, for: Data("the catalogue, version 8".utf8)))
        #expect(!other.publicKey.isValidSignature(signature, for: message))
        var flipped = signature
        flipped[10] ^= 0x01
        #expect(!key.publicKey.isValidSignature(flipped, for: message))
        #expect(!key.publicKey.isValidSignature(signature.prefix(63), for: message))
        #expect(!key.publicKey.isValidSignature(Data(), for: message))
        // A key made again from its bytes signs for the same public key.
        let again = try Curve25519.Signing.PrivateKey(rawRepresentation: key.rawRepresentation)
        #expect(again.publicKey.rawRepresentation == key.publicKey.rawRepresentation)
        #expect(key.publicKey.isValidSignature(try again.signature(for: message), for: message))
    }

    @Test func keysOfTheWrongSizeAreRefused() {
        for count in [0, 31, 33, 64] {
            #expect(throws: CryptoKitError.self) { try Curve25519.Signing.PrivateKey(rawRepresentation: Data(repeating: 7, count: count)) }
            #expect(throws: CryptoKitError.self) { try Curve25519.Signing.PublicKey(rawRepresentation: Data(repeating: 7, count: count)) }
        }
    }
}
