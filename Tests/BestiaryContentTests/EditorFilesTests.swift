@testable import BestiaryContent
import Testing

/// What editors leave beside a file is passed over by the loader, the theme and the preview's
/// watcher alike; a record's plain name is judged by its bytes alone (``EditorFiles/isPlainMarkdownName(_:)``).
@Suite struct EditorFilesTests {
    @Test func aPlainRecordNameIsASCIIWithNoFolderAndMoreThanItsEnding() {
        for name in ["owl.md", "a.md", "red fox.md", ".#owl.md", "owl.en.md", "x..md"] {
            #expect(EditorFiles.isPlainMarkdownName(name.utf8), "\(name)")
        }
        for name in [".md", "md", "owl.MD", "owl.md~", "birds/owl.md", "hibou-é.md", "owl.md.bak", ""] {
            #expect(!EditorFiles.isPlainMarkdownName(name.utf8), "\(name)")
        }
    }

    /// The same answers whether a name takes the plain name's way or the general one (a folder in it).
    @Test func leftoversAreFoundEitherWay() {
        for (name, leftover) in [
            ("owl.md", false), (".#owl.md", true), (".owl.md", true), ("owl.tmp-12-3.md", true), ("owl.en.md", false),
            ("owl.md~", true), ("#owl.md#", true), ("owl.md.swp", true),
        ] {
            #expect(EditorFiles.isUnderLeftover(name) == leftover, "\(name)")
            #expect(EditorFiles.isUnderLeftover("birds/" + name) == leftover, "birds/\(name)")
        }
        #expect(EditorFiles.isUnderLeftover(".drafts/owl.md"))
    }

    /// nano's emergency save and Kate's swap file when not hidden: a designer's output published
    /// `assets/css/site.css.HASH.save`.
    @Test func nanosAndKatesSavesAreLeftovers() {
        for name in ["site.css.save", "site.css.kate-swp", "assets/css/site.css.save"] {
            #expect(EditorFiles.isUnderLeftover(name), "\(name)")
        }
        for name in ["save.css", "savanna.md", "assets/css/site.css"] {
            #expect(!EditorFiles.isUnderLeftover(name), "\(name)")
        }
    }
}
