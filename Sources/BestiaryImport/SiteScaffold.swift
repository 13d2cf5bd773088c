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

    /// The starter record's and about page's texts in one language (`StarterTexts.known`).
    public struct StarterTexts: Sendable {
        var title, foxName, foxArticle, description, hint, body, aboutTitle, aboutBody: String

        /// The languages the default theme speaks, each with its starter texts. A site language
        /// without them gets the English texts, and `init` says to translate them.
        public static let known: [String: StarterTexts] = [
            "en": StarterTexts(
                title: "Animal quiz", foxName: "Red fox", foxArticle: "Red fox",
                description: "The most widespread wild dog on Earth, at home in forests, fields and cities.",
                hint: "It has a bushy tail with a white tip.",
                body: "A red fox sleeps curled up, its bushy tail over its nose to keep it warm.",
                aboutTitle: "About", aboutBody: "This quiz was made with Bestiary from a folder of animal records."),
            "de": StarterTexts(
                title: "Tierquiz", foxName: "Rotfuchs", foxArticle: "Rotfuchs",
                description: "Der am weitesten verbreitete wilde Hund der Erde, zu Hause in Wäldern, auf Feldern und in Städten.",
                hint: "Er hat einen buschigen Schwanz mit weißer Spitze.",
                body: "Ein Rotfuchs schläft zusammengerollt, den buschigen Schwanz über der Nase, damit sie warm bleibt.",
                aboutTitle: "Über dieses Quiz", aboutBody: "Dieses Quiz wurde mit Bestiary aus einem Ordner von Tier-Steckbriefen gemacht."),
            "fr": StarterTexts(
                title: "Quiz des animaux", foxName: "Renard roux", foxArticle: "Renard roux",
                description: "Le canidé sauvage le plus répandu sur Terre, chez lui dans les forêts, les champs et les villes.",
                hint: "Il a une queue touffue au bout blanc.",
                body: "Un renard roux dort roulé en boule, sa queue touffue sur le museau pour se tenir chaud.",
                aboutTitle: "À propos", aboutBody: "Ce quiz a été fait avec Bestiary à partir d’un dossier de fiches d’animaux."),
            "it": StarterTexts(
                title: "Quiz degli animali", foxName: "Volpe rossa", foxArticle: "Vulpes vulpes",
                description: "Il canide selvatico più diffuso sulla Terra, di casa nei boschi, nei campi e nelle città.",
                hint: "Ha una coda folta con la punta bianca.",
                body: "Una volpe rossa dorme acciambellata, con la coda folta sul muso per tenersi al caldo.",
                aboutTitle: "Informazioni", aboutBody: "Questo quiz è stato fatto con Bestiary a partire da una cartella di schede di animali."),
            "es": StarterTexts(
                title: "Quiz de animales", foxName: "Zorro rojo", foxArticle: "Vulpes vulpes",
                description: "El cánido salvaje más extendido de la Tierra, a gusto en bosques, campos y ciudades.",
                hint: "Tiene una cola espesa con la punta blanca.",
                body: "Un zorro rojo duerme hecho un ovillo, con la cola espesa sobre el hocico para no pasar frío.",
                aboutTitle: "Acerca de", aboutBody: "Este quiz se hizo con Bestiary a partir de una carpeta de fichas de animales."),
            "ar": StarterTexts(
                title: "اختبار الحيوانات", foxName: "ثعلب أحمر", foxArticle: "ثعلب أحمر",
                description: "أوسع الكلاب البرية انتشارًا على الأرض، يعيش في الغابات والحقول والمدن.",
                hint: "له ذيل كثيف ذو طرف أبيض.",
                body: "ينام الثعلب الأحمر ملتفًّا على نفسه، واضعًا ذيله الكثيف على أنفه ليبقى دافئًا.",
                aboutTitle: "حول الموقع", aboutBody: "صُنع هذا الاختبار باستخدام Bestiary من مجلد لسجلات الحيوانات."),
        ]

        /// The texts for a site language: its own, its base language's (`es` for `es-MX`), or nil.
        public static func of(_ language: String) -> StarterTexts? {
            known[language] ?? known[String(language.split(separator: "-").first ?? "")]
        }
    }

    /// What is wrong with the languages given to `init --languages`, or nil: what site.yml would
    /// refuse or warn about (``LanguageCode/doubts(about:)``), said before anything is written.
    public static func problem(with languages: [String]) -> String? {
        if languages.isEmpty { return "--languages names no language; give codes, the default first: --languages es,en" }
        for code in languages {
            if code.isEmpty { return "--languages has an empty entry; give codes separated by commas: --languages es,en" }
            if !LanguageCode.isValid(code) {
                let hint = LanguageCode.suggestion(for: code).map { " (did you mean '\($0)'?)" } ?? ""
                return "--languages: '\(code)' is not a language code like en, de or pt-BR\(hint)"
            }
            if let doubt = LanguageCode.doubts(about: code).first { return "--languages: " + doubt }
        }
        var seen = Set<String>()
        if let twice = languages.first(where: { !seen.insert($0).inserted }) { return "--languages names '\(twice)' twice" }
        return nil
    }

    /// The files of a new site root (without the theme), by path relative to it.
    /// `name` is the folder's name: the packs' id is made from it. `languages`: the site's, the
    /// default first; the starter record and page are in each (in English where
    /// ``StarterTexts/of(_:)`` has none).
    public static func files(name: String, languages: [String] = ["en"]) -> [String: Data] {
        let packID = Animal.suggestedID(name).isEmpty ? "animal-quiz" : Animal.suggestedID(name)
        let languages = languages.isEmpty ? ["en"] : languages
        let english = StarterTexts.known["en"]!
        let texts = languages.map { (language: $0, texts: StarterTexts.of($0) ?? english) }
        // A text per language as YAML: `{es: …, en: …}`; `map` writes one language's alone.
        func flowMap(_ value: (StarterTexts) -> String) -> String {
            "{" + texts.map { "\($0.language): \(YAMLScalar.plainOrQuoted(value($0.texts), flow: true))" }.joined(separator: ", ") + "}"
        }
        func map(_ value: (StarterTexts) -> String) -> String {
            texts.count == 1 ? YAMLScalar.plainOrQuoted(value(texts[0].texts)) : flowMap(value)
        }
        func localized(_ value: (StarterTexts) -> String) -> LocalizedText {
            LocalizedText(Dictionary(uniqueKeysWithValues: texts.map { ($0.language, value($0.texts)) }))
        }
        let first = languages[0]
        // The comment's example of more languages: this one and another.
        let more = languages.count == 1 ? " For more: [\(first), \(first == "en" ? "de" : "en")]." : ""
        let siteYML = """
            # The settings of this Bestiary site. Unknown keys are errors, so a typo is caught.

            # The site's name: one text, or one per language: {en: Animal quiz, de: Tierquiz}.
            title: \(map(\.title))
            # The absolute URL the site will be published under (links in sitemap.xml and packs).
            base_url: "https://example.org/\(packID)/"
            # The site's languages. The first is the default: every animal's name and ID.md text
            # are in it (ID.LANG.md: in LANG), and missing texts fall back along this list.\(more)
            languages: [\(languages.joined(separator: ", "))]
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
            id: "red-fox", name: localized(\.foxName), scientific: "Vulpes vulpes", group: "mammal", difficulty: 1,
            tags: ["forest", "europe"],
            // No English title for a Wikipedia in another language.
            wikipedia: Dictionary(uniqueKeysWithValues: languages.compactMap { language in StarterTexts.of(language).map { (language, $0.foxArticle) } }),
            description: localized(\.description), hint: localized(\.hint), sourcePath: "content/animals/red-fox.md")
        // Where the other languages' bodies are, said in the starter record's comment.
        let others = languages.dropFirst().map { "red-fox.\($0).md" }
        let bodiesElsewhere = others.isEmpty ? "" : " in '\(first)' (in\nanother language: \(others.joined(separator: ", ")))"
        fox.bodies[first] = MarkdownBody(
            // What is said to the author is in a comment, which the page leaves out (a teacher's
            // site published the starter texts' words to the author).
            markdown: """
                <!-- This is the starter record: every animal is a file like this one in
                content/animals/, named after its id. Between the --- lines are its fields (name,
                scientific name, group, Wikipedia titles, sound, picture); below them, Markdown for
                its page\(bodiesElsewhere). A comment like this one is left out of the page.

                Add animals with `bestiary add ID --name \(first)=NAME --sound FILE`, or bring a whole
                catalogue with `bestiary import FILE --format csv`. Run `bestiary fetch` to get each
                animal's Wikipedia summary and picture (it needs the internet; a site without works
                too), `bestiary check` to find mistakes, and `bestiary build` to make the site in
                output/. -->
                \(texts[0].texts.body)

                """, location: SourceLocation(path: "content/animals/red-fox.md"))
        let about = """
            ---
            title: \(flowMap(\.aboutTitle))
            ---
            <!-- Pages in content/pages/ like this one appear in the site's menu: say here who made
            this quiz, and for whom.\(languages.count > 1 ? " about.LANG.md says it in another language.\n" : " ")A comment like this one is left out of the page. -->
            \(texts[0].texts.aboutBody)

            """
        var files: [String: Data] = [
            "content/site.yml": Data(siteYML.utf8),
            "content/animals/red-fox.md": Data(RecordWriter(languages: languages).document(for: fox, fileID: "red-fox").utf8),
            "content/pages/about.md": Data(about.utf8),
            ".gitignore": Data(
                "# Made by `bestiary build`; publish it, do not commit it.\noutput/\n# What a build leaves next to its output for the next one (state, record, staging folder), whatever\n# the output's name (`--output public` leaves .public.bestiary-*).\n.*.bestiary-*\n# A private key for signing packs (`bestiary keys generate > signing.key`): never commit it.\n*.key\n".utf8),
        ]
        for (language, own) in texts.dropFirst() {
            files["content/animals/red-fox.\(language).md"] = Data((own.body + "\n").utf8)
            files["content/pages/about.\(language).md"] = Data((own.aboutBody + "\n").utf8)
        }
        return files
    }

    /// The site languages `init` has no starter texts in (given them in English).
    public static func untranslated(_ languages: [String]) -> [String] {
        languages.filter { StarterTexts.of($0) == nil }
    }

    /// Creates the site root `directory` with the default `theme` (`templates/` files by path).
    /// Refuses a folder that holds anything but hidden files, unless `force`; never overwrites a file.
    /// `languages` (nil: English alone) are refused where a `content/site.yml` is kept: its
    /// languages stay, and the starter's texts in other ones would not fit them.
    public static func create(
        at directory: String, theme: [String: Data], force: Bool, languages: [String]? = nil, fileSystem: any FileSystem = LocalFileSystem()
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
        if languages != nil, fileSystem.info(directory + "/content/site.yml") != nil {
            throw fail("--languages is for a new site, and '\(directory)' has a content/site.yml, whose languages stay as they are; add a language in its languages: instead")
        }
        let name = URL(fileURLWithPath: directory).standardizedFileURL.lastPathComponent
        var files = files(name: name, languages: languages ?? ["en"])
        for (path, data) in theme { files["templates/" + path] = data }
        var result = Result(written: [], kept: [])
        do {
            for folder in ["content/animals", "content/pages", "content/sounds", "content/images", "templates"] {
                try fileSystem.createDirectory(directory + "/" + folder)
            }
            for path in files.keys.sorted() {
                let full = directory + "/" + path
                // A translation (`red-fox.en.md`) only beside the record or page written with it,
                // never beside a file of the same name that was there.
                let parts = path.split(separator: ".")
                if path.hasPrefix("content/"), parts.count == 3, fileSystem.info(directory + "/\(parts[0]).md") != nil { continue }
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
