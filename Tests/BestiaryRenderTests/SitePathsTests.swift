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

    /// What ``SharedContext/frame(_:directory:kind:)`` relies on: from two directories that differ
    /// only in their last component, the links to a target whose directory has fewer components
    /// are the same.
    @Test func siblingsShareTheirLinksToShallowerTargets() {
        let lasts = ["owl", "cat", "x-1", "animals", "a", "b"]
        let parents = ["", "animals/", "en/animals/", "a/", "a/b/", "de/"]
        for parent in parents {
            let depth = parent.split(separator: "/").count + 1
            for to in Self.paths {
                let toDepth = to.split(separator: "/").count - (to.isEmpty || to.hasSuffix("/") ? 0 : 1)
                guard toDepth < depth else { continue }
                let links = Set(lasts.map { SitePaths.relative(from: parent + $0 + "/", to: to) })
                #expect(links.count == 1, "\(parent) → \(to.debugDescription): \(links)")
            }
        }
    }

    @Test func aFrameIsSharedByTheDirectoriesOfOneParent() {
        #expect(SharedContext.parent(of: "animals/owl/", deeperThan: 1) == "animals/")
        #expect(SharedContext.parent(of: "en/animals/owl/", deeperThan: 2) == "en/animals/")
        #expect(SharedContext.parent(of: "a//owl/", deeperThan: 1) == "a//")
        #expect(SharedContext.parent(of: "quiz/", deeperThan: 0) == "")
        // Not deeper than every link's target: its own frame.
        #expect(SharedContext.parent(of: "quiz/", deeperThan: 1) == nil)
        #expect(SharedContext.parent(of: "en/animals/owl/", deeperThan: 3) == nil)
        // Not ending in one component and one `/`, or not ASCII.
        #expect(SharedContext.parent(of: "", deeperThan: 0) == nil)
        #expect(SharedContext.parent(of: "/", deeperThan: 0) == nil)
        #expect(SharedContext.parent(of: "animals/owl//", deeperThan: 1) == nil)
        #expect(SharedContext.parent(of: "animals/owl", deeperThan: 1) == nil)
        #expect(SharedContext.parent(of: "animals/eul\u{e9}/", deeperThan: 1) == nil)
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
}
