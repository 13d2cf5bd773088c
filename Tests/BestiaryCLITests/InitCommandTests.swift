@testable import BestiaryCLI
import BestiaryImport
import BestiaryTestSupport
import BestiaryTheme
import Foundation
import Testing

@Suite struct InitCommandTests {
    let run = SiteCommandRun.bestiary

    @Test func createsASiteRootThatChecksWithTheDefaultTheme() async throws {
        let dir = TemporaryDirectory("init")
        let site = dir.appending("quiz/birds")  // parents are created too
        let result = await run("init", site)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("created \(site)/content/site.yml"))
        #expect(result.stdout.contains("created \(site)/content/animals/red-fox.md"))
        #expect(result.stderr.contains("bestiary check"))
        // In English, said so, with how to start a site in other languages (a teacher put Arabic
        // first afterwards, and the English starter text was published as Arabic).
        #expect(result.stderr.contains("A new Bestiary site in English is ready (for a site in other languages, the default first:\n`bestiary init DIR --languages ar,en`)."), "\(result.stderr)")
        for path in ["content/site.yml", "content/animals/red-fox.md", "content/pages/about.md", ".gitignore"] {
            #expect(FileManager.default.fileExists(atPath: site + "/" + path), "\(path)")
        }
        #expect(try String(contentsOfFile: site + "/.gitignore", encoding: .utf8).contains("\noutput/\n"))
        // What a build leaves next to an output of any name (`--output public`) is ignored too.
        #expect(try String(contentsOfFile: site + "/.gitignore", encoding: .utf8).hasSuffix("\n.*.bestiary-*\n# A private key for signing packs (`bestiary keys generate > signing.key`): never commit it.\n*.key\n"))
        #expect(try String(contentsOfFile: site + "/content/site.yml", encoding: .utf8).contains("packs: {id: birds, keep_deltas: 10}"))
        for (path, data) in DefaultTheme.files {
            #expect(FileManager.default.contents(atPath: site + "/templates/" + path) == data, "\(path)")
        }
        #expect(result.stdout.contains("templates/ (\(DefaultTheme.files.count) file"))

