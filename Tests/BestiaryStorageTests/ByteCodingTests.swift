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
