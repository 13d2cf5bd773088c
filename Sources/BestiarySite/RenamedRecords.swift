import BestiaryContent
import BestiaryDiagnostics
import BestiaryPackFormat
import BestiaryStorage
import Foundation

/// A record whose file was renamed gets the new name as its id, and with it a new page, a new
/// pack record and no learner's progress or favourite: nothing said so (a volunteer tidying file
/// names lost the robin's). A build says it when the output it replaces has a page for an id the
/// records no longer have, and a new record has that animal's name or scientific name, with
/// what keeps the old id.
public enum RenamedRecords {
    public static func warnings(of catalog: Catalog, output: String, fileSystem fs: any FileSystem) -> [Diagnostic] {
        // The ids the output has pages for (the default language's folder holds every one).
        guard let entries = try? fs.unorderedEntries(in: output + "/animals") else { return [] }
        let published = Set(entries.lazy.filter { $0.kind == .directory }.map(\.name))
        let ids = Set(catalog.animals.lazy.map(\.id))
        let gone = published.subtracting(ids)
        let added = catalog.animals.filter { !published.contains($0.id) }
        guard !gone.isEmpty, !added.isEmpty else { return [] }
        // Their names, from the quiz catalogue the output publishes (read only now: rare).
        guard let assets = try? fs.unorderedEntries(in: output + "/assets"),
            let file = assets.map(\.name).filter({ $0.hasPrefix("catalog.") && $0.hasSuffix(".json") }).sorted().first,
            let data = try? fs.read(output + "/assets/" + file),
            let animals = (try? JSONParser.parse(data))?.objectValue?["animals"]?.arrayValue
        else { return [] }
        // Each gone animal's names (lowercased, every language, and its scientific name) → its id.
        var goneByName: [String: String] = [:]
        for animal in animals {
            guard let o = animal.objectValue, let id = o["id"]?.stringValue, gone.contains(id) else { continue }
            var names = (o["names"]?.objectValue ?? [:]).values.compactMap { $0.stringValue?.lowercased() }
            if let scientific = o["scientific"]?.stringValue { names.append(scientific.lowercased()) }
            for name in names where goneByName[name].map({ id < $0 }) ?? true { goneByName[name] = id }
        }
        var diagnostics: [Diagnostic] = []
        var more = 0
        for animal in added {
            let names = (animal.name.values.values.sorted() + [animal.scientific].compactMap { $0 })
            guard let shared = names.first(where: { goneByName[$0.lowercased()] != nil }), let old = goneByName[shared.lowercased()] else { continue }
            // A file renamed or two are said one by one; a mass renaming is counted after a few.
            guard diagnostics.count < 5 else { more += 1; continue }
            diagnostics.append(.warning(
                "'\(animal.id)' is new and '\(old)', named '\(shared)' too, is gone since the last build: a renamed file? Learners' progress and favourites, links to its page and apps' records know it as '\(old)', and lose it under a new id; to keep them, write `id: \(old)` in \(animal.sourcePath)",
                at: SourceLocation(path: animal.sourcePath, line: 1, column: 1), stage: "validate"))
        }
        if more > 0, let first = diagnostics.first {
            diagnostics.append(.warning(
                "\(more) more new records have the name of one gone since the last build (renamed files?), each losing its learners' progress and apps' records unless it keeps the old id (`id: OLD`)",
                at: first.location, stage: "validate"))
        }
        return diagnostics
    }
}
