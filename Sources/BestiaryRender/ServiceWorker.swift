import BestiaryDiagnostics
import BestiaryStorage
import Foundation

/// `sw.js` at the output root: the theme's `service-worker/sw.js` with this build's configuration
/// written into it (see docs/theming.md, "Offline").
///
/// The worker's script stays unhashed and at the root so that its scope is the whole site and
/// browsers find a new build by comparing its bytes. The configuration names what to precache
/// (every language's app shell pages up to ``precacheLimit`` each, every fingerprinted asset, the
/// catalogue and the manifest)
/// and a version: a hash over each precached file's path and bytes and over the script itself,
/// which names the cache. A new build with any change to the shell therefore installs into a fresh
/// cache, and the worker deletes the old one when it activates.
enum ServiceWorker {
    /// The theme file the worker is made from.
    static let source = "service-worker/sw.js"
    /// A shell page bigger than this is not precached (`later` in the configuration): the worker keeps
    /// it when it is visited, as an animal's page, and fetches it again for a new build when an
    /// earlier build's cache held it. At 10,000 animals the collection and the sightings pages are 3–5 MB each, in
    /// every language, and an install downloaded them all again after every content change. A
    /// change to such a page still makes a new version (its digest is in it).
    static let precacheLimit = 1 << 20
    /// The configuration object between these markers is replaced.
    static let startMarker = "/* bestiary:config */"
    static let endMarker = "/* bestiary:end */"

    /// A theme's own service worker without the markers: the site gets a worker that only clears
    /// old caches, and no offline play, which `check` and each build say (they said nothing).
    static func markerProblem(in theme: Theme) -> Diagnostic? {
        guard let file = theme.files[source], file.isOverride else { return nil }
        if configRange(in: String(decoding: file.data, as: UTF8.self)) != nil { return nil }
        return .warning(
            "\(file.origin) has no \(startMarker) … \(endMarker) block, where the build writes the site's pages and files: the built sw.js only clears old caches, so the site does not work offline; copy that block from the default theme's service-worker/sw.js",
            at: SourceLocation(path: file.origin), stage: "render")
    }

    /// What lies between the markers (the start marker's end to the end marker's start), or nil.
    static func configRange(in text: String) -> Range<String.Index>? {
        guard let start = text.range(of: startMarker), let end = text.range(of: endMarker, range: start.upperBound..<text.endIndex) else { return nil }
        return start.upperBound..<end.lowerBound
    }

    /// `catalog`: the catalogue's path, then its descriptions' (a file per language, read aloud
    /// after an answer). The catalogue is precached whatever its size: no quiz plays without it.
    /// A descriptions file over ``precacheLimit`` is not (`onUse`): at 10,000 animals each is
    /// 3–4 MB, and a site in six languages had every install download all six, though a learner
    /// reads one. The worker keeps one when the quiz first asks for it, and a new build's install
    /// fetches that language's new file (the learner reads it offline too).
    static func file(renderer: SiteRenderer, files: [OutputFile], catalog: [String]) -> OutputFile {
        let catalogPath = catalog.first ?? ""
        let input = renderer.input
        let byPath = Dictionary(files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        var precache: [String] = [], later: [String] = [], onUse: [String] = []
        for page in renderer.shellPages() {
            guard let file = byPath[page] else { continue }
            // Directory URLs, as pages link to each other (`quiz/`, not `quiz/index.html`).
            let url = page.hasSuffix("/index.html") ? String(page.dropLast("index.html".count)) : page == "index.html" ? "./" : page
            // (By its size in any form: a list page written in parts is as big.)
            if let size = file.byteCount, size > precacheLimit {
                later.append(url)
            } else {
                precache.append(url)
            }
        }
        precache.append(contentsOf: input.assets.files.map(\.path))
        for (i, path) in catalog.enumerated() {
            if i > 0, let size = byPath[path]?.byteCount, size > precacheLimit {
                onUse.append(path)
            } else {
                precache.append(path)
            }
        }
        let manifests = renderer.config.languages.map { WebManifest.path($0, paths: renderer.paths) }
        precache.append(contentsOf: manifests)

        let template = input.theme.files[source].map { String(decoding: $0.data, as: UTF8.self) } ?? ""
        // The version: what the precached files hold, and the worker's own code.
        var digest = Data()
        for page in renderer.shellPages() + input.assets.files.map(\.path) + catalog + manifests {
            digest.append(Data(page.utf8))
            digest.append(0)
            if let sha256 = byPath[page]?.dataSHA256 { digest.append(Data(sha256.utf8)) }
            digest.append(0)
        }
        digest.append(Data(template.utf8))
        let version = Hashing.shortHash(digest, length: 16)

        var offline: [String: String] = [:]
        for lang in renderer.config.languages {
            offline[renderer.paths.languagePrefix(lang)] = renderer.paths.offline(lang)
        }
        let config: [String: Any] = [
            "version": version,
            "site": input.siteID,
            "precache": precache,
            "later": later,
            "onUse": onUse,
            "catalog": catalogPath,
            "media": "media/",
            "offline": offline,
        ]
        let script: String
        if let range = configRange(in: template) {
            script = String(template[..<range.lowerBound]) + " " + JSONText.encode(config) + " " + String(template[range.upperBound...])
        } else {
            // A theme that replaced the worker without the markers gets a worker that only cleans up:
            // no stale caches, no offline play.
            script = "// The theme's service-worker/sw.js has no \(startMarker) … \(endMarker) block.\n"
                + "self.addEventListener(\"activate\", (e) => e.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((k) => k.startsWith(\"bestiary:\")).map((k) => caches.delete(k))))));\n"
        }
        return OutputFile(path: "sw.js", text: script)
    }
}
