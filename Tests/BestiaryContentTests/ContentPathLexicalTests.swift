@testable import BestiaryContent
import Testing

/// ``ContentPath/lexicalProblem(_:)`` passes plain paths by their bytes alone; whatever it
/// decides must be what the full checks decide.
@Suite struct ContentPathLexicalTests {
    @Test func plainPathsPassAndProblemsAreStillFound() {
        for plain in ["sounds/owl.ogg", "a", "images/x y.webp", "./a/b.png", "a/.../b", "a/.b/..c/c..", "media//owl.mp3", "owl.ogg/"] {
            #expect(ContentPath.isPlainRelative(plain), "\(plain)")
            #expect(ContentPath.lexicalProblem(plain) == nil, "\(plain)")
        }
        #expect(ContentPath.lexicalProblem("") == .empty)
        #expect(ContentPath.lexicalProblem("/etc/owl.ogg") == .absolute)
        #expect(ContentPath.lexicalProblem("~/owl.ogg") == .absolute)
        #expect(ContentPath.lexicalProblem("x:owl.ogg") == .absolute)
        #expect(ContentPath.lexicalProblem("C:\\sounds\\owl.ogg") == .windowsPath("owl.ogg"))
        #expect(ContentPath.lexicalProblem("sounds\\owl.ogg") == .backslash)
        #expect(ContentPath.lexicalProblem("../owl.ogg") == .parentReference)
        #expect(ContentPath.lexicalProblem("a/../../owl.ogg") == .parentReference)
        #expect(ContentPath.lexicalProblem("a/..") == .parentReference)
        #expect(ContentPath.lexicalProblem("a//..//b") == .parentReference)
    }

    /// Every path of up to four pieces from an alphabet of the bytes that matter: the quick pass
    /// and the full checks agree on each (a quick pass that let one through would differ).
    @Test func theQuickPassAgreesWithTheFullChecks() {
        let pieces = ["a", ".", "..", "/", "\\", ":", "~", " ", "é", "\r\n", "\t", "C", "ab.ogg"]
        var paths = [""]
        var passed = 0
        for _ in 0..<4 {
            paths = paths.flatMap { path in pieces.map { path + $0 } }
            for path in paths {
                let quick = ContentPath.lexicalProblem(path), full = ContentPath.anyLexicalProblem(path)
                if quick != full { Issue.record("\(path.debugDescription): \(String(describing: quick)) against \(String(describing: full))") }
                if ContentPath.isPlainRelative(path) { passed += 1 }
            }
        }
        // The quick pass is taken for many of them (not a check that never runs).
        #expect(passed > 1_000)
    }
}
