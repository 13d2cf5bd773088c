import BestiaryContent
import Foundation
import Testing

/// YAML and text that try to hang, crash or confuse the loader: each is refused with a clear
/// message at a position, or accepted as what it means. Never a hang, never a crash.
@Suite(.timeLimit(.minutes(1))) struct HostileInputTests {
    static let record = "content/animals/fox.md"

    func lines(_ text: String) throws -> [String] {
        try TestSite([Self.record: text]).lines()
    }

    func lines(_ data: Data) throws -> [String] {
        try TestSite(binary: [Self.record: data]).lines()
    }

    @Test func billionLaughsAliasBombIsRefused() throws {
        var yaml = "---\nname: {de: Fuchs}\na0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for i in 1...9 {
            yaml += "a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 9).joined(separator: ", ") + "]\n"
        }
        yaml += "---\n"
        let out = try lines(yaml)
        #expect(out.count == 1)
        #expect(out.contains { $0.hasPrefix("\(Self.record):3:5: error: anchors ('&name') are not supported") })
    }

    @Test func aliasUsedAsAKeyIsRefusedBeforeParsing() throws {
        let yaml = "---\nname: {de: Fuchs}\n*b : x\n---\n"
        #expect(try lines(yaml).contains { $0.hasPrefix("\(Self.record):3:1: error: aliases ('*name') are not supported") })
    }

    @Test func aliasKeyInAFlowMappingIsRefused() throws {
        let yaml = "---\nname: {de: Fuchs}\ny: {*x : 1}\n---\n"
        #expect(try lines(yaml).contains { $0.hasPrefix("\(Self.record):3:5: error: aliases ('*name') are not supported") })
    }

    @Test func anchorIsRefused() throws {
        #expect(try lines("---\nname: &n {de: Fuchs}\n---\n").contains {
            $0.hasPrefix("\(Self.record):2:7: error: anchors ('&name') are not supported")
        })
    }

    @Test func starsAndAmpersandsInsideTextAreFine() throws {
        let site = try TestSite([Self.record: "---\nname: {de: \"*Bob*\", en: Tom & Jerry}\ndescription: {en: 'a *b* & c', de: x *y* &z}\n---\n"])
        let animal = try #require(site.load().catalog?.animals.first)
        #expect(site.lines() == [])
        #expect(animal.name["de"] == "*Bob*" && animal.name["en"] == "Tom & Jerry")
        #expect(animal.description["de"] == "x *y* &z")
    }

    @Test func complexKeyIsRefused() throws {
        #expect(try lines("---\nname: {de: Fuchs}\n? [a, b]\n: c\n---\n").contains {
            $0.hasPrefix("\(Self.record):3:1: error: complex mapping keys ('? ') are not supported")
        })
    }

    @Test func deepFlowNestingIsRefused() throws {
        let yaml = "---\nname: {de: Fuchs}\ntags: " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "\n---\n"
        #expect(try lines(yaml).contains { $0.hasPrefix("\(Self.record):3:") && $0.contains("nested too deeply (more than 32 brackets)") })
    }

    /// A quote inside a word (`12"`) is text, not the start of a quoted scalar: brackets after it
    /// still count (they once went unseen there, so any depth passed to the parser).
    @Test func deepFlowNestingAfterAQuoteInsideAWordIsRefused() throws {
        for quote in ["\"", "'"] {
            let yaml = "---\nname: {de: Fuchs}\ntags: [12\(quote) record, " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "]\n---\n"
            #expect(try lines(yaml).contains { $0.hasPrefix("\(Self.record):3:") && $0.contains("nested too deeply (more than 32 brackets)") }, "\(quote)")
        }
    }

    /// `|` and `>` start a block scalar only outside brackets: lines after `[a |` are still checked
    /// (they were once skipped as the block's text).
    @Test func deepNestingAfterAPipeInsideBracketsIsRefused() throws {
        for mark in ["|", ">"] {
            let yaml = "---\nname: {de: Fuchs}\ntags: [a \(mark)\n  , " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "]\n---\n"
            #expect(try lines(yaml).contains { $0.hasPrefix("\(Self.record):4:") && $0.contains("nested too deeply (more than 32 brackets)") }, "\(mark)")
        }
    }

    @Test func quotesAndPipesInsideTextAreFine() throws {
        let site = try TestSite([Self.record: "---\nname: {de: Fuchs, en: 12\" fox}\ndescription: {en: a | b, de: it's a > c}\n---\n"])
        let animal = try #require(site.load().catalog?.animals.first)
        #expect(site.lines() == [])
        #expect(animal.name["en"] == "12\" fox" && animal.description["en"] == "a | b" && animal.description["de"] == "it's a > c")
    }

    @Test func deepBlockNestingIsRefused() throws {
        var yaml = "---\nname: {de: Fuchs}\ntags:\n"
        for depth in 0..<300 { yaml += String(repeating: " ", count: depth + 1) + "k\(depth):\n" }
        yaml += "---\n"
        #expect(try lines(yaml).contains { $0.contains("indented more than 128 columns (nested too deeply)") })
    }

    @Test func deepDashNestingOnOneLineIsRefused() throws {
        let yaml = "---\nname: {de: Fuchs}\ntags:\n" + String(repeating: "- ", count: 5000) + "x\n---\n"
        #expect(try lines(yaml).contains { $0.hasPrefix("\(Self.record):4:1: error: front matter is nested too deeply (more than 16 list levels") })
    }

    @Test func hugeFrontMatterIsRefused() throws {
        let yaml = "---\nname: {de: Fuchs}\ndescription: {de: \"" + String(repeating: "a", count: 300_000) + "\"}\n---\n"
        #expect(try lines(yaml).contains { $0.hasPrefix("\(Self.record):2:1: error: front matter is larger than 256 KiB") })
    }

    @Test func invalidUTF8IsReportedAtItsPosition() throws {
        var data = Data("---\nname: {de: Fuchs}\ngroup: b".utf8)
        data.append(0xFF)
        data.append(contentsOf: Array("ird\n---\n".utf8))
        #expect(try lines(data).contains { $0.hasPrefix("\(Self.record):3:9: error: file is not valid UTF-8 (byte 0xFF at offset 30)") })
    }

    @Test func overlongUTF8IsInvalid() throws {
        let data = Data("---\nname: {de: F".utf8) + Data([0xC0, 0xAF]) + Data("}\n---\n".utf8)
        #expect(try lines(data).contains { $0.hasPrefix("\(Self.record):2:13: error: file is not valid UTF-8 (byte 0xC0") })
    }

    @Test func utf16IsRefusedWithAHint() throws {
        var data = Data([0xFF, 0xFE])
        data.append("---".data(using: .utf16LittleEndian)!)
        #expect(try lines(data).contains { $0.hasPrefix("\(Self.record):1:1: error: file is UTF-16; save it as UTF-8") })
    }

    @Test func nulByteIsRefused() throws {
        let data = Data("---\nname: {de: Fu".utf8) + Data([0]) + Data("chs}\n---\n".utf8)
        #expect(try lines(data).contains { $0.hasPrefix("\(Self.record):2:14: error: file contains a NUL byte") })
    }

    /// Control characters a page cannot show (BEL, ESC, DEL, C1), raw in the file or from a YAML
    /// escape: they were written as they are into the pages and packs (found by a new user). Tab,
    /// form feed and line ends stay allowed.
    @Test func controlCharactersAreRefusedAtTheirPosition() throws {
        let raw = try lines("---\nname: {de: Fuchs}\n---\nDer \u{1B}[31mFuchs.\n")
        #expect(raw.contains {
            $0.hasPrefix("\(Self.record):4:5: error: file contains U+001B (a control character), which a page cannot show; remove it")
        })
        // Once: not again as "by a character reference" (found by a reviewer).
        #expect(raw.filter { $0.contains(": error: ") }.count == 1, "\(raw)")
        #expect(try lines("---\nname: {de: Fuchs}\n---\nDer\u{85}Fuchs.\n").contains {
            $0.hasPrefix("\(Self.record):4:4: error: file contains U+0085 (a control character)")
        })
        for escape in ["\\a", "\\x07", "\\0", "\\x7F", "\\u0085"] {
            let found = try lines("---\nname: {de: \"X\(escape)Y\"}\n---\n")
            #expect(found.contains { $0.hasPrefix("\(Self.record):2:12: error: a value written with an escape holds U+00") && $0.contains("(a control character), which a page cannot show") }, "\(escape): \(found)")
        }
        #expect(try lines("---\nname: {de: Fuchs}\n---\nDer &#x1b;Fuchs.\n").contains {
            $0.hasPrefix("\(Self.record):4:5: error: the text refers to U+001B (a control character) by a character reference, which a page cannot show")
        })
        let site = try TestSite(binary: [Self.record: Data("---\nname: {de: \"Fu\\tchs\"}\n---\nDer\tFuchs.\u{0C}\r\n&#9;&#10;\n".utf8)])
        #expect(!site.load().diagnostics.hasErrors)
    }

    @Test func directionControlsAreRefusedAtTheirPosition() throws {
        // An override makes the name read "Red fox" on the site although the file stores it reversed.
        #expect(try lines("---\nname: {de: \"\u{202E}xof deR\"}\n---\n").contains {
            $0.hasPrefix("\(Self.record):2:13: error: file contains U+202E (right-to-left override), a control character")
        })
        #expect(try lines("---\nname: {de: Fuchs}\n---\nDer \u{2067}Fuchs\u{2069}.\n").contains {
            $0.hasPrefix("\(Self.record):4:5: error: file contains U+2067 (right-to-left isolate)")
        })
        // Written as escapes, which the file's bytes do not show: a YAML escape in any value, a
        // character reference in the text (also in a link's address), decimal or hex.
        #expect(try lines("---\nname: {de: \"Fuchs\"}\ndescription: {de: \"x\\u202Ey\"}\n---\n").contains {
            $0.hasPrefix("\(Self.record):3:19: error: a value written with an escape holds U+202E (right-to-left override)")
        })
        #expect(try lines("---\nname: {de: Fuchs}\n---\nDer\n\nrote &#x202e;Fuchs.\n").contains {
            $0.hasPrefix("\(Self.record):6:6: error: the text refers to U+202E (right-to-left override) by a character reference")
        })
        #expect(try lines("---\nname: {de: Fuchs}\n---\nSee [it](https://example.org/&#8294;).\n").contains {
            $0.contains("error: the text refers to U+2066 (left-to-right isolate) by a character reference")
        })
        // The marks, which only nudge neutral characters, stay allowed, as do other U+20xx characters.
        let site = try TestSite(binary: [Self.record: Data("---\nname: {de: \"Fuchs\u{200F}\", en: \"Fox \u{2014} \\u2030\"}\n---\nA &#x200F; mark &amp; &#8212;.\n".utf8)])
        #expect(!site.load().diagnostics.hasErrors)
    }

    /// As with a direction control: the record is still read, with the one error (an import must
    /// not replace a file that only a record with an error uses; found by review).
    @Test func aRecordWithAControlCharacterIsStillRead() throws {
        let site = try TestSite([Self.record: "---\nname: {de: Fuchs}\nsound: {file: sounds/fox.mp3}\n---\nDer \u{1B}Fuchs.\n"])
        let result = site.load()
        #expect(result.catalog?.animals.first?.sound?.filePath == "sounds/fox.mp3")
        #expect(result.diagnostics.items.filter { $0.severity == .error }.map(\.message).count { $0.contains("U+001B") } == 1)
    }

    /// Text the user cannot mend (a Wikipedia summary) loses its controls, C0 and C1 alike, and
    /// nothing else: a no-break space (U+00A0, whose first byte leads the C1 controls too) and
    /// letters outside ASCII stay, and text without a control is returned as it is.
    @Test func controlsAreRemovedFromTextTheUserCannotMend() {
        #expect(ControlCharacter.removed(from: "Fuchs\u{1B} und\u{85} Dachs\u{7F}") == "Fuchs und Dachs")
        #expect(ControlCharacter.removed(from: "Renard\u{A0}roux, \u{E9}t\u{E9}, \u{72D0}\u{72F8}") == "Renard\u{A0}roux, \u{E9}t\u{E9}, \u{72D0}\u{72F8}")
        #expect(ControlCharacter.first(in: "tab\tand\nlines\r\u{C}") == nil)
        #expect(ControlCharacter.first(in: String(repeating: "long text ", count: 500) + "\u{9F}") == 0x9F)
        #expect(ControlCharacter.first(in: "") == nil)
    }

    /// The record is still read, with the one error: the catalogue knows it and its files (an
    /// import must not replace a file that only a record with an error uses).
    @Test func aRecordWithADirectionControlIsStillRead() throws {
        let site = try TestSite([Self.record: "---\nname: {de: \"\u{202E}xuF\"}\nsound: {file: sounds/fox.mp3}\n---\n"])
        let result = site.load()
        #expect(result.catalog?.animals.map(\.id) == ["fox"])
        #expect(result.catalog?.animals.first?.sound?.filePath == "sounds/fox.mp3")
        #expect(result.diagnostics.items.filter { $0.severity == .error }.map(\.message).count { $0.contains("U+202E") } == 1)
    }

    @Test func byteOrderMarkIsAccepted() throws {
        let site = try TestSite(binary: [Self.record: Data([0xEF, 0xBB, 0xBF]) + Data("---\nname: {de: Fuchs}\n---\nText.\n".utf8)])
        let result = site.load()
        #expect(!result.diagnostics.hasErrors)
        #expect(result.catalog?.animals.first?.name["de"] == "Fuchs")
    }

    @Test func crlfIsAcceptedAndLinesStayRight() throws {
        let text = "---\r\nname: {de: Fuchs}\r\ngroup: bird\r\ndifficulty: 9\r\n---\r\nLine one.\r\nLine two.\r\n"
        let site = try TestSite([Self.record: text])
        #expect(site.lines() == ["\(Self.record):4:13: error: difficulty must be from 1 to 3, not 9"])
        let ok = try TestSite([Self.record: text.replacingOccurrences(of: "difficulty: 9\r\n", with: "")])
        let animal = try #require(ok.load().catalog?.animals.first)
        #expect(animal.bodies["de"]?.markdown == "Line one.\nLine two.\n")
        #expect(animal.bodies["de"]?.location.line == 5)
    }

    @Test func yamlOneOneBooleansStayText() throws {
        let site = try TestSite([Self.record: "---\nname: {de: Nein, en: No}\nscientific: yes\nid: \"0123\"\n---\n"])
        let animal = try #require(site.load().catalog?.animals.first)
        #expect(animal.name["en"] == "No")
        #expect(animal.scientific == "yes")
        #expect(animal.id == "0123")
    }

    @Test func tooManyValuesAreRefused() throws {
        let tags = (0..<10_500).map { "t\($0)" }.joined(separator: ", ")
        #expect(try lines("---\nname: {de: Fuchs}\ntags: [\(tags)]\n---\n").contains { $0.contains("front matter has more than 10000 values") })
    }
}
