import Testing

@testable import BestiaryRender

/// Relative URLs between output paths: the byte walk gives what splitting into components gives.
struct SitePathsTests {
    /// Directories and files of every shape: empty, `./`, the root's files, deep directories,
    /// doubled and leading slashes, names that are prefixes of each other, and non-ASCII names.
    static let paths: [String] = {
        let components = ["", ".", "..", "a", "ab", "b", "animals", "de", "x-1", "é", "e\u{301}", "媒体"]
        var result = ["", "./", "/", "//", "sw.js", "index.html", "a/b/c/d/e/", "a/b/c/d/e/f.html", "a//b/", "/a/b", "a/b//"]
        for first in components {
            for second in components {
                result.append(first + "/" + second)
                result.append(first + "/" + second + "/")
                result.append(first + "/" + second + "/index.html")
                result.append(first + "/" + second + "/a/")
            }
        }
        return result
    }()

    @Test func theByteWalkEqualsSplittingOnEveryPair() {
        var checked = 0
        for from in Self.paths {
            for to in Self.paths {
                let fast = SitePaths.relative(from: from, to: to)
                let reference = SitePaths.relativeBySplitting(from: from, to: to)
                if fast != reference {
                    Issue.record("relative(from: \(from.debugDescription), to: \(to.debugDescription)): \(fast.debugDescription), expected \(reference.debugDescription)")
                }
                checked += 1
            }
        }
        #expect(checked > 100_000)
    }

    @Test func examples() {
        #expect(SitePaths.relative(from: "", to: "") == "./")
        #expect(SitePaths.relative(from: "", to: "sw.js") == "sw.js")
        #expect(SitePaths.relative(from: "animals/owl/", to: "") == "../../")
        #expect(SitePaths.relative(from: "animals/owl/", to: "animals/owl/") == "./")
        #expect(SitePaths.relative(from: "animals/owl/", to: "animals/cat/") == "../cat/")
        #expect(SitePaths.relative(from: "en/animals/owl/", to: "media/owl.webp") == "../../../media/owl.webp")
        #expect(SitePaths.relative(from: "en/animals/owl/", to: "en/quiz/") == "../../quiz/")
        #expect(SitePaths.relative(from: "quiz/", to: "quiz/index.html") == "index.html")
        #expect(SitePaths.relative(from: "a//b/", to: "a/c//") == "../c/")
    }

    /// The search text's lower case by bytes agrees with Swift's for ASCII, and non-ASCII text
    /// still goes through Swift's Unicode case mapping.
    @Test func searchTextIsLowercasedAsSwiftDoes() {
        for text in ["Red Fox Vulpes vulpes MAMMAL", "", "a-Z@[`{", "ÄRGER Bär", "İstanbul", "ΣΊΣΥΦΟΣ", "Straße STRASSE", "🦉 Owl"] {
            #expect(SharedContext.lowercased(text) == text.lowercased(), "\(text)")
        }
        var all = ""
        for b in UInt8(0)..<0x80 { all.append(Character(Unicode.Scalar(b))) }
        #expect(SharedContext.lowercased(all) == all.lowercased())
    }

    /// An asset's name is trimmed as Foundation trims it, with or without the short cut.
    @Test func assetNamesAreTrimmedAsFoundationTrims() {
        let names = [
            "css/site.css", " css/site.css\n", "\tjs/a.js", "js/a.js ", "", " ", "a", "\u{00A0}x\u{00A0}", "x\u{2003}", "é/ü.css",
            "\u{301}a", "a\u{301}", "~x~", "\u{7F}x",
        ]
        for name in names {
            #expect(SharedContext.trimmed(name) == name.trimmingCharacters(in: .whitespacesAndNewlines), "\(name.debugDescription)")
        }
    }
}

/// A base URL with a non-ASCII path (`/Vögel/`) went into sitemap.xml as written, which the
/// sitemap protocol does not allow (a deploy trial's): its path is percent-encoded there, the host
/// left as written.
@Test func theSitemapPercentEncodesANonASCIIPath() {
    #expect(Sitemap.asciiPath("http://127.0.0.1:8801/Vögel/") == "http://127.0.0.1:8801/V%C3%B6gel/")
    #expect(Sitemap.asciiPath("https://example.org/birds/") == "https://example.org/birds/")
    #expect(Sitemap.asciiPath("https://bücher.example/") == "https://bücher.example/")
}
