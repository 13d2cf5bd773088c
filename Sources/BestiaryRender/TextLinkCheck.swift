import BestiaryContent
import BestiaryDiagnostics
import BestiaryMarkdown

/// Links in the records' and pages' texts that lead nowhere on the site (found by a content
/// author: nothing said so). A text is shown on its page in every language (`animals/ID/`,
/// `en/animals/ID/`, `SLUG/`), and a link is taken from there, as a browser takes it:
/// - a path (`../dog/`, `dog`, `sounds/owl.ogg`) must lead to a page of the site (`../dog/`
///   from an animal's page is the dog's page in the same language);
/// - an address from the site's root (`/animals/duck/`) works only while the site is served at
///   the root of its host: not under a sub-path (`https://example.org/bestiary/`);
/// - `#name` must be a heading of the same text (``Markdown/slug(_:)``).
/// `bestiary check` warns about each; the build does not look (it would parse every text).
public enum TextLinkCheck {
    public static func problems(of catalog: Catalog) -> [Diagnostic] {
        let paths = SitePaths(defaultLanguage: catalog.config.defaultLanguage)
        var pages = Set<String>()
        for lang in catalog.config.languages {
            pages.formUnion([
                paths.home(lang), paths.quiz(lang), paths.collection(lang), paths.credits(lang), paths.sightings(lang), paths.settings(lang),
                paths.offline(lang),
            ])
            for animal in catalog.animals { pages.insert(paths.animal(animal.id, lang)) }
            for page in catalog.pages { pages.insert(paths.page(page.slug, lang)) }
        }
        var problems: [Diagnostic] = []
        for (directory, body) in texts(of: catalog) {
            if let (line, column, shortcode) = hugoShortcode(in: body.markdown) {
                problems.append(.warning(
                    "'\(shortcode)' is a Hugo shortcode, which Bestiary's Markdown does not have: the page shows it as text; write Markdown instead (a picture: ![what it shows](address), a link: [text](address))",
                    at: body.at(line: line, column: column), stage: "validate"))
            }
            let (links, ids) = Markdown.links(body.markdown, reserved: Templates.builtInLayoutIDs)
            for link in links {
                guard let problem = problem(link.url, from: directory, pages: pages, headingIDs: ids) else { continue }
                problems.append(.warning(
                    "the link '\(link.url.prefix(60))' \(problem)", at: body.at(line: link.line, column: link.column), stage: "validate"))
            }
        }
        return problems
    }

    /// Every text of the animals (but those in `except`) and of the pages, with the folder of the
    /// page it is shown on in the default language (each text's links are taken from there).
    static func texts(of catalog: Catalog, except: Set<String> = []) -> [(directory: String, body: MarkdownBody)] {
        let paths = SitePaths(defaultLanguage: catalog.config.defaultLanguage)
        let language = catalog.config.defaultLanguage
        var texts: [(directory: String, body: MarkdownBody)] = []
        for animal in catalog.animals where !except.contains(animal.id) {
            for (_, body) in animal.bodies.sorted(by: { $0.key < $1.key }) { texts.append((paths.animal(animal.id, language), body)) }
        }
        for page in catalog.pages {
            for (_, body) in page.bodies.sorted(by: { $0.key < $1.key }) { texts.append((paths.page(page.slug, language), body)) }
        }
        return texts
    }

