@testable import BestiaryContent
import Foundation
import Testing

/// The reader's own shortcuts agree with what they stand in for.
@Suite struct YAMLReaderTests {
    /// `trimmed` skips Foundation only when there is nothing to trim; whatever the text, it gives
    /// what `trimmingCharacters(in: .whitespacesAndNewlines)` gives.
    @Test func trimmedIsTrimmingCharacters() {
        let spaces = [" ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{A0}", "\u{1680}", "\u{2003}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{3000}"]
        let words = ["", "Fuchs", "Rotfuchs im Wald", "é", "\u{1F98A}", "a\u{301}", "\u{200B}x\u{200B}", "中文"]
        var cases: [String] = []
        for word in words {
            cases.append(word)
            for space in spaces {
                cases += [space + word, word + space, space + word + space, space + space + word + space + space]
            }
        }
        for text in cases {
            #expect(YAMLReader.trimmed(text) == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(Array(text.unicodeScalars))")
        }
    }

    /// Scalars the default resolver would type (booleans, numbers, null, timestamps) are read as
    /// written, and keys that differ only in how they are quoted are still the same key.
    @Test func scalarsAreTextAndQuotedKeysAreDuplicates() throws {
        let reader = YAMLReader(path: "x.md", firstLine: 2)
        let root = try #require(reader.parse("a: yes\nb: 0x1F\nc: 2001-12-14\nd: ~\ne: 1e3\n"))
        let fields = try #require(reader.fields(root, allowed: ["a", "b", "c", "d", "e"], what: "record"))
        #expect(fields.mapValues { $0.value.string } == ["a": "yes", "b": "0x1F", "c": "2001-12-14", "d": "~", "e": "1e3"])
        let twice = YAMLReader(path: "x.md", firstLine: 2)
        #expect(twice.parse("group: a\n\"group\": b\n") == nil)
        #expect(twice.diagnostics.map(\.message) == ["duplicate key 'group' (also at line 2: keep one)"])
    }
}
