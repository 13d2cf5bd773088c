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
        var known: [(id: String, names: Set<String>)] = []
        for animal in animals {
            guard let o = animal.objectValue, let id = o["id"]?.stringValue, gone.contains(id) else { continue }
            var names = Set((o["names"]?.objectValue ?? [:]).values.compactMap { $0.stringValue?.lowercased() })
            if let scientific = o["scientific"]?.stringValue { names.insert(scientific.lowercased()) }
            known.append((id, names))
        }
        known.sort { $0.id < $1.id }
        var diagnostics: [Diagnostic] = []
        for animal in added {
            var names = Set(animal.name.values.values.map { $0.lowercased() })
            if let scientific = animal.scientific { names.insert(scientific.lowercased()) }
            guard let old = known.first(where: { !$0.names.isDisjoint(with: names) }) else { continue }
            let shared = animal.name.values.values.sorted().first { old.names.contains($0.lowercased()) } ?? animal.scientific ?? ""
            diagnostics.append(.warning(
                "'\(animal.id)' is new and '\(old.id)', named '\(shared)' too, is gone since the last build: a renamed file? Learners' progress and favourites, links to its page and apps' records know it as '\(old.id)', and lose it under a new id; to keep them, write `id: \(old.id)` in \(animal.sourcePath)",
                at: SourceLocation(path: animal.sourcePath, line: 1, column: 1), stage: "validate"))
        }
        return diagnostics
    }
}
