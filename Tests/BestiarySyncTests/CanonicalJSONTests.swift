import BestiaryPackFormat
import Foundation
import Testing

@Suite struct CanonicalJSONTests {
    @Test func sortsKeysByUTF16CodeUnitsAndWritesNoWhitespace() {
        let value: JSONValue = ["b": 1, "a": ["z": true, "Z": false, "é": nil], "B": [1, "x"]]
        #expect(value.canonicalString == #"{"B":[1,"x"],"a":{"Z":false,"z":true,"é":null},"b":1}"#)
        // As RFC 8785 and Java, Kotlin and JavaScript order them: U+1F600 (D83D DE00 in UTF-16)
        // before U+E000, which code points put the other way round (an app developer's Kotlin
        // client would have refused our revs of such members).
        let wide: JSONValue = ["\u{E000}": 2, "😀": 1, "\u{FFFF}": 3]
        #expect(wide.canonicalString == "{\"😀\":1,\"\u{E000}\":2,\"\u{FFFF}\":3}")
        #expect(CanonicalJSON.sortedKeys(wide.objectValue!) == ["😀", "\u{E000}", "\u{FFFF}"])
    }

    /// The order over UTF-8 bytes is UTF-16's, for keys drawn from every range that matters.
    @Test func keyOrderIsUTF16OrderForManyKeys() {
        let pieces = ["", "a", "b", "é", "\u{7FF}", "\u{800}", "\u{D7FF}", "\u{E000}", "\u{F900}", "\u{FFFD}", "\u{FFFF}", "😀", "\u{10000}", "\u{10FFFF}"]
        // Every pair of keys of up to two pieces: 183 keys, 33,489 pairs.
        let keys = [""] + pieces.dropFirst() + pieces.dropFirst().flatMap { x in pieces.dropFirst().map { x + $0 } }
        var wrong: [(String, String)] = []
        for a in keys {
            for b in keys where CanonicalJSON.keyOrder(a, b) != a.utf16.lexicographicallyPrecedes(b.utf16) { wrong.append((a, b)) }
        }
        #expect(keys.count == 183 && wrong.isEmpty, "\(keys.count) keys; \(wrong.prefix(3).map { (Array($0.0.unicodeScalars), Array($0.1.unicodeScalars)) })")
    }

    @Test func escapesOnlyWhatJSONRequires() {
        let value: JSONValue = .string("quote \" backslash \\ tab \t nl \n bell \u{7} slash / äß 🦊 \u{2028}")
        #expect(value.canonicalString == "\"quote \\\" backslash \\\\ tab \\t nl \\n bell \\u0007 slash / äß 🦊 \u{2028}\"")
    }

    @Test func integersAreExactAndNegativeZeroIsZero() throws {
        #expect(JSONValue.integer(9_007_199_254_740_991).canonicalString == "9007199254740991")
        #expect(try JSONParser.parse(Array("-0".utf8)) == .integer(0))
        #expect(try JSONParser.parse(Array("1.50".utf8)) == .number("1.50"))
    }

    @Test func parsesWhatItWritesBackToTheSameBytes() throws {
        let value: JSONValue = [
            "id": "red-fox", "name": ["de": "Rotfuchs", "en": "Red fox"], "tags": ["forest", "europe"], "difficulty": 2,
            "body": .string("# Fox\n\n\"Quoted\" \u{1}"), "flag": false,
        ]
        let bytes = value.canonicalData
        let parsed = try JSONParser.parse(bytes)
        #expect(parsed == value)
        #expect(parsed.canonicalData == bytes)
    }

    @Test(arguments: [
        (#"{"a":1,"a":2}"#, "appears twice"),
        (#"{"a":1} x"#, "after the JSON value"),
        (#"["\ud800"]"#, "surrogate"),
        ("[\"a\nb\"]", "control character"),
        (#"[01]"#, "leading zero"),
        (#"{"a":tru}"#, "invalid literal"),
        (#"[1,]"#, "unexpected"),
        (#""abc"#, "unterminated"),
    ])
    func refusesAmbiguousOrBrokenJSON(text: String, problem: String) {
        do {
            _ = try JSONParser.parse(Array(text.utf8))
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.message.contains(problem), "\(error)")
        }
    }

    @Test func refusesInvalidUTF8AndDeepNesting() {
        #expect(throws: JSONParseError.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse([0x22, 0xED, 0xA0, 0x80, 0x22]) }  // encoded surrogate
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(Array(deep.utf8)) }
        let fine = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect((try? JSONParser.parse(Array(fine.utf8))) != nil)
    }

    /// A byte-order mark is refused, and said to be one (an app maker's `latest.json` from an
    /// editor read "unexpected character 'ï' (at byte 0)"); another character is named whole.
    @Test func aByteOrderMarkIsNamed() {
        func problem(_ bytes: [UInt8]) -> String? {
            do {
                _ = try JSONParser.parse(bytes)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(problem([0xEF, 0xBB, 0xBF] + Array("{}".utf8))
            == "the file starts with a UTF-8 byte-order mark (EF BB BF), which a pack file must not have; write it without one (at byte 0)")
        #expect(problem(Array("[1, é]".utf8)) == "unexpected character 'é' (at byte 4)")
    }

    @Test func decodesEscapesIncludingSurrogatePairs() throws {
        let parsed = try JSONParser.parse(Array(#"["\u00e4\ud83e\udd8a\/\b\f\r"]"#.utf8))
        #expect(parsed == ["ä🦊/\u{8}\u{C}\r"])
    }
}

@Suite struct PackTimeTests {
    @Test func formatsAndParsesUTCSeconds() throws {
        let t = PackTime(seconds: 1_767_225_600)  // 2026-01-01
        #expect(t.description == "2026-01-01T00:00:00Z")
        #expect(PackTime("2026-01-01T00:00:00Z") == t)
        #expect(PackTime("2024-02-29T23:59:59Z")?.description == "2024-02-29T23:59:59Z")
        #expect(PackTime(seconds: 0).description == "1970-01-01T00:00:00Z")
        #expect(PackTime(Date(timeIntervalSince1970: 10.9)).seconds == 10)
        #expect(t.adding(days: 30).description == "2026-01-31T00:00:00Z")
    }

    @Test(arguments: [
        "2026-02-29T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T00:00:00+01:00", "2026-01-01T00:00:00.5Z",
        "2026-1-01T00:00:00Z", "1969-12-31T23:59:59Z", "",
    ])
    func refusesAnythingElse(_ text: String) {
        #expect(PackTime(text) == nil)
    }

    @Test func matchesFoundationForManyInstants() {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        for seconds in stride(from: Int64(0), to: 4_000_000_000, by: 86_399 * 97) {
            let t = PackTime(seconds: seconds)
            #expect(t.description == formatter.string(from: t.date))
            #expect(PackTime(t.description) == t)
        }
    }
}
