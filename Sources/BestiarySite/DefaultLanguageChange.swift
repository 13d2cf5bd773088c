import BestiaryContent
import BestiaryDiagnostics
import BestiaryPackFormat
import BestiaryStorage
import Foundation

/// The first of `languages` made another (`[de, en, es]` to `[es, de, en]`) changes every page's
/// address and what each `ID.md` body is taken to be written in, and nothing said so: a translator
/// found the German pages at `/de/…`, the old `/es/…` links gone, German learners' installed app
/// turned Spanish, and (the bodies not moved yet) German text published as Spanish, in a pack
/// version apps never take back. A build and `check` say it while the output they replace was
/// built with another default language.
public enum DefaultLanguageChange {
    /// The default language of the output at `output`: the language of its root's web manifest
    /// (written by every build, a few hundred bytes); nil when there is none or it cannot be read.
    static func published(in output: String, fileSystem fs: any FileSystem) -> String? {
        guard let data = try? fs.read(output + "/manifest.webmanifest"), data.count < 1 << 20 else { return nil }
        return (try? JSONParser.parse(data))?.objectValue?["lang"]?.stringValue
    }

    public static func warnings(of catalog: Catalog, output: String, fileSystem fs: any FileSystem) -> [Diagnostic] {
        let now = catalog.config.defaultLanguage
        guard let before = published(in: output, fileSystem: fs), before != now else { return [] }
        let at = catalog.config.location(of: "languages")
        let oldFolder = catalog.config.languages.contains(before) ? "its pages move to /\(before)/…" : "its pages are gone"
        var diagnostics: [Diagnostic] = [.warning(
            "the default language is now '\(now)', and the output was built with '\(before)': every page's address changes. The pages at the root (/, /animals/ID/) turn '\(now)', \(oldFolder), and the old /\(now)/… addresses lead nowhere (links and bookmarks to them break); an app a learner installed from the root turns '\(now)'. If that is meant, build: this is said until a build publishes it; docs/content.md, \"The body\"",
            at: at, stage: "validate")]
        // Bodies in ID.md with none in ID.OLD.md: written in the old default language, unless
        // rewritten since; nothing can tell, and the new build publishes them as the new one's.
        var kept: [(name: String, path: String)] = []
        for animal in catalog.animals {
            if let body = animal.bodies[now], !body.isBlank, body.location.path == animal.sourcePath, animal.bodies[before] == nil {
                kept.append((animal.id, animal.sourcePath))
            }
        }
        for page in catalog.pages {
            if let body = page.bodies[now], !body.isBlank, body.location.path == page.sourcePath, page.bodies[before] == nil {
                kept.append(("page \(page.slug)", page.sourcePath))
            }
        }
        guard let first = kept.first else { return diagnostics }
        let names = kept.prefix(5).map(\.name).joined(separator: ", ") + (kept.count > 5 ? ", and \(kept.count - 5) more" : "")
        let stem = first.path.hasSuffix(".md") ? String(first.path.dropLast(3)) : first.path
        diagnostics.append(.warning(
            "\(kept.count) text\(kept.count == 1 ? "" : "s") in ID.md files (\(names)) were published as '\(before)' by the last build and are taken as '\(now)' now: if they are still in '\(before)', move each to ID.\(before).md first (\(first.path) to \(stem).\(before).md) and write the '\(now)' text in its place, else the '\(before)' text is published as '\(now)' on every page and in the packs (texts written without a language, `description: …`, are taken as '\(now)' too)",
            at: SourceLocation(path: first.path, line: 1, column: 1), stage: "validate"))
        return diagnostics
    }
}
