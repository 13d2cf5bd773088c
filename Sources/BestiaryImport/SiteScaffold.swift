import BestiaryContent
import BestiaryDiagnostics
import BestiaryStorage
import Foundation

/// `bestiary init DIR`: a new site root that `bestiary check` accepts as it is — a commented
/// site.yml, one starter record, an about page, the default theme in `templates/` to adapt, and a
/// `.gitignore` for `output/` (and private keys: `*.key`).
public enum SiteScaffold {
    /// What `create` did: paths relative to the new site root.
    public struct Result: Sendable {
        public var written: [String]
        /// Files that were there already and were left alone (with `force`).
        public var kept: [String]
    }

    /// What `updateTheme` did: paths relative to the site root.
    public struct ThemeUpdate: Sendable, Equatable {
        /// Files that were an earlier Bestiary's default theme, never changed: now this version's.
        public var updated: [String] = []
        /// Files whose bytes are neither this version's nor an earlier one's: their owner's
        /// changes, left for them to compare.
        public var changed: [String] = []
    }

    /// `bestiary init --update-theme`, after an upgrade: in the site `directory`, every regular
    /// file under `templates/` whose bytes are an earlier version of the default theme's file at
    /// its path (its SHA-256 in `earlier`), never changed since, is replaced with `theme`'s. Nothing
    /// else is written: no file is created (a theme file or a starter record its owner deleted
    /// stays deleted), a file its owner changed is kept, and a symbolic link is left as it is.
    public static func updateTheme(
        at directory: String, theme: [String: Data], earlier: [String: Set<String>], fileSystem: any FileSystem = LocalFileSystem()
    ) throws(DiagnosticError) -> ThemeUpdate {
        guard fileSystem.info(directory + "/content/site.yml") != nil else {
            throw DiagnosticError(.error("'\(directory)' is not a site (it has no content/site.yml); --update-theme updates an existing site's templates/", stage: "init"))
        }
        var result = ThemeUpdate()
        for path in theme.keys.sorted() {
            let full = directory + "/templates/" + path
            guard fileSystem.info(full)?.kind == .file, let old = try? fileSystem.read(full), old != theme[path]! else { continue }
            guard let digests = earlier[path], digests.contains(Hashing.sha256Hex(old)) else {
                result.changed.append("templates/" + path)
                continue
            }
            do {
                try fileSystem.writeAtomically(theme[path]!, to: full)
            } catch {
                let done = result.updated.count
                throw DiagnosticError(.error(
                    "cannot update templates/\(path): \(error)" + (done > 0 ? " (\(done) file\(done == 1 ? " was" : "s were") updated before it; run it again once that is mended)" : ""),
                    stage: "init"))
            }
            result.updated.append("templates/" + path)
        }
        return result
    }

