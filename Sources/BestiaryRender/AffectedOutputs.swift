import BestiaryContent

/// Which outputs an edit of some records can change, by rule rather than by computing every
/// page's digest: step 2 of the rebuild that follows the change (docs/change-driven-rebuild.md).
/// Proved against today's rebuild by `RandomEditTests`: every file a rebuild after a records-only
/// edit changes is among these.
///
/// - An animal's pages (each language's) show it and its similar animals (``SharedContext/similar(to:in:keep:)``:
///   up to 6 of its group, by difficulty and id). So they change when the animal changed, when
///   its similar animals are others now, or when one of them changed (its card).
/// - The outputs made from every animal (``sharedPaths(languages:defaultLanguage:)``: the lists,
///   home, quiz and settings, the catalogue and its descriptions, the service worker, the packs,
///   the media files) may change with any record.
/// - The sitemap, free pages, the offline and 404 pages, the web manifest and the theme's assets
///   do not depend on a record's fields; an edit that adds or removes a record is not taken
///   (nil): its id changes the sitemap and the lists' shapes.
public struct AffectedOutputs: Equatable, Sendable {
    /// The animal pages (output paths, `animals/ID/index.html` and each other language's) that
    /// may change.
    public var animalPages: Set<String>
    /// The ids whose pages those are: the changed animals and those that show one of them, or
    /// show other similar animals now.
    public var animals: Set<String>
    /// The other outputs that may change: paths, and folders ending in `/` for everything below.
    public var shared: [String]

    /// What choosing an animal's similar animals reads of it (``SharedContext/similar(to:in:keep:)``).
    public struct Placement: Equatable, Sendable {
        public var id: String
        public var group: String?
        public var difficulty: Int?

        public init(id: String, group: String?, difficulty: Int?) {
            self.id = id
            self.group = group
            self.difficulty = difficulty
        }

        public init(_ animal: Animal) {
            self.init(id: animal.id, group: animal.group, difficulty: animal.difficulty)
        }
    }

    /// The outputs `before` → `after` can change when the records of `changed` (ids) were edited;
    /// nil when the two catalogues do not hold the same ids (a record added or removed), or an
    /// id twice (no build makes such a catalogue).
    public static func of(before: [Animal], after: [Animal], changed: Set<String>, config: SiteConfig) -> AffectedOutputs? {
        let ids = Set(before.map(\.id))
        guard ids.count == before.count, before.count == after.count, Set(after.map(\.id)) == ids else { return nil }
        let new = Dictionary(uniqueKeysWithValues: after.map { ($0.id, Placement($0)) })
        return of(before.map { (Placement($0), new[$0.id]!) }, changed: changed, config: config)
    }

    /// ``of(before:after:changed:config:)`` of each animal's placement before and after the edit
    /// (`places`: one pair per animal, both of its id; no id twice). Only the animals of the
    /// groups a changed animal (or one placed elsewhere) was or is in are looked at further: the
    /// similar animals are of one group, and every other group's levels are as they were.
    public static func of(_ places: [(before: Placement, after: Placement)], changed: Set<String>, config: SiteConfig) -> AffectedOutputs {
        var groups = Set<String>()
        // (And those of an animal placed elsewhere though not named changed: none in a build.)
        for (old, new) in places where old != new || changed.contains(old.id) {
            if let g = old.group { groups.insert(g) }
            if let g = new.group { groups.insert(g) }
        }
        let members = places.filter { old, new in
            old.group.map(groups.contains) == true || new.group.map(groups.contains) == true
        }
        let before = members.map(\.before), after = members.map(\.after)
        func levels(_ places: [Placement]) -> [String: SharedContext.GroupLevels] {
            SharedContext.groupLevels(places.count, id: { places[$0].id }, group: { places[$0].group }, difficulty: { places[$0].difficulty })
        }
        let levelsBefore = levels(before), levelsAfter = levels(after)
        func similar(_ place: Placement, _ levels: [String: SharedContext.GroupLevels], _ places: [Placement]) -> [String] {
            guard let group = place.group.flatMap({ levels[$0] }) else { return [] }
            return SharedContext.similar(id: place.id, difficulty: place.difficulty, in: group, keep: SharedContext.similarCount).map { places[$0].id }
        }
        var affected = changed
        for i in members.indices where !affected.contains(before[i].id) {
            let was = similar(before[i], levelsBefore, before), now = similar(after[i], levelsAfter, after)
            if was != now || was.contains(where: changed.contains) || now.contains(where: changed.contains) { affected.insert(before[i].id) }
        }
        let paths = SitePaths(defaultLanguage: config.defaultLanguage)
        var pages = Set<String>()
        for id in affected {
            for lang in config.languages { pages.insert(paths.animal(id, lang) + "index.html") }
        }
        return AffectedOutputs(
            animalPages: pages, animals: affected, shared: sharedPaths(languages: config.languages, defaultLanguage: config.defaultLanguage))
    }

    /// The outputs made from every animal.
    public static func sharedPaths(languages: [String], defaultLanguage: String) -> [String] {
        let paths = SitePaths(defaultLanguage: defaultLanguage)
        var shared: [String] = []
        for lang in languages {
            for dir in [paths.home(lang), paths.quiz(lang), paths.settings(lang), paths.collection(lang), paths.sightings(lang), paths.credits(lang)] {
                shared.append(dir + "index.html")
            }
        }
        // The catalogue and its descriptions are named by their bytes; the media files too.
        shared += ["assets/catalog.", "assets/descriptions.", "sw.js", ".bestiary-output", "packs/", "media/"]
        return shared
    }

    /// Whether the output at `path` is among these.
    public func contains(_ path: String) -> Bool {
        animalPages.contains(path) || shared.contains { $0.hasSuffix("/") || $0.hasSuffix(".") ? path.hasPrefix($0) : path == $0 }
    }
}
