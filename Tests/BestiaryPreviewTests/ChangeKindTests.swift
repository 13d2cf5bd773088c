import Testing

@testable import BestiaryPreview

@Suite struct ChangeKindTests {
    @Test(arguments: [
        ("content/site.yml", ChangeKind.siteConfig),
        ("content/animals/red-fox.md", .record),
        ("content/animals/birds/robin.md", .record),
        ("content/animals/red-fox.de.md", .record),
        ("content/pages/about.md", .page),
        ("content/pages/about.en.md", .page),
        ("content/sounds/red-fox.ogg", .media),
        ("content/images/birds/robin.webp", .media),
        ("content/wikipedia/en/Red_fox.json", .wikipediaCache),
        ("content/ATTRIBUTION.md", .other),
        ("templates/layouts/animal.html", .template),
        ("templates/partials/card.html", .template),
        ("templates/markdown/animal.md", .template),
        ("templates/i18n/de.json", .uiStrings),
        ("templates/assets/css/site.css", .asset),
        ("templates/assets/js/quiz-page.js", .asset),
        ("templates/README.txt", .other),
        ("content", .everything),
        ("templates", .everything),
        ("content/animals", .everything),
    ])
    func classifiesByLocation(path: String, kind: ChangeKind) {
        #expect(ChangedPath.kind(of: path) == kind)
    }

    @Test(arguments: [
        ".red-fox.md.swp", ".red-fox.md.swx", "red-fox.md~", "#red-fox.md#", ".#red-fox.md", "4913",
        ".goutputstream-XYZ12", "red-fox.md.tmp", "red-fox.md.tmp-123-456", "red-fox.md___jb_tmp___",
        "red-fox.md___jb_old___", ".DS_Store", "red-fox.md.bak", "red-fox.ogg.crswap", ".red-fox.md.kate-swp",
        // Kate's (QSaveFile's) temporary file (found by a tester: it rebuilt once more, with a warning).
        "red-fox.md.aBcDe1", "site.yml.Qx7z9K", "de.json.a1b2c3",
        // Bestiary's own atomic write of a record, kept in its name's ending.
        "red-fox.tmp-12-3.md", "red..tmp-1.md",
    ])
    func editorFilesAreIgnored(name: String) {
        #expect(WatchFilter.isJunkName(name))
        #expect(WatchFilter().ignores("content/animals/" + name))
    }

    @Test(arguments: [
        "red-fox.md", "red-fox.de.md", "site.yml", "fox.ogg", "tmp.md", "backup-notes.md", "4914", "fox.nature.md", "owl.abcdef.ogg",
        "bird.photos.jpg", "tmp-notes.md", "red-fox.tmp.md", "red-fox.tmp_-1.md",
    ])
    func realFilesAreNotIgnored(name: String) {
        #expect(!WatchFilter.isJunkName(name))
        #expect(!WatchFilter().ignores("content/animals/" + name))
    }

    /// The preview never writes content/packs.lock: a change to it is someone else's and is built.
    @Test func watchesPacksLockAndIgnoresHiddenFolders() {
        let filter = WatchFilter()
        #expect(!filter.ignores("content/packs.lock"))
        #expect(WatchFilter(ignoredPaths: ["content/packs.lock"]).ignores("content/packs.lock"))
        #expect(filter.ignores("content/.git/index"))
        #expect(!filter.ignores("content/animals/red-fox.md"))
    }
}