    /// The files of a new site root (without the theme), by path relative to it.
    /// `name` is the folder's name: the packs' id is made from it.
    public static func files(name: String) -> [String: Data] {
        let packID = Animal.suggestedID(name).isEmpty ? "animal-quiz" : Animal.suggestedID(name)
        let siteYML = """
            # The settings of this Bestiary site. Unknown keys are errors, so a typo is caught.

            # The site's name: one text, or one per language: {en: Animal quiz, de: Tierquiz}.
            title: Animal quiz
            # The absolute URL the site will be published under (links in sitemap.xml and packs).
            base_url: "https://example.org/\(packID)/"
            # The site's languages. The first is the default: every animal needs its name in it,
            # and texts missing in a language fall back along this list. For more: [en, de].
            languages: [en]
            wikipedia:
              # Where `bestiary fetch` gets summaries and pictures; {lang} becomes each language.
              url: "https://{lang}.wikipedia.org/api/rest_v1"
              # Wikimedia asks every client for a contact: put your e-mail address or web site here.
              contact: "you@example.org"
            # Questions per round, and answers to choose from per question.
            quiz: {questions: 10, choices: 4}
            # Content packs for apps: a stable id, and how many older versions get a small update.
            packs: {id: \(packID), keep_deltas: 10}

            """
        var fox = Animal(
            id: "red-fox", name: LocalizedText(["en": "Red fox"]), scientific: "Vulpes vulpes", group: "mammal", difficulty: 1,
            tags: ["forest", "europe"], wikipedia: ["en": "Red fox"],
            description: LocalizedText(["en": "The most widespread wild dog on Earth, at home in forests, fields and cities."]),
            hint: LocalizedText(["en": "It has a bushy tail with a white tip."]), sourcePath: "content/animals/red-fox.md")
        fox.bodies["en"] = MarkdownBody(
            // What is said to the author is in a comment, which the page leaves out (a teacher's
            // site published the starter texts' words to the author).
            markdown: """
                <!-- This is the starter record: every animal is a file like this one in
                content/animals/, named after its id. Between the --- lines are its fields (name,
                scientific name, group, Wikipedia titles, sound, picture); below them, Markdown for
                its page. A comment like this one is left out of the page.

                Add animals with `bestiary add ID --name en=NAME --sound FILE`, or bring a whole
                catalogue with `bestiary import FILE --format csv`. Run `bestiary fetch` to get each
                animal's Wikipedia summary and picture (it needs the internet; a site without works
                too), `bestiary check` to find mistakes, and `bestiary build` to make the site in
                output/. -->
                A red fox sleeps curled up, its bushy tail over its nose to keep it warm.

                """, location: SourceLocation(path: "content/animals/red-fox.md"))
        let about = """
            ---
            title: {en: About}
            ---
            <!-- Pages in content/pages/ like this one appear in the site's menu: say here who made
            this quiz, and for whom. A comment like this one is left out of the page. -->
            This quiz was made with Bestiary from a folder of animal records.

            """
        return [
            "content/site.yml": Data(siteYML.utf8),
            "content/animals/red-fox.md": Data(RecordWriter(languages: ["en"]).document(for: fox, fileID: "red-fox").utf8),
            "content/pages/about.md": Data(about.utf8),
            ".gitignore": Data(
                "# Made by `bestiary build`; publish it, do not commit it.\noutput/\n# What a build leaves next to its output for the next one (state, record, staging folder), whatever\n# the output's name (`--output public` leaves .public.bestiary-*).\n.*.bestiary-*\n# A private key for signing packs (`bestiary keys generate > signing.key`): never commit it.\n*.key\n".utf8),
        ]
    }

    /// Creates the site root `directory` with the default `theme` (`templates/` files by path).
    /// Refuses a folder that holds anything but hidden files, unless `force`; never overwrites a file.
    public static func create(
        at directory: String, theme: [String: Data], force: Bool, fileSystem: any FileSystem = LocalFileSystem()
    ) throws(DiagnosticError) -> Result {
        func fail(_ message: String) -> DiagnosticError { DiagnosticError(.error(message, stage: "init")) }
        if let info = fileSystem.infoFollowingLinks(directory) {
            guard info.kind == .directory else { throw fail("'\(directory)' is a file; give a folder for the new site") }
            let visible = ((try? fileSystem.entries(in: directory)) ?? []).filter { !$0.name.hasPrefix(".") }
            if !visible.isEmpty && !force {
                let shown = visible.prefix(3).map(\.name).joined(separator: ", ") + (visible.count > 3 ? ", …" : "")
                throw fail("'\(directory)' is not empty (\(shown)); choose a new folder, or pass --force to add the site's files next to what is there (no file is overwritten)")
            }
        }
        let name = URL(fileURLWithPath: directory).standardizedFileURL.lastPathComponent
        var files = files(name: name)
        for (path, data) in theme { files["templates/" + path] = data }
        var result = Result(written: [], kept: [])
        do {
            for folder in ["content/animals", "content/pages", "content/sounds", "content/images", "templates"] {
                try fileSystem.createDirectory(directory + "/" + folder)
            }
            for path in files.keys.sorted() {
                let full = directory + "/" + path
                if fileSystem.info(full) != nil {
                    result.kept.append(path)
                    continue
                }
                try fileSystem.writeAtomically(files[path]!, to: full)
                result.written.append(path)
            }
        } catch {
            throw fail("cannot create the site: \(error)")
        }
        return result
    }
}
