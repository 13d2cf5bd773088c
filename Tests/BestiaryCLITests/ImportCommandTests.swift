import BestiaryCLI
import BestiaryTestSupport
import Foundation
import Testing

@Suite struct ImportCommandTests {
    let run = SiteCommandRun.bestiary

    @Test func printsEachFileAndTheSummaryAndIsSafeToRepeat() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        let file = Fixtures.path("import/dogceo/breeds.json")
        let first = await run("import", "--root", site, file, "--format", "dogceo")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.split(separator: "\n").count == 15)
        #expect(first.stdout.hasPrefix("created content/animals/affenpinscher.md\ncreated content/animals/australian-kelpie.md\n"))
        #expect(first.stderr == "created 15, updated 0, unchanged 0")

        let before = try SiteFilesSnapshot(site)
        let second = await run("import", "--root", site, file, "--format", "dogceo")
        #expect(second.status == 0)
        #expect(second.stdout == "")
        #expect(second.stderr == "created 0, updated 0, unchanged 15")
        #expect(try SiteFilesSnapshot(site) == before)
    }

    @Test func dryRunSaysWhatWouldChangeAndWritesNothing() async throws {
        let dir = try await SiteCommandRun.newSite(languages: "[de, en]")
        let site = dir.appending("site")
        let before = try SiteFilesSnapshot(site)
        let result = await run("import", "--root", site, Fixtures.path("import/wildsound/animals.json"), "--format", "wildsound", "--dry-run")
        #expect(result.status == 0)
        #expect(result.stdout.contains("would copy \(Fixtures.path("import/wildsound/sounds/Fuchs.mp3")) to content/sounds/fuchs.mp3"))
        #expect(result.stdout.contains("would create content/animals/fuchs.md"))
        #expect(result.stderr.hasSuffix("created 4, updated 0, unchanged 0 (dry run: nothing was written)"))
        #expect(try SiteFilesSnapshot(site) == before)
    }

    @Test func malformedInputExitsOneNamingThePlaceAndWritesNothing() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        try dir.write("id,name.en\nfox,\"Fox\nowl,Owl\n", to: "broken.csv")
        let before = try SiteFilesSnapshot(site)
        let result = await run("import", "--root", site, dir.appending("broken.csv"), "--format", "csv")
        #expect(result.status == 1)
        #expect(result.stderr == """
            \(dir.appending("broken.csv")):2:5: error: malformed CSV: the quoted field that starts here is never closed with '"' [import]
            import failed with 1 error; nothing was written
            """)
        #expect(try SiteFilesSnapshot(site) == before)
    }

    @Test func diagnosticsCanBeJSON() async throws {
        let dir = try await SiteCommandRun.newSite()
        try dir.write("[{\"id\": 1}]", to: "species.json")
        let result = await run("import", "--root", dir.appending("site"), "--diagnostics", "json", dir.appending("species.json"), "--format", "nuthatch")
        #expect(result.status == 1)
        #expect(result.stdout == "{\"severity\":\"error\",\"file\":\"\(dir.appending("species.json"))\",\"line\":1,\"column\":2,\"message\":\"species 1 (id 1) has no 'common_name'\",\"stage\":\"import\",\"code\":null}")
        // A successful import's lines (each file it wrote) go to standard error then: standard
        // output is JSON alone, as `jq` reads it.
        let done = await run("import", "--root", dir.appending("site"), "--diagnostics", "json", Fixtures.path("import/dogceo/breeds.json"), "--format", "dogceo")
        #expect(done.status == 0)
        #expect(done.stdout.split(separator: "\n").allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil }, "\(done.stdout)")
        #expect(done.stderr.contains("created content/animals/affenpinscher.md"), "\(done.stderr)")
    }

    /// A mistyped --media found no media and imported the records without them (found by a user).
    @Test func aMediaFolderThatIsNotThereIsAUsageError() async throws {
        let dir = try await SiteCommandRun.newSite()
        try dir.write("id,name.en\nowl,Owl\n", to: "owls.csv")
        let result = await run("import", "--root", dir.appending("site"), dir.appending("owls.csv"), "--format", "csv", "--media", dir.appending("nowhere"))
        #expect(result.status == 2)
        #expect(result.stderr.contains("--media \(dir.appending("nowhere")): no such folder"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appending("site/content/animals/owl.md")))
    }

    @Test func anUnknownFormatIsAUsageError() async throws {
        let result = await run("import", "x.json", "--format", "excel")
        #expect(result.status == 2)
        #expect(result.stderr.contains("'excel'"))
    }

    @Test func helpExplainsTheFormats() async throws {
        let result = await run("import", "--help")
        #expect(result.status == 0)
        for word in ["nuthatch", "dogceo", "wildsound", "csv", "--dry-run", "--media", "--language", "name.en"] {
            #expect(result.stdout.contains(word), "\(word)")
        }
    }

    /// The whole path of a new user: init, each format, check.
    @Test func initThenEveryFormatThenCheck() async throws {
        let dir = try await SiteCommandRun.newSite(languages: "[en, de]")
        let site = dir.appending("site")
        for (file, format) in [
            ("nuthatch/species.json", "nuthatch"), ("dogceo/breeds.json", "dogceo"), ("wildsound/animals.json", "wildsound"),
            ("csv/animals.csv", "csv"),
        ] {
            let result = await run("import", "--root", site, Fixtures.path("import/" + file), "--format", format)
            #expect(result.status == 0, "\(format): \(result.stderr)")
        }
        let check = await run("check", "--root", site)
        #expect(check.status == 0, "\(check.stderr)")
        // Nothing is fetched yet: the only warnings say so (the build's enrich stage gives them too),
        // with the name two imports share, the few sounds (4 of 28 animals) a sound round repeats,
        // and the two placeholders init wrote in site.yml.
        let others = ["warning: only 4 animals have a sound, and a quiz round has 10 questions", "content/site.yml:6:1: warning: base_url 'https://example.org/",
            "content/site.yml:14:3: warning: wikipedia.contact 'you@example.org'"]
        #expect(others.allSatisfy { other in check.stderr.contains(other) }, "\(check.stderr)")
        let lines = check.stderr.split(separator: "\n").filter { line in !others.contains { line.contains($0) } }
        #expect(lines.last?.hasPrefix("checked 28 animals and 1 page: 0 errors, ") == true, "\(check.stderr)")
        // And records without a sound or a picture (the Dog CEO list's breeds; others until their
        // Wikipedia picture is fetched): the quiz never asks them, and `check` says so.
        #expect(lines.dropLast().allSatisfy {
            $0.contains("warning: ") && $0.contains("bestiary fetch") && $0.hasSuffix("[enrich]")
                || $0.contains("warning: ") && $0.contains("so the quiz never asks it")
                || $0.hasPrefix("content/animals/red-fox.md:2:1: warning: name 'Red fox' is also fuchs's")
                // What is not yet in German (the Dog CEO breeds' names, the page init wrote, and
                // two English descriptions shown on German pages with no summary cached).
                || $0.hasPrefix("content/site.yml:9:1: note: not yet in 'de': 23 of 28 records (affenpinscher: name;")
                // The imports' tags and the Dog CEO list's group, shown as written in both languages.
                || $0.hasPrefix("content/site.yml:1:1: note: 6 tags with no label in site.yml's tags, which every language's pages show as written")
                || $0.hasPrefix("content/site.yml:9:1: note: groups with no name in 'en', which its pages show as written: dog ('Dog')")
                || $0.hasPrefix("content/site.yml:9:1: note: groups with no name in 'de', which its pages show as written: dog ('Dog')")
        }, "\(check.stderr)")
        // The CSV's red fox and the WildSound export's Fuchs are one animal by name in English.
        #expect(lines.contains { $0.hasPrefix("content/animals/red-fox.md:2:1: warning: name 'Red fox' is also fuchs's") }, "\(check.stderr)")
    }

    /// `curl … | bestiary import - --format …`: standard input is read to its end, its media are
    /// looked for in the working folder, and its diagnostics name it `<stdin>` (it was refused as
    /// "not a regular file" before).
    @Test func standardInputIsImportedLikeTheFile() async throws {
        let dir = try await SiteCommandRun.newSite(languages: "[en, de]")
        let site = dir.appending("site")
        let folder = Fixtures.path("import/csv")
        let csv = try Data(contentsOf: URL(fileURLWithPath: folder + "/animals.csv"))
        let piped = try Binary.run(["import", "--root", site, "-", "--format", "csv"], currentDirectory: folder, input: csv)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout.contains("copied media/frog-call.mp3 to content/sounds/common-frog.mp3\n"), "\(piped.stdout)")
        #expect(piped.stdout.contains("created content/animals/common-frog.md\n"), "\(piped.stdout)")

        // The same rows from the file change nothing: both were read alike.
        let before = try SiteFilesSnapshot(site)
        let again = await run("import", "--root", site, folder + "/animals.csv", "--format", "csv")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == "")
        #expect(try SiteFilesSnapshot(site) == before)

        let broken = try Binary.run(["import", "--root", site, "-", "--format", "csv"], input: Data("id,name.en\nfox,\"Fox\n".utf8))
        #expect(broken.status == 1)
        #expect(broken.stderr == """
            <stdin>:2:5: error: malformed CSV: the quoted field that starts here is never closed with '"' [import]
            import failed with 1 error; nothing was written

            """)
        #expect(try SiteFilesSnapshot(site) == before)
    }
}
