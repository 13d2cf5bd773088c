import BestiaryContent
import BestiaryStorage
import Foundation

/// `sitemap.xml` with every page in every language and its `hreflang` alternates, sorted, and
/// without dates (they would make builds differ for nothing).
enum Sitemap {
    static func file(renderer: SiteRenderer) -> OutputFile {
        let languages = renderer.config.languages
        var base: [UInt8] = []
        Escape.appendXML(asciiPath(renderer.input.baseURL), to: &base)
        // Every page's directory in every language, language by language (20,000 on the bench
        // corpus), listed in the order of the directories. A page's alternates are its
        // directories in the other languages, by their names.
        let directories = renderer.sitemapDirectories()
        let rows = directories.count / max(languages.count, 1)
        var order = Array(0..<directories.count)
        order.sort { directories[$0] < directories[$1] }
        let byName = languages.indices.sorted { languages[$0] < languages[$1] }
        let alternates = languages.count > 1
        var out: [UInt8] = []
        out.reserveCapacity(directories.count * (alternates ? 320 : 90))
        out.append(contentsOf: """
            <?xml version="1.0" encoding="UTF-8"?>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">

            """.utf8)
        func appendURL(_ directory: String) {
            out.append(contentsOf: base)
            var directory = directory
            directory.withUTF8 { bytes in
                if bytes.contains(where: Escape.isXMLSpecial) {
                    Escape.appendXML(String(decoding: bytes, as: UTF8.self), to: &out)
                } else {
                    out.append(contentsOf: bytes)
                }
            }
        }
        for index in order {
            out.append(contentsOf: "  <url>\n    <loc>".utf8)
            appendURL(directories[index])
            out.append(contentsOf: "</loc>\n".utf8)
            if alternates {
                let row = index % rows
                for language in byName {
                    out.append(contentsOf: "    <xhtml:link rel=\"alternate\" hreflang=\"".utf8)
                    out.append(contentsOf: languages[language].utf8)
                    out.append(contentsOf: "\" href=\"".utf8)
                    appendURL(directories[language * rows + row])
                    out.append(contentsOf: "\"/>\n".utf8)
                }
            }
            out.append(contentsOf: "  </url>\n".utf8)
        }
        out.append(contentsOf: "</urlset>\n".utf8)
        return OutputFile(path: "sitemap.xml", data: Data(out))
    }

    /// `url` with the non-ASCII bytes of its path percent-encoded (`/Vögel/` → `/V%C3%B6gel/`), as
    /// the sitemap protocol asks and the pages' links have them; the host is left as written.
    static func asciiPath(_ url: String) -> String {
        guard !url.utf8.allSatisfy({ $0 < 0x80 }), let scheme = url.range(of: "://") else { return url }
        let path = url[scheme.upperBound...].firstIndex(of: "/") ?? url.endIndex
        var out = String(url[..<path])
        for byte in url[path...].utf8 {
            if byte < 0x80 { out.unicodeScalars.append(Unicode.Scalar(byte)) } else { out += String(format: "%%%02X", byte) }
        }
        return out
    }
}

/// `manifest.webmanifest`: lets browsers install the quiz as an app. One per language, next to
/// its home page (`en/manifest.webmanifest`; the default language's at the root), each page
/// linking its language's: installed from a French page, the app was named in German and
/// opened the German home (a translator's). Each is an app of its own (its id is its start
/// URL, the language's home): one id for all would rename the installed app to whichever
/// language's page was opened last. All have the site's root as their scope.
enum WebManifest {
    /// The manifest of `language`'s pages, from the site's root.
    static func path(_ language: String, paths: SitePaths) -> String { paths.home(language) + "manifest.webmanifest" }

    static func files(renderer: SiteRenderer) -> [OutputFile] {
        renderer.config.languages.map { file(renderer: renderer, language: $0) }
    }

    static func file(renderer: SiteRenderer, language lang: String) -> OutputFile {
        let config = renderer.config
        let home = renderer.paths.home(lang)
        let title = config.title.resolve(lang, fallback: config.fallback(for: lang))?.text ?? "Bestiary"
        var icons: [[String: Any]] = []
        for (logical, sizes) in [("icons/icon.svg", "any"), ("icons/icon-192.png", "192x192"), ("icons/icon-512.png", "512x512")] {
            if let url = renderer.input.assets.urls[logical] {
                icons.append(["src": SitePaths.relative(from: home, to: url), "sizes": sizes, "type": logical.hasSuffix(".svg") ? "image/svg+xml" : "image/png"])
            }
        }
        // The site's root, from the manifest (`./` at the root, `../` for `en/`).
        let root = SitePaths.relative(from: home, to: "")
        let manifest: [String: Any] = [
            "name": title,
            "short_name": config.app.shortName.resolve(lang, fallback: config.fallback(for: lang))?.text ?? shortName(title),
            "lang": lang,
            "dir": Languages.direction(lang),
            "start_url": "./",
            "scope": root,
            "display": "standalone",
            "background_color": config.app.backgroundColor,
            "theme_color": config.app.themeColor,
            "icons": icons,
        ]
        return OutputFile(path: path(lang, paths: renderer.paths), text: JSONText.encode(manifest))
    }

    /// The title for an app icon's label, without site.yml's `app.short_name`: at most 12
    /// characters, cut after a whole word when there is one that fits ("Bestiary Quiz of Birds"
    /// → "Bestiary"), never inside one, nor after a little word that leads to the next ("Birds
    /// and frogs of Riverside" gave "Birds and", "Vögel und Frösche" "Vögel und": a volunteer's).
    static func shortName(_ title: String) -> String {
        let limit = AppSettings.shortNameLength
        guard title.count > limit else { return title }
        let cut = title.prefix(limit + 1)
        var name = cut.lastIndex(where: \.isWhitespace).flatMap { $0 > cut.startIndex ? cut[..<$0] : nil } ?? title.prefix(limit)
        func trim() {
            // No hyphen or colon left hanging where the name was cut ("Tierstimmen-Quiz 7b" gave
            // "Tierstimmen-" on a phone's home screen; found by a teacher).
            while let last = name.last, last.isWhitespace || last.isPunctuation, name.count > 1 { name = name.dropLast() }
        }
        trim()
        while let space = name.lastIndex(where: \.isWhitespace), leadingWords.contains(name[name.index(after: space)...].lowercased()) {
            name = name[..<space]
            trim()
        }
        // Nothing but a little word left ("The Birdwatchers' Quiz"): the title's first
        // characters say more.
        if leadingWords.contains(name.lowercased()) {
            name = title.prefix(limit)
            trim()
        }
        return String(name)
    }

    /// Words that lead into the next one, in the languages sites are most often written in: a
    /// label does not end with one.
    static let leadingWords: Set<String> = [
        "a", "an", "and", "at", "for", "in", "of", "on", "or", "the", "to", "with",
        "am", "auf", "aus", "das", "dem", "den", "der", "die", "für", "im", "mit", "oder", "und", "vom", "von", "zu", "zum", "zur",
        "à", "au", "aux", "d'", "de", "des", "du", "en", "et", "l'", "la", "le", "les", "ou", "pour", "sur",
        "al", "con", "da", "dei", "del", "della", "delle", "di", "e", "ed", "gli", "i", "il", "lo", "nel", "o", "per",
        "el", "los", "las", "y", "para",
    ]
}
