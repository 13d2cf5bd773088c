import BestiaryTheme
@testable import BestiaryRender
import Foundation
import Testing

/// The keys of a theme's text file as written, found by hand: the same, in the same order, as the
/// pattern they were found with before (`NSRegularExpression`, kept here as the reference), for
/// the default theme's files and for text made to trip a hand-made scanner.
struct KeyMentionsTests {
    static func byPattern(_ text: String) -> [String] {
        guard let pattern = try? NSRegularExpression(pattern: #""((?:[^"\\]|\\.)*)"\s*:"#) else { return [] }
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    static let tricky = [
        #"{"a": "b", "c"  :  "d: e", "f\"g": "h\\", "i": "j\": k", "é🦊\u00e9": "x"}"#,
        "{\"a\"\t\n\r :1, \"b\"\u{2028}: 2, \"c\"\u{00A0}:3, \"d\"\u{0B}: 4, \"e\"\u{85}: 5}",
        #"{"unclosed: "#,
        #"{"a": "\\", "b": "\\\"", "c"}:"#,
        "\"\"::\"\":",
        "",
        "{\"k\": \"e\u{301}\", \"e\u{301}\": 1}",
    ] + ["\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}", "\t", "x"].map { end in
        // A backslash before each kind of line end (and two that are none) in a key and a value.
        "{\"a\\\(end)\": 1, \"b\": \"c\\\(end)\": 2, \"d\\\(end)"
    }

    /// A comma before the closing brace is found from the end where the pattern found it.
    @Test func theTrailingCommaIsThePatterns() {
        let texts = [
            "{\"a\": 1,}", "{\"a\": 1,\n}\n", "{\"a\": 1 ,\u{85}\u{2028} }\u{0B}\r\n", "{\"a\": 1}", "{\"a\": \",}\"}", "{\"a\": 1,} x",
            ",}", "}", ",", "", "{\"é\": \"🦊\",\t}  ", "{\"a\": [1,],}",
        ]
        for text in texts {
            let pattern = text.range(of: #",\s*\}\s*$"#, options: .regularExpression)?.lowerBound
            #expect(UIStrings.trailingComma(in: text) == pattern, "\(text.debugDescription)")
        }
        #expect(UIStrings.trailingComma(in: "{\"a\": 1,\n}\n") != nil)
    }

    @Test func theKeysAreThePatternsKeys() throws {
        var texts = Self.tricky
        for (path, data) in DefaultTheme.files where path.hasPrefix("i18n/") && path.hasSuffix(".json") {
            texts.append(String(decoding: data, as: UTF8.self))
        }
        #expect(texts.count > Self.tricky.count + 2, "the theme's text files are among them")
        for text in texts {
            #expect(UIStrings.keyMentions(in: text) == Self.byPattern(text), "\(text.prefix(60))")
        }
        #expect(UIStrings.keyMentions(in: Self.tricky[0]) == ["a", "c", #"f\"g"#, "i", "é🦊\\u00e9"])
    }
}
