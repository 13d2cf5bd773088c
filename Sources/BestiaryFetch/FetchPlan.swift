import BestiaryContent
import BestiaryDiagnostics
import BestiaryWikipedia

/// One article to fetch: a distinct (language, normalised title), with every record that asks
/// for it (so a failure is reported at each record's `wikipedia.LANG` line).
public struct FetchJob: Hashable, Sendable {
    public struct Requester: Hashable, Sendable {
        public var animalID: String
        /// The record's `wikipedia.LANG` field.
        public var location: SourceLocation
        /// The title as the record writes it.
        public var title: String

        public init(animalID: String, location: SourceLocation, title: String) {
            self.animalID = animalID
            self.location = location
            self.title = title
        }
    }

    public var language: String
    /// ``WikipediaTitle/normalize(_:)`` form.
    public var title: String
    public var requesters: [Requester]

    public init(language: String, title: String, requesters: [Requester]) {
        self.language = language
        self.title = WikipediaTitle.normalize(title)
        self.requesters = requesters
    }

    /// `de:Rotfuchs`, for progress lines.
    public var label: String { "\(language):\(WikipediaTitle.readable(title))" }
}

/// Turns a catalogue into jobs: one per distinct (language, title), sorted, so that two records
/// naming the same article (or `Red fox` and `Red_fox`) cause one request.
public enum FetchPlan {
    /// Jobs for `ids` (all records when empty). Unknown ids are returned separately.
    public static func jobs(for catalog: Catalog, ids: [String] = []) -> (jobs: [FetchJob], unknownIDs: [String]) {
        var animals = catalog.animals
        var unknown: [String] = []
        if !ids.isEmpty {
            let wanted = Set(ids)
            unknown = ids.filter { id in !catalog.animals.contains { $0.id == id } }
            animals = animals.filter { wanted.contains($0.id) }
        }
        var byKey: [WikipediaSnapshot.Key: FetchJob] = [:]
        for animal in animals {
            for (language, title) in animal.wikipedia.sorted(by: { $0.key < $1.key }) {
                let normalized = WikipediaTitle.normalize(title)
                guard !normalized.isEmpty else { continue }
                let key = WikipediaSnapshot.Key(language: language, title: normalized)
                let requester = FetchJob.Requester(animalID: animal.id, location: animal.location(of: "wikipedia.\(language)"), title: title)
                byKey[key, default: FetchJob(language: language, title: normalized, requesters: [])].requesters.append(requester)
            }
        }
        return (byKey.keys.sorted().map { byKey[$0]! }, unknown)
    }
}
