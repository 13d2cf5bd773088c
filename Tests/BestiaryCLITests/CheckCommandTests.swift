import BestiaryCLI
import BestiaryTestSupport
import Foundation
import Testing

/// `bestiary check` finds what would stop a build, the theme's mistakes included.
@Suite struct CheckCommandTests {
    let run = SiteCommandRun.bestiary

    @Test func theThemesMistakesAreFoundBeforeABuild() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        let fine = await run("check", "--root", site)
        #expect(fine.status == 0, "\(fine.stderr)")
        // Every part of the theme at once: a template, its texts, an asset it names.
        try "<li>{{>partials.card}}</li>\n".writeReplacing(toFile: site + "/templates/partials/card.html")
        try "{\"nav.quiz\": 3}\n".writeReplacing(toFile: site + "/templates/i18n/en.json")
        let base = site + "/templates/layouts/base.html"
        let text = try String(contentsOfFile: base, encoding: .utf8)
        try text.replacingOccurrences(of: "css/site.css", with: "css/gone.css").writeReplacing(toFile: base)
        let result = await run("check", "--root", site)
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("templates/partials/card.html:1:5: error: template 'partials.card' includes itself") }, "\(lines)")
        #expect(lines.contains("templates/i18n/en.json:1:14: error: string 'nav.quiz' must be text [render]"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("templates/layouts/base.html:") && $0.contains("error: unknown asset 'css/gone.css'") }, "\(lines)")
        #expect(lines.last == "checked 1 animal and 1 page: 3 errors, 5 warnings", "\(lines)")
        // The build refuses the same theme, and says so.
        let build = await run("build", "--root", site)
        #expect(build.status == 1)
        #expect(build.stderr.contains("includes itself"))
    }

    /// Thirty records named alike make 29 warnings alike: as text, the first 10 and one line that
    /// counts the rest, so that another warning is not lost among them (3,688 of them buried the
    /// two about a catalogue's site.yml); every one with `--all-warnings` and in JSON.
    @Test func warningsAlikeAreCountedAfterTheFirstTen() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        for i in 1...30 {
            try "---\nname: {en: Twin}\ngroup: mammal\n---\n".writeReplacing(toFile: site + "/content/animals/twin-\(i).md")
        }
        let text = await run("check", "--root", site)
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stderr.split(separator: "\n").map(String.init)
        let alike = lines.filter { $0.contains(": warning: name 'Twin' is also ") }
        #expect(alike.count == 10, "\(lines)")
        #expect(lines.contains(
            "note: 19 more warnings like \"name 'Twin' is also twin-1's: …\" are not shown (10 of them are above); --all-warnings prints every one [validate]"),
            "\(lines)")
        #expect(lines.contains { $0.contains("red-fox.md") && $0.contains("not in the Wikipedia cache") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("content/site.yml:6:1: warning: base_url") }, "\(lines)")
        // And each of the 31 animals has no sound or picture: the 30 twins' cut the same way, the
        // red fox's (which names `bestiary fetch`, for its Wikipedia article) said apart.
        #expect(lines.filter { $0.contains("has no sound and no picture, so the quiz never asks it") && $0.contains(": warning: ") }.count == 11, "\(lines)")
        #expect(lines.last == "checked 31 animals and 1 page: 0 errors, 64 warnings", "\(lines)")

        let every = await run("check", "--root", site, "--all-warnings")
        #expect(every.stderr.split(separator: "\n").filter { $0.contains(": warning: name 'Twin' is also ") }.count == 29)
        #expect(!every.stderr.contains("not shown"))
        let json = await run("check", "--root", site, "--diagnostics", "json")
        #expect(json.stdout.split(separator: "\n").filter { $0.contains("name 'Twin' is also ") }.count == 29)
    }

    /// A translation's error is told with the same file's warnings (a misspelt key, a key given
    /// twice), not one round after: a translator fixed the error and met the rest only then.
    @Test func aTranslationsErrorComesWithItsWarnings() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        let yml = site + "/content/site.yml"
        let text = try String(contentsOfFile: yml, encoding: .utf8)
        try text.replacingOccurrences(of: "languages: [en]", with: "languages: [en, fr]").writeReplacing(toFile: yml)
        try "{\n  \"nav.quizz\": \"Quiz\",\n  \"nav.home\": \"Accueil\",\n  \"nav.home\": \"Accueil\",\n  \"animal.picture\": 5\n}\n"
            .writeReplacing(toFile: site + "/templates/i18n/fr.json")
        for command in ["check", "build"] {
            let result = await run(command, "--root", site)
            #expect(result.status == 1)
            let lines = result.stderr.split(separator: "\n").map(String.init)
            #expect(lines.contains("templates/i18n/fr.json:5:21: error: string 'animal.picture' must be text [render]"), "\(lines)")
            #expect(lines.contains { $0.hasPrefix("templates/i18n/fr.json:2:3: warning: string 'nav.quizz' is not one of the theme's English texts") }, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("templates/i18n/fr.json:4:3: warning: string 'nav.home' is given twice") }, "\(lines)")
        }
    }

    /// An error in site.yml comes with the records' errors, and the summary does not say "checked
    /// 0 animals" of a check that read them (found by a teacher, who met the records' errors
    /// only after mending a colour).
    @Test func aSiteYMLErrorComesWithTheRecordsErrors() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        let yml = site + "/content/site.yml"
        try (String(contentsOfFile: yml, encoding: .utf8) + "app:\n  theme_color: #123456\n").writeReplacing(toFile: yml)
        try "---\nname: {en: Fox}\ndifficulty: 9\n---\n".writeReplacing(toFile: site + "/content/animals/fox.md")
        for command in ["check", "build"] {
            let result = await run(command, "--root", site)
            #expect(result.status == 1)
            #expect(result.stderr.contains("error: app.theme_color is empty"), "\(result.stderr)")
            #expect(result.stderr.contains("content/animals/fox.md:3:13: error: difficulty must be from 1 to 3, not 9"), "\(result.stderr)")
        }
        // `add` needs site.yml alone: it names its error, not every record's.
        let add = await run("add", "--root", site, "owl", "--name", "en=Owl")
        #expect(add.status == 1 && add.stderr.contains("app.theme_color") && !add.stderr.contains("fox.md"), "\(add.stderr)")
        let check = await run("check", "--root", site)
        #expect(check.stderr.hasSuffix("checked content/, but site.yml cannot be used until its errors are mended: 2 errors, 0 warnings"), "\(check.stderr)")
    }

    /// A template that does not compile comes with the theme's other warnings (a stray file, a
    /// texts file's misspelt key): they were said only once it compiled, a round later.
    @Test func aTemplateErrorComesWithTheThemesOtherWarnings() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        let layout = site + "/templates/layouts/animal.html"
        try (String(contentsOfFile: layout, encoding: .utf8) + "{{#broken}}\n").writeReplacing(toFile: layout)
        try "x".writeReplacing(toFile: site + "/templates/layouts/extra.htm")
        let french = site + "/templates/i18n/fr.json"
        try String(contentsOfFile: french, encoding: .utf8).replacingOccurrences(of: "\"nav.quiz\":", with: "\"nav.quizz\":").writeReplacing(toFile: french)
        let yml = site + "/content/site.yml"
        try String(contentsOfFile: yml, encoding: .utf8).replacingOccurrences(of: "languages: [en]", with: "languages: [en, fr]").writeReplacing(toFile: yml)
        for command in ["check", "build"] {
            let result = await run(command, "--root", site)
            #expect(result.status == 1)
            let lines = result.stderr.split(separator: "\n").map(String.init)
            #expect(lines.contains { $0.hasPrefix("templates/layouts/animal.html:") && $0.contains(": error: template error: a section {{#broken}} is never closed") }, "\(command): \(lines)")
            #expect(lines.contains { $0.hasPrefix("templates/layouts/extra.htm:1:1: warning: templates/layouts/extra.htm is not where a theme's files go") }, "\(command): \(lines)")
            #expect(lines.contains { $0.contains("templates/i18n/fr.json:") && $0.contains("warning: string 'nav.quizz' is not one of the theme's English texts") }, "\(command): \(lines)")
        }
    }

    /// A renamed `packs.id` stops the build at the pack history; `check` finds it first.
    /// On a site in two languages, the records' groups the theme has no name for and the tags
    /// site.yml has no label for show as written in every language: `check` names them (a
    /// teacher's Arabic pages showed "Farm" and `forest`, and nothing said so). Not on a site in one.
    @Test func groupsAndTagsShownAsWrittenInEveryLanguageAreNamed() async throws {
        for languages in ["[en, de]", "[en]"] {
            let dir = try await SiteCommandRun.newSite(languages: languages)
            let site = dir.appending("site")
            try "---\nname: {en: Goat}\ngroup: farm\n---\n".writeReplacing(toFile: site + "/content/animals/goat.md")
            let result = await run("check", "--root", site)
            let notes = result.stderr.split(separator: "\n").filter { $0.contains("as written") }
            guard languages == "[en, de]" else {
                #expect(notes.isEmpty, "\(notes)")
                continue
            }
            #expect(notes.contains { $0.hasPrefix("content/site.yml:1:1: note: 2 tags with no label in site.yml's tags, which every language's pages show as written: europe, forest; label them there (tags: {europe: {en: …, de: …}})") }, "\(result.stderr)")
            for lang in ["en", "de"] {
                #expect(notes.contains { $0.contains("note: groups with no name in '\(lang)', which its pages show as written: farm ('Farm'); name them in templates/i18n/\(lang).json (\"quiz.group.farm\": \"…\")") }, "\(result.stderr)")
            }
            #expect(!notes.contains { $0.contains("mammal") }, "the theme names mammals")
        }
    }

    @Test func aRenamedPackIsFoundBeforeABuild() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        let built = await run("build", "--root", site)
        #expect(built.status == 0, "\(built.stderr)")
        let yml = site + "/content/site.yml"
        let text = try String(contentsOfFile: yml, encoding: .utf8)
        #expect(text.contains("packs: {id: site,"))
        try text.replacingOccurrences(of: "packs: {id: site,", with: "packs: {id: my-zoo,").writeReplacing(toFile: yml)
        let result = await run("check", "--root", site)
        #expect(result.status == 1)
        #expect(result.stderr.contains("content/packs.lock:1:1: error: the pack history is for pack 'site' but site.yml says packs.id 'my-zoo'"), "\(result.stderr)")
        let build = await run("build", "--root", site)
        #expect(build.status == 1)
        #expect(build.stderr.contains("the pack history is for pack 'site'"))
    }

    /// A template name no page's values hold renders as nothing: `check` and `build` warn at its tag.
    @Test func aMisspeltTemplateNameIsWarnedAbout() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        let card = site + "/templates/partials/card.html"
        let text = try String(contentsOfFile: card, encoding: .utf8)
        try text.replacingOccurrences(of: "{{name}}", with: "{{nmae}}").writeReplacing(toFile: card)
        for command in ["check", "build"] {
            let result = await run(command, "--root", site)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains(
                "templates/partials/card.html:1:517: warning: 'nmae' (in '{{nmae}}') is not a value Bestiary gives templates, so it renders as nothing; did you mean 'name'?"),
                "\(command): \(result.stderr)")
        }
    }

    /// A link in templates/ to a file outside the site is named by `check`, with what it leads to,
    /// for whoever reviews the change (`ln -s /etc/passwd templates/assets/notes.txt` was
    /// published without a word: found by a security review); a link inside the site is not.
    @Test func aThemeLinkLeadingOutOfTheSiteIsNamed() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        try dir.write("shared\n", to: "elsewhere/notes.txt")
        try FileManager.default.createDirectory(atPath: site + "/templates/assets", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: site + "/templates/assets/notes.txt", withDestinationPath: dir.appending("elsewhere/notes.txt"))
        try "inside\n".writeReplacing(toFile: site + "/inside.txt")
        try FileManager.default.createSymbolicLink(atPath: site + "/templates/assets/inside.txt", withDestinationPath: "../../inside.txt")
        let result = await run("check", "--root", site)
        #expect(result.status == 0, "\(result.stderr)")
        let real = try FileManager.default.destinationOfSymbolicLink(atPath: site + "/templates/assets/notes.txt")
        #expect(result.stderr.contains(
            "templates/assets/notes.txt:1:1: note: symbolic link to \((real as NSString).resolvingSymlinksInPath), outside the site: the build publishes that file as the theme's own; make sure it belongs in the site"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("templates/assets/inside.txt"), "\(result.stderr)")
    }

    /// A build that fails in load shows each warning once (every one was printed twice: the
    /// stage's error carried them beside the build's own list; found by an author).
    @Test func aFailedBuildShowsEachWarningOnce() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        try "---\nname: {en: Owl}\n---\n![An owl](images/owl.jpg)\n".writeReplacing(toFile: site + "/content/animals/owl.md")
        try "---\nname: {en: Cow}\ndifficulty: 9\n---\n".writeReplacing(toFile: site + "/content/animals/cow.md")
        let result = await run("build", "--root", site)
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count { $0.hasPrefix("content/animals/owl.md:4:1: warning: image 'images/owl.jpg'") } == 1, "\(result.stderr)")
        #expect(lines.count { $0.hasPrefix("content/animals/cow.md:3:13: error:") } == 1, "\(result.stderr)")
        #expect(result.stderr.hasSuffix("build failed: 1 error"), "\(result.stderr)")
        // JSON puts the problems on standard output, each once; the summaries stay on standard
        // error, as the README says (they were left out).
        let json = await run("build", "--root", site, "--diagnostics", "json")
        #expect(json.status == 1)
        let objects = json.stdout.split(separator: "\n")
        #expect(objects.count == 2 && objects.allSatisfy { $0.hasPrefix("{\"severity\":") }, "\(json.stdout)")
        #expect(json.stderr.hasSuffix("build failed: 1 error"), "\(json.stderr)")
        let check = await run("check", "--root", site, "--diagnostics", "json")
        #expect(check.stderr.split(separator: "\n").last?.hasPrefix("checked 3 animals and 1 page: 1 error, ") == true, "\(check.stderr)")
    }

    /// A mistyped --root: the message says what it is, and no output is said to be "unchanged"
    /// where there is none (nothing is made there).
    /// An empty --output (an unset shell variable) is a usage error, not the current folder.
    @Test func anEmptyOutputIsAUsageError() async throws {
        for command in ["build", "serve"] {
            let result = await run(command, "--output", "")
            #expect(result.status == 2, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("--output must name a folder"), "\(command): \(result.stderr)")
        }
    }

    /// `--port -1` is a port out of range, said as `--port 99999` is (it said "Missing value").
    @Test func aNegativePortIsOutOfRangeNotMissing() async throws {
        let result = await run("serve", "--port", "-1")
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("--port must be from 0 to 65535"), "\(result.stderr)")
    }

    @Test func aRootThatIsNotASiteFailsWithoutMakingAnything() async throws {
        let dir = TemporaryDirectory("nosite")
        let result = await run("build", "--root", dir.appending("a/b"))
        #expect(result.status == 1)
        #expect(result.stderr.contains("is not a site root (no content/site.yml)"), "\(result.stderr)")
        // At no file: `content/site.yml:1:1:` named the working folder's (a CI annotation there).
        #expect(result.stderr.hasPrefix("bestiary: error: '\(dir.appending("a/b"))' is not a site root"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("build failed: 1 error"), "\(result.stderr)")
        // Not "checked content/": there is none.
        let check = await run("check", "--root", dir.appending("a/b"))
        #expect(check.status == 1 && check.stderr.hasSuffix("could not check the records without a usable content/site.yml: 1 error, 0 warnings"), "\(check.stderr)")
        #expect(!dir.exists("a"))
    }

    /// Run from inside a site (`content/animals/`), the message says where its root is (found by
    /// a new user: it only said "not a site root").
    @Test func aRootInsideASiteNamesTheSiteRoot() async throws {
        let dir = TemporaryDirectory("insite")
        try dir.write("title: T\nbase_url: https://e.org/\nlanguages: [en]\n", to: "site/content/site.yml")
        try FileManager.default.createDirectory(atPath: dir.appending("site/content/animals"), withIntermediateDirectories: true)
        let result = await run("check", "--root", dir.appending("site/content/animals"))
        #expect(result.status == 1)
        #expect(result.stderr.contains(
            "'\(dir.appending("site/content/animals"))' is not a site root (no content/site.yml), but \(dir.appending("site")) is: run there, or pass --root \(dir.appending("site"))"),
            "\(result.stderr)")
    }

    /// A --base-url that is no URL is a usage error (exit 2, as the help says), before the build
    /// starts (it failed in the load stage with exit 1: found by a new user).
    @Test func aBaseURLThatIsNoURLIsAUsageError() async throws {
        let dir = try await SiteCommandRun.newSite()
        let result = await run("build", "--root", dir.appending("site"), "--base-url", "notaurl")
        #expect(result.status == 2)
        #expect(result.stderr.contains("--base-url 'notaurl' must be an absolute URL starting with https:// (or http://)"), "\(result.stderr)")
        #expect(!dir.exists("site/output"))
        // The same check as the build's: no query or fragment (found by review).
        let query = await run("build", "--root", dir.appending("site"), "--base-url", "https://example.org/?a")
        #expect(query.status == 2)
        #expect(query.stderr.contains("has a query (?…) or a fragment (#…)"), "\(query.stderr)")
    }

    /// A sound cut short by a copy that stopped half way is named, with what to do, by `check` and
    /// by every build; it is a warning (the build still takes it), so both exit 0.
    @Test func aSoundCutShortIsWarnedAbout() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        let ogg = try Data(contentsOf: URL(fileURLWithPath: Fixtures.repositoryRoot + "/Tests/Fixtures/sites/tuxpaint/content/sounds/badger.ogg"))
        try FileManager.default.createDirectory(atPath: site + "/content/sounds", withIntermediateDirectories: true)
        try ogg.prefix(ogg.count / 2).write(to: URL(fileURLWithPath: site + "/content/sounds/red-fox.ogg"))
        let record = site + "/content/animals/red-fox.md"
        let text = try String(contentsOfFile: record, encoding: .utf8)
        try text.replacingOccurrences(of: "group: mammal\n", with: "group: mammal\nsound: {file: sounds/red-fox.ogg}\n")
            .writeReplacing(toFile: record)
        let result = await run("check", "--root", site)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains(
            "content/sounds/red-fox.ogg:1:1: warning: sound 'sounds/red-fox.ogg': the file is cut short (its last Ogg page needs"), "\(result.stderr)")
        // And `build`, which is all a CI may run (a deploy trial's cut-short copy passed it without a
        // word); again in a rebuild after another edit, which keeps nothing of a file cut short; and
        // no more once the whole file is there.
        let said = "content/sounds/red-fox.ogg:1:1: warning: sound 'sounds/red-fox.ogg': the file is cut short (its last Ogg page needs"
        // Settled (a file written in the last 2 s is never kept), as a checkout's files are.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: site + "/content/sounds/red-fox.ogg")
        for round in 0..<2 {
            if round == 1 { try (try String(contentsOfFile: record, encoding: .utf8) + "\nEdited.\n").writeReplacing(toFile: record) }
            let build = await run("build", "--root", site)
            #expect(build.status == 0, "\(build.stderr)")
            #expect(build.stderr.contains(said) && build.stderr.contains("[media]"), "\(build.stderr)")
        }
        try ogg.write(to: URL(fileURLWithPath: site + "/content/sounds/red-fox.ogg"))
        let mended = await run("build", "--root", site)
        #expect(mended.status == 0 && !mended.stderr.contains("cut short"), "\(mended.stderr)")
    }

    /// A media file others may not read (`chmod 600`, a umask of 077) is published by a hard link
    /// as it is, and a web server running as another user cannot serve it (found by a
    /// reproducible-build audit): `check` names it, with the fix.
    @Test func aSoundOnlyItsOwnerMayReadIsWarnedAbout() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        try FileManager.default.createDirectory(atPath: site + "/content/sounds", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Fixtures.repositoryRoot + "/Tests/Fixtures/sites/tuxpaint/content/sounds/badger.ogg", toPath: site + "/content/sounds/red-fox.ogg")
        let record = site + "/content/animals/red-fox.md"
        let text = try String(contentsOfFile: record, encoding: .utf8)
        try text.replacingOccurrences(of: "group: mammal\n", with: "group: mammal\nsound: {file: sounds/red-fox.ogg}\n")
            .writeReplacing(toFile: record)
        chmod(site + "/content/sounds/red-fox.ogg", 0o644)
        #expect(!(await run("check", "--root", site)).stderr.contains("others may not read it"))
        chmod(site + "/content/sounds/red-fox.ogg", 0o600)
        let result = await run("check", "--root", site)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains(
            "content/sounds/red-fox.ogg:1:1: warning: sound 'sounds/red-fox.ogg': others may not read it (mode 600), and the output links the file as it is, so a web server running as another user cannot serve it; make it readable: chmod a+r content/sounds/red-fox.ogg [validate]"),
            "\(result.stderr)")
        // And `build`, which is all a CI may run (a checkout under umask 077 published no picture,
        // and the pipeline was green: a deploy trial's).
        let build = await run("build", "--root", site)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stderr.contains("content/sounds/red-fox.ogg:1:1: warning: sound 'sounds/red-fox.ogg': others may not read it (mode 600)"), "\(build.stderr)")
    }

    /// Links in texts that lead nowhere are named (found by a content author: an in-page anchor,
    /// a record's file name, an address from the site's root, a sound's path); links to another
    /// animal's page, a page of the site, a heading and the web are not.
    @Test func aLinkInATextThatLeadsNowhereIsNamed() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        let record = site + "/content/animals/red-fox.md"
        let text = try String(contentsOfFile: record, encoding: .utf8)
        try (text + "\n## Habitat\n\nSee [up](#habitat), [gone](#food), [me](../red-fox/), [file](../red-fox.md), [root](/animals/red-fox/), [web](https://example.org/), [offline](../../offline/).\n")
            .writeReplacing(toFile: record)
        let result = await run("check", "--root", site)
        #expect(result.status == 0, "\(result.stderr)")
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).count + 3
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("the link") }.map(String.init)
        #expect(warnings == [
            "content/animals/red-fox.md:\(line):21: warning: the link '#food' leads to no heading of this text (its headings: #habitat); a heading's name is its text in lower case, with dashes for spaces [validate]",
            "content/animals/red-fox.md:\(line):55: warning: the link '../red-fox.md' leads to no page of the site (a record's file name, not its page): from this page, another animal's is ../ID/ and a page of the site ../../SLUG/ [validate]",
            "content/animals/red-fox.md:\(line):78: warning: the link '/animals/red-fox/' starts at the site's root, so it breaks where the site is served under a path (base_url https://example.org/bestiary/, a deploy preview); write it relative to the page, as ../ID/ for another animal, ../../SLUG/ for a page [validate]",
        ], "\(result.stderr)")
    }

    /// A Hugo shortcode in a page's text is published as written: `check` names it, at it.
    @Test func aHugoShortcodeInATextIsNamed() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        let page = site + "/content/pages/about.md"
        let text = try String(contentsOfFile: page, encoding: .utf8)
        try (text + "\nOur hall: {{< figure src=\"images/hall.jpg\" title=\"The hall\" >}}\n").writeReplacing(toFile: page)
        let result = await run("check", "--root", site)
        #expect(result.status == 0, "\(result.stderr)")
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).count + 1
        #expect(result.stderr.contains(
            "content/pages/about.md:\(line):11: warning: '{{< figure src=\"images/hall.jpg\" title=…' is a Hugo shortcode, which Bestiary's Markdown does not have: the page shows it as text; write Markdown instead (a picture: ![what it shows](address), a link: [text](address)) [validate]"),
            "\(result.stderr)")
    }

    /// A Hugo site's folders at the site root are read by no build: `check` says so, and where
    /// such files go instead.
    @Test func hugoFoldersAtTheSiteRootAreNamed() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        try FileManager.default.createDirectory(atPath: site + "/static", withIntermediateDirectories: true)
        try "User-agent: *\n".writeReplacing(toFile: site + "/static/robots.txt")
        let result = await run("check", "--root", site)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains(
            "static:1:1: warning: static at the site root is not read by Bestiary (a Hugo habit?): files to publish go under templates/assets/ (with a content hash in their names), pictures and sounds under content/; docs/theming.md, \"Coming from Hugo\" [validate]"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("layouts at the site root"))
    }

    /// A picture of 12,000 × 12,000 pixels (a scan, a panorama) is named by `check` and by each
    /// build: phones show it slowly or not at all. One of 4,096 × 4,096 is not. (A generated PNG:
    /// its header's size, and chunks that hold together to its end.)
    @Test func aHugePictureIsWarnedAboutByCheckAndBuild() async throws {
        func png(_ width: UInt32, _ height: UInt32) -> Data {
            func be(_ n: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: n >> (24 - 8 * $0)) } }
            var d = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            d.append(contentsOf: [0, 0, 0, 13] + Array("IHDR".utf8) + be(width) + be(height) + [1, 0, 0, 0, 0] + [0, 0, 0, 0])
            d.append(contentsOf: [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82])
            return d
        }
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        try FileManager.default.createDirectory(atPath: site + "/content/pictures", withIntermediateDirectories: true)
        try png(12_000, 12_000).write(to: URL(fileURLWithPath: site + "/content/pictures/red-fox.png"))
        try png(4096, 4096).write(to: URL(fileURLWithPath: site + "/content/pictures/fine.png"))
        let record = site + "/content/animals/red-fox.md"
        let text = try String(contentsOfFile: record, encoding: .utf8)
        try text.replacingOccurrences(of: "group: mammal\n", with: "group: mammal\nimage: {file: pictures/red-fox.png}\n")
            .writeReplacing(toFile: record)
        try "---\nname: {en: Fine}\nimage: {file: pictures/fine.png}\n---\n".writeReplacing(toFile: site + "/content/animals/fine.md")
        let warning = "content/pictures/red-fox.png:1:1: warning: picture 'pictures/red-fox.png': it is 12000 × 12000 pixels (144 megapixels): phones show a picture over about 16 megapixels slowly or not at all, and the quiz never shows one wider than about 2,000 pixels; scale it down to about 2,000 pixels on its longer side"
        let check = await run("check", "--root", site)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stderr.contains(warning + " [validate]"), "\(check.stderr)")
        #expect(!check.stderr.contains("fine.png"), "\(check.stderr)")
        let build = await run("build", "--root", site)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stderr.contains(warning + " [media]"), "\(build.stderr)")
        #expect(!build.stderr.contains("fine.png"), "\(build.stderr)")
    }
}
