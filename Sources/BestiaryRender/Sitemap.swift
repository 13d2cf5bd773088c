import BestiaryStorage
import Foundation

/// `sitemap.xml` with every page in every language and its `hreflang` alternates, sorted, and
/// without dates (they would make builds differ for nothing).
enum Sitemap {
    static func file(renderer: SiteRenderer) -> OutputFile {
        let base = renderer.input.baseURL
        let entries = renderer.sitemapEntries()
        let byKey = Dictionary(grouping: entries, by: \.key)
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">

            """
        for entry in entries.sorted(by: { $0.directory < $1.directory }) {
            xml += "  <url>\n    <loc>\(Escape.xml(base + entry.directory))</loc>\n"
            if renderer.config.languages.count > 1 {
                for alt in (byKey[entry.key] ?? []).sorted(by: { $0.language < $1.language }) {
                    xml += "    <xhtml:link rel=\"alternate\" hreflang=\"\(alt.language)\" href=\"\(Escape.xml(base + alt.directory))\"/>\n"
                }
            }
            xml += "  </url>\n"
        }
        xml += "</urlset>\n"
        return OutputFile(path: "sitemap.xml", text: xml)
    }
}

/// `manifest.webmanifest`: lets browsers install the quiz as an app.
enum WebManifest {
    static func file(renderer: SiteRenderer) -> OutputFile {
        let config = renderer.config
        let lang = config.defaultLanguage
        let title = config.title.resolve(lang, fallback: config.languages)?.text ?? "Bestiary"
        var icons: [[String: Any]] = []
        for (logical, sizes) in [("icons/icon.svg", "any"), ("icons/icon-192.png", "192x192"), ("icons/icon-512.png", "512x512")] {
            if let url = renderer.input.assets.urls[logical] {
                icons.append(["src": url, "sizes": sizes, "type": logical.hasSuffix(".svg") ? "image/svg+xml" : "image/png"])
            }
        }
        let manifest: [String: Any] = [
            "name": title,
            "short_name": String(title.prefix(12)),
            "lang": lang,
            "start_url": "./",
            "scope": "./",
            "display": "standalone",
            "background_color": "#fbfaf7",
            "theme_color": "#2f6b4f",
            "icons": icons,
        ]
        return OutputFile(path: "manifest.webmanifest", text: JSONText.encode(manifest))
    }
}