    /// A link's address without its query and fragment, percent-decoded: the path a page is at.
    static func localPath(_ url: String) -> String {
        var path = url
        if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<cut]) }
        return path.removingPercentEncodingIfAny
    }

    /// `path` (relative, decoded, without query or fragment) resolved as a browser resolves it
    /// against the page's folder `directory`: the site path of the folder it leads to.
    static func resolve(_ path: String, from directory: String) -> String {
        var parts = directory.split(separator: "/").map(String.init)
        for part in path.split(separator: "/", omittingEmptySubsequences: false).map(String.init) {
            if part == ".." { if !parts.isEmpty { parts.removeLast() } } else if part != "." && !part.isEmpty { parts.append(part) }
        }
        if parts.last == "index.html" { parts.removeLast() }
        return parts.isEmpty ? "" : parts.joined(separator: "/") + "/"
    }

    /// Links in the texts of the animals and pages not in `ids` that lead to the page of an animal
    /// in `ids`, in any language: what `bestiary remove` leaves leading nowhere (it said nothing of
    /// the six records that linked to the bird it removed: found by a catalogue's maintainer).
    public static func links(to ids: Set<String>, in catalog: Catalog) -> [Diagnostic] {
        let paths = SitePaths(defaultLanguage: catalog.config.defaultLanguage)
        var targets: [String: String] = [:]
        for id in ids {
            for lang in catalog.config.languages { targets[paths.animal(id, lang)] = id }
        }
        var problems: [Diagnostic] = []
        for (directory, body) in texts(of: catalog, except: ids) {
            for link in Markdown.links(body.markdown, reserved: Templates.builtInLayoutIDs).links {
                guard MarkdownBody.isLocal(link.url), !link.url.hasPrefix("#") else { continue }
                let path = localPath(link.url)
                guard !path.hasPrefix("/"), let id = targets[resolve(path, from: directory)] else { continue }
                problems.append(.warning(
                    "the link '\(link.url.prefix(60))' leads to \(id)'s page, which goes with the record: remove the link or point it elsewhere",
                    at: body.at(line: link.line, column: link.column), stage: "remove"))
            }
        }
        return problems
    }

    /// The first `{{< … >}}` or `{{% … %}}` in `text` (a Hugo habit, published as written), with
    /// its line and column (in characters), cut to 40 characters. Not in code: a fenced block
    /// (``` or ~~~) or a `code span` on its line, where a text shows Hugo's syntax on purpose.
    static func hugoShortcode(in text: String) -> (line: Int, column: Int, text: String)? {
        let bytes = Array(text.utf8)
        var line = 1, lineStart = 0, k = 0
        var fenced = false, ticks = 0
        func fence(at start: Int) -> Bool {
            var i = start
            while i < bytes.count, bytes[i] == 32, i - start < 3 { i += 1 }
            return i + 2 < bytes.count && (bytes[i...(i + 2)].allSatisfy { $0 == UInt8(ascii: "`") } || bytes[i...(i + 2)].allSatisfy { $0 == UInt8(ascii: "~") })
        }
        if fence(at: 0) { fenced = true }
        while k + 2 < bytes.count {
            if bytes[k] == 10 {
                line += 1
                lineStart = k + 1
                ticks = 0
                if fence(at: lineStart) {
                    fenced.toggle()
                    // The fence line itself is no text.
                    while k + 1 < bytes.count, bytes[k + 1] != 10 { k += 1 }
                }
            } else if bytes[k] == UInt8(ascii: "`") {
                ticks += 1
            } else if !fenced, ticks % 2 == 0, bytes[k] == UInt8(ascii: "{"), bytes[k + 1] == UInt8(ascii: "{"), bytes[k + 2] == UInt8(ascii: "<") || bytes[k + 2] == UInt8(ascii: "%") {
                let column = String(decoding: bytes[lineStart..<k], as: UTF8.self).count + 1
                var end = k
                while end < bytes.count, bytes[end] != 10, !(end > k + 2 && bytes[end] == UInt8(ascii: "}") && bytes[end - 1] == UInt8(ascii: "}")) { end += 1 }
                let found = String(decoding: bytes[k..<min(end + 1, bytes.count)], as: UTF8.self)
                return (line, column, found.count > 40 ? String(found.prefix(39)) + "…" : found)
            }
            k += 1
        }
        return nil
    }

    /// Why `url`, on the page in `directory`, leads nowhere; nil when it leads to a page, a
    /// heading, or off the site.
    static func problem(_ url: String, from directory: String, pages: Set<String>, headingIDs: Set<String>) -> String? {
        if url.hasPrefix("#") {
            let name = String(url.dropFirst()).removingPercentEncodingIfAny
            guard !name.isEmpty, !headingIDs.contains(name) else { return nil }
            let known = headingIDs.sorted().prefix(5).map { "#" + $0 }.joined(separator: ", ")
            return "leads to no heading of this text\(known.isEmpty ? " (it has none)" : " (its headings: \(known))"); a heading's name is its text in lower case, with dashes for spaces"
        }
        if url.hasPrefix("//") || !MarkdownBody.isLocal(url) && !url.hasPrefix("/") { return nil }
        let path = localPath(url)
        if path.hasPrefix("/") {
            return "starts at the site's root, so it breaks where the site is served under a path (base_url https://example.org/bestiary/, a deploy preview); write it relative to the page, as ../ID/ for another animal, ../../SLUG/ for a page"
        }
        if pages.contains(resolve(path, from: directory)) { return nil }
        let asPage = path.hasSuffix(".md") ? " (a record's file name, not its page)" : ""
        return "leads to no page of the site\(asPage): from this page, another animal's is ../ID/ and a page of the site ../../SLUG/"
    }
}

extension String {
    /// Percent-decoded when that gives UTF-8, else as it is.
    fileprivate var removingPercentEncodingIfAny: String {
        guard utf8.contains(UInt8(ascii: "%")) else { return self }
        let u = Array(utf8)
        var bytes: [UInt8] = []
        var k = 0
        while k < u.count {
            if u[k] == UInt8(ascii: "%"), k + 2 < u.count, let v = UInt8(String(decoding: u[(k + 1)...(k + 2)], as: UTF8.self), radix: 16) {
                bytes.append(v)
                k += 3
            } else {
                bytes.append(u[k])
                k += 1
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? self
    }
}
