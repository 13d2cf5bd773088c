import BestiaryStorage
import Testing

/// The kept files' coding: what is written reads back the same, and damaged bytes read as nil.
struct ByteCodingTests {
    @Test func stringsReadBackAsWritten() {
        let strings = ["", "animals/red-fox.md", "Füchse 🦊 naïve e\u{301}", String(repeating: "x", count: 300), "\u{0}\u{7f}"]
        var writer = ByteWriter()
        for s in strings { writer.string(s) }
        writer.strings(strings)
        var reader = ByteReader(writer.bytes)
        for s in strings { #expect(reader.string() == s) }
        #expect(reader.strings() == strings)
        #expect(reader.atEnd)
    }

    /// A string read with the one before it reads as itself, whether it has that one's bytes (the
    /// same text, held once), other bytes of the same length, or none; a damaged one is nil.
    @Test func aStringReadReusingTheLastReadsAsItself() {
        // (The last two are the same text to Swift, canonically equivalent, in other bytes of the same length.)
        let strings = [
            "content/animals/fox.md", "content/animals/fox.md", "content/animals/owl.md", "", "", "é", "e\u{301}", "e\u{301}",
            "content/animals/owl.md", "\u{1E0A}\u{0323}", "\u{1E0C}\u{0307}",
        ]
        var writer = ByteWriter()
        for s in strings { writer.string(s) }
        var reader = ByteReader(writer.bytes)
        var last: String?
        for s in strings {
            let read = reader.string(reusing: &last)
            #expect(read == s && last == s)
            // Byte for byte, not as Swift compares (canonical equivalence).
            #expect(read.map { Array($0.utf8) } == Array(s.utf8))
        }
        #expect(reader.atEnd)
        var damaged = ByteWriter()
        damaged.count(2)
        var bad = ByteReader(damaged.bytes + [0xC3, 0x28])
        last = "ab"
        #expect(bad.string(reusing: &last) == nil)
    }

    @Test func invalidUTF8IsNil() {
        // A truncated four-byte sequence (F0 9F 98) is three bytes, as its replacement would be.
        for bad: [UInt8] in [[0xFF], [0xF0, 0x9F, 0x98], [0x61, 0xC3], [0xED, 0xA0, 0x80]] {
            var writer = ByteWriter()
            writer.count(bad.count)
            var reader = ByteReader(writer.bytes + bad)
            #expect(reader.string() == nil, "\(bad)")
        }
        // A length past the end.
        var writer = ByteWriter()
        writer.count(10)
        var reader = ByteReader(writer.bytes + Array("short".utf8))
        #expect(reader.string() == nil)
    }
}