        let check = await run("check", "--root", site)
        #expect(check.status == 0, "\(check.stderr)")
        // The warnings: one animal is too few for a quiz round, the starter record's article is
        // not fetched yet (as the build says), so it has no picture the quiz could ask by, and
        // the two placeholders are still there.
        #expect(check.stderr.contains("checked 1 animal and 1 page: 0 errors, 5 warnings"), "\(check.stderr)")
        #expect(check.stderr.contains(
            "content/animals/red-fox.md:2:1: warning: 'red-fox' has no sound and no picture, so the quiz never asks it (it is only offered as a wrong answer); add a sound: or an image:, or run `bestiary fetch` for its Wikipedia picture [validate]"),
            "\(check.stderr)")
        #expect(check.stderr.contains(
            "content/site.yml:6:1: warning: base_url 'https://example.org/birds/' is on example.org, a domain reserved for examples: the sitemap and the pages' links for sharing would lead there; set it to the address the site will be published under"),
            "\(check.stderr)")
        #expect(check.stderr.contains(
            "content/site.yml:14:3: warning: wikipedia.contact 'you@example.org' is on example.org, a domain reserved for examples: Wikimedia asks every client for a way to reach its user and may block one it cannot reach; put your e-mail address or web site"),
            "\(check.stderr)")
        #expect(check.stderr.contains("content/site.yml:16:23: warning: each quiz question offers 4 answers, but the site has 1 animal with different names"))
        #expect(check.stderr.contains("content/animals/red-fox.md:7:17: warning: wikipedia.en: 'Red fox' is not in the Wikipedia cache; run `bestiary fetch`"))
    }

    /// What the starter record and page say to the author is left out of the pages (a teacher's
    /// site published "Pages in `content/pages/` like this one appear in the site's menu", and a
    /// link to example.org); what stays is fit to publish.
    @Test func theStarterTextsSayNothingToTheAuthorOnThePages() async throws {
        let dir = TemporaryDirectory("init")
        let site = dir.appending("birds")
        #expect(await run("init", site).status == 0)
        #expect(await run("build", "--root", site).status == 0)
        let about = try String(contentsOfFile: site + "/output/about/index.html", encoding: .utf8)
        let fox = try String(contentsOfFile: site + "/output/animals/red-fox/index.html", encoding: .utf8)
        #expect(about.contains("This quiz was made with Bestiary from a folder of animal records."))
        #expect(fox.contains("A red fox sleeps curled up"))
        for (name, page) in [("about", about), ("red-fox", fox)] {
            for said in ["content/pages", "content/animals", "starter", "example.org/bestiary", "bestiary add", "comment"] {
                #expect(!page.contains(said), "\(name) says '\(said)'")
            }
        }
    }

    /// `bestiary check` replays the whole pack history: a version whose digest was edited by
    /// hand is named with its line, however old (a build checks only the versions it uses).
    @Test func checkReadsTheWholePackHistory() async throws {
        let dir = TemporaryDirectory("init")
        let site = dir.appending("birds")
        #expect(await run("init", site).status == 0)
        let first = await run("build", "--root", site)
        #expect(first.status == 0)
        // The work around the stages is named after them, and the total is the build's.
        let lines = first.stderr.split(separator: "\n")
        let upkeep = try #require(lines.firstIndex { $0.contains("around the stages: inputs walked ") }, "\(first.stderr)")
        #expect(lines[upkeep].contains(" ms, kept files read "))
        #expect(lines[upkeep - 1].hasPrefix("[6/6] write"))
        #expect(lines.last?.hasPrefix("built ") == true)
        let record = site + "/content/animals/red-fox.md"
        let text = try String(contentsOfFile: record, encoding: .utf8)
        try text.replacingOccurrences(of: "difficulty: 1", with: "difficulty: 2").writeReplacing(toFile: record)
        #expect(text.contains("difficulty: 1"))
        #expect(await run("build", "--root", site).status == 0)
        let lockPath = site + "/content/packs.lock"
        let lock = try String(contentsOfFile: lockPath, encoding: .utf8)
        let versionLines = lock.split(separator: "\n").filter { $0.hasPrefix("version ") }
        #expect(versionLines.count == 2)
        let oldest = try #require(versionLines.first)
        // A record line of the oldest version edited (an edit of its version line is caught by its
        // seal on every read; this one only by replaying its records, which check does for all).
        var allLines = lock.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let line = try #require(allLines.firstIndex { $0 == oldest }) + 1
        let recordLine = allLines[line].split(separator: " ")
        #expect(recordLine.count == 3 && recordLine[0] == "+")
        allLines[line] = "\(recordLine[0]) \(recordLine[1]) \(String(repeating: "0", count: 64))"
        try allLines.joined(separator: "\n").writeReplacing(toFile: lockPath)
        let check = await run("check", "--root", site)
        #expect(check.status == 1)
        #expect(check.stderr.contains("content/packs.lock:\(line):1: error: version 1's records do not match its digest"), "\(check.stderr)")
    }

    @Test func refusesAFolderThatIsNotEmptyUnlessForcedAndNeverOverwrites() async throws {
        let dir = TemporaryDirectory("init")
        try dir.write("my notes\n", to: "notes.txt")
        try dir.write("title: Mine\n", to: "content/site.yml")
        let refused = await run("init", dir.path)
        #expect(refused.status == 1)
        #expect(refused.stderr == "bestiary: error: '\(dir.path)' is not empty (content, notes.txt); choose a new folder, or pass --force to add the site's files next to what is there (no file is overwritten) [init]")
        #expect(!dir.exists("content/animals"))

        let forced = await run("init", "--force", dir.path)
        #expect(forced.status == 0)
        #expect(forced.stdout.contains("kept \(dir.path)/content/site.yml (already there)"))
        #expect(try dir.read("content/site.yml") == "title: Mine\n")
        #expect(dir.exists("content/animals/red-fox.md"))
        // Again: every file is there, and the theme's are counted, not listed one by one.
        let again = await run("init", "--force", dir.path)
        #expect(again.status == 0)
        let lines = again.stdout.split(separator: "\n")
        #expect(!again.stdout.contains("created"), "\(again.stdout)")
        #expect(lines.filter { $0.contains("/templates/") }.count == 1, "\(again.stdout)")
        #expect(lines.contains { $0.hasPrefix("kept \(dir.path)/templates/ (") && $0.hasSuffix(" files already there)") }, "\(again.stdout)")
    }

    /// The folder comes as DIR or as --root (as every command takes the site), not both; the
    /// next steps quote it when a shell would split it.
    @Test func theFolderComesOnceAndIsQuotedForTheShell() async throws {
        let dir = TemporaryDirectory("init")
        let byRoot = await run("init", "--root", dir.appending("by root"))
        #expect(byRoot.status == 0, "\(byRoot.stderr)")
        #expect(dir.exists("by root/content/site.yml"))
        #expect(byRoot.stderr.contains("  cd '\(dir.appending("by root"))'\n"), "\(byRoot.stderr)")
        let both = await run("init", dir.appending("a"), "--root", dir.appending("b"))
        #expect(both.status == 2)
        #expect(both.stderr.hasPrefix("bestiary: error: give the new site's folder once: DIR"), "\(both.stderr)")
        #expect(!dir.exists("a") && !dir.exists("b"))
        #expect(InitCommand.shellQuoted("sites/owls-2") == "sites/owls-2")
        #expect(InitCommand.shellQuoted("it's") == "'it'\\''s'")
    }

    @Test func aFolderWithOnlyHiddenFilesCountsAsEmpty() async throws {
        let dir = TemporaryDirectory("init")
        try dir.write("[core]\n", to: ".git/config")
        let result = await run("init", dir.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(dir.exists("content/site.yml"))
    }

    @Test func aFileIsNoPlaceForASite() async throws {
        let dir = TemporaryDirectory("init")
        try dir.write("x", to: "file")
        let result = await run("init", dir.appending("file"))
        #expect(result.status == 1)
        #expect(result.stderr.contains("is a file; give a folder for the new site"))
    }

    /// A Spanish teacher's site, with English and Arabic beside: `--languages es,en,ar` makes the
    /// title, the starter record and the about page in each, Spanish the default; the site checks
    /// without a word about interface texts (the theme speaks all three) and builds each
    /// language's pages in it, Arabic right to left.
    @Test func aSiteInTheLanguagesGiven() async throws {
        let dir = TemporaryDirectory("init")
        let site = dir.appending("clase")
        let result = await run("init", site, "--languages", "es,en,ar")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("\n  bestiary add ID --name es=NAME --sound FILE    add an animal"), "\(result.stderr)")
        #expect(result.stderr.contains("A new Bestiary site is ready. In content/site.yml"), "\(result.stderr)")
        #expect(result.stderr.contains("\n  bestiary fetch                                 get Wikipedia"), "the commands in one column: \(result.stderr)")
        #expect(!result.stderr.contains("note:"), "\(result.stderr)")
        let yml = try String(contentsOfFile: site + "/content/site.yml", encoding: .utf8)
        #expect(yml.contains("\nlanguages: [es, en, ar]\n") && yml.contains("\ntitle: {es: Quiz de animales, en: Animal quiz, ar: اختبار الحيوانات}\n"), "\(yml)")
        let fox = try String(contentsOfFile: site + "/content/animals/red-fox.md", encoding: .utf8)
        #expect(fox.contains("\nname: {es: Zorro rojo, en: Red fox, ar: ثعلب أحمر}\n"), "\(fox)")
        #expect(fox.contains("\nwikipedia: {es: Vulpes vulpes, en: Red fox, ar: ثعلب أحمر}\n"), "\(fox)")
        #expect(fox.hasSuffix("-->\nUn zorro rojo duerme hecho un ovillo, con la cola espesa sobre el hocico para no pasar frío.\n"), "\(fox)")
        #expect(try String(contentsOfFile: site + "/content/animals/red-fox.en.md", encoding: .utf8).hasPrefix("A red fox sleeps curled up"))
        #expect(try String(contentsOfFile: site + "/content/pages/about.ar.md", encoding: .utf8).hasPrefix("صُنع هذا الاختبار"))

        let check = await run("check", "--root", site)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(!check.stderr.contains("interface texts") && !check.stderr.contains("not yet in"), "\(check.stderr)")
        #expect(await run("build", "--root", site).status == 0)
        for (folder, lang, dir, heading, body) in [
            ("", "es", "ltr", "Zorro rojo", "Un zorro rojo duerme"), ("en/", "en", "ltr", "Red fox", "A red fox sleeps"),
            ("ar/", "ar", "rtl", "ثعلب أحمر", "ينام الثعلب الأحمر"),
        ] {
            let page = try String(contentsOfFile: site + "/output/\(folder)animals/red-fox/index.html", encoding: .utf8)
            #expect(page.contains("<html lang=\"\(lang)\" dir=\"\(dir)\"") && page.contains("<h1>\(heading)</h1>") && page.contains(body), "\(lang)")
            #expect(!page.contains("This is the starter record") && !page.contains("bestiary add"), "\(lang)")
        }
    }

    /// A language `init` has no starter texts in gets them in English, said in a note, and no
    /// Wikipedia title (an English one would name no article there); a code that is no language
    /// is refused before anything is written, with the code meant where it can be told.
    @Test func languagesWithoutStarterTextsAndCodesThatAreNone() async throws {
        let dir = TemporaryDirectory("init")
        let dutch = await run("init", dir.appending("nl"), "--languages", "nl,en")
        #expect(dutch.status == 0, "\(dutch.stderr)")
        #expect(dutch.stderr.contains("bestiary: note: init has no starter texts in 'nl', so the starter record and about page are in English there"), "\(dutch.stderr)")
        let fox = try String(contentsOfFile: dir.appending("nl/content/animals/red-fox.md"), encoding: .utf8)
        #expect(fox.contains("\nname: {nl: Red fox, en: Red fox}\n") && fox.contains("\nwikipedia: {en: Red fox}\n"), "\(fox)")
        #expect(await run("check", "--root", dir.appending("nl")).status == 0)

        for (given, said) in [
            ("sp,en", "--languages: 'sp' is no language code browsers, screen readers and Wikipedia know (ISO 639-1 has no 'sp') (did you mean 'es'?): pages in it are read aloud in the wrong voice, and its articles are looked up on a Wikipedia there is not"),
            ("Spanish", "--languages: 'Spanish' is not a language code like en, de or pt-BR (did you mean 'es'?)"),
            ("EN", "--languages: 'EN' is not a language code like en, de or pt-BR (did you mean 'en'?)"),
            ("es_MX", "--languages: 'es_MX' is not a language code like en, de or pt-BR (did you mean 'es-MX'?)"),
            ("en-UK", "--languages: 'en-UK': UK is no region code; the United Kingdom's is GB (en-GB)"),
            ("eng", "--languages: 'eng' is written 'en' in the codes browsers, screen readers and Wikipedia use; write 'en'"),
            ("es,en,es", "--languages names 'es' twice"),
            ("es,,en", "--languages has an empty entry; give codes separated by commas: --languages es,en"),
        ] {
            let refused = await run("init", dir.appending("refused"), "--languages", given)
            #expect(refused.status == 2 && refused.stderr.trimmingCharacters(in: .newlines) == "bestiary: error: \(said) [init]", "\(given): \(refused.stderr)")
            #expect(!dir.exists("refused"), "\(given)")
        }
        let update = await run("init", "--update-theme", "--root", dir.appending("nl"), "--languages", "de")
        #expect(update.status == 2 && update.stderr.contains("--languages is for a new site"), "\(update.stderr)")
        // A region's code: the base language's texts, the commands still in one column.
        let mexico = await run("init", dir.appending("mx"), "--languages", "es-MX")
        #expect(mexico.status == 0, "\(mexico.stderr)")
        #expect(mexico.stderr.contains("\n  bestiary add ID --name es-MX=NAME --sound FILE   add an animal")
            && mexico.stderr.contains("\n  bestiary fetch                                   get Wikipedia"), "\(mexico.stderr)")
        #expect(try String(contentsOfFile: dir.appending("mx/content/animals/red-fox.md"), encoding: .utf8).contains("\nname: {es-MX: Zorro rojo}\n"))
    }

    /// `--force --languages` into a site that has its own site.yml is refused, since its languages
    /// stay (a `red-fox.en.md` beside a kept record failed `check`); a translation is never
    /// written beside a record or page that was there.
    @Test func languagesAreForANewSiteOnly() async throws {
        let dir = TemporaryDirectory("init")
        let site = dir.appending("kept")
        #expect(await run("init", site).status == 0)
        let refused = await run("init", site, "--force", "--languages", "es,en")
        #expect(refused.status == 1 && refused.stderr.contains("--languages is for a new site, and '\(site)' has a content/site.yml, whose languages stay as they are"), "\(refused.stderr)")
        #expect(!dir.exists("kept/content/animals/red-fox.en.md") && !dir.exists("kept/content/animals/red-fox.es.md"))
        // The records kept, site.yml gone (a site being remade): no translation beside them.
        try FileManager.default.removeItem(atPath: site + "/content/site.yml")
        let remade = await run("init", site, "--force", "--languages", "en,de")
        #expect(remade.status == 0, "\(remade.stderr)")
        #expect(!dir.exists("kept/content/animals/red-fox.de.md") && !dir.exists("kept/content/pages/about.de.md"))
        #expect(await run("check", "--root", site).status == 0)
    }

    /// Every language the default theme speaks has starter texts, so that `init --languages` in
    /// it makes a site wholly in that language.
    @Test func everyLanguageOfTheThemeHasStarterTexts() {
        let themeLanguages = DefaultTheme.files.keys.filter { $0.hasPrefix("i18n/") }.map { String($0.dropFirst(5).dropLast(5)) }
        #expect(themeLanguages.count >= 6)
        #expect(Set(themeLanguages) == Set(SiteScaffold.StarterTexts.known.keys))
    }
}
