import BestiaryStorage
import Foundation
import Testing

/// A file's known SHA-256 (``OutputFile/sha256``) saves the write stage a hash of megabytes: it
/// must never outlive the bytes it describes, nor make equal files unequal.
@Suite struct OutputFileTests {
    @Test func aKnownDigestIsTakenAndForgottenWithTheBytes() {
        let data = Data("{\"animals\":[]}".utf8)
        let plain = OutputFile(path: "assets/catalog.json", data: data)
        #expect(plain.sha256 == nil)
        #expect(plain.dataSHA256 == Hashing.sha256Hex(data))
        let known = plain.knowing(sha256: Hashing.sha256Hex(data))
        #expect(known.sha256 == Hashing.sha256Hex(data))
        #expect(known == plain)
        #expect(Set([known, plain]).count == 1)
        // Taken as given (the stage that hashed the bytes vouches for it), not hashed again.
        #expect(plain.knowing(sha256: "given").dataSHA256 == "given")
        var changed = known
        changed.content = .data(Data("[]".utf8))
        #expect(changed.sha256 == nil)
        #expect(changed.dataSHA256 == Hashing.sha256Hex(Data("[]".utf8)))
        #expect(OutputFile(path: "media/a.ogg", linking: "/content/a.ogg").dataSHA256 == nil)
    }
}
