import BestiaryDiagnostics
import BestiaryWikipedia
import Foundation

/// The cache during one fetch: what was on disk at the start plus what this run wrote. All
/// entry writes go through this actor, so two titles that lead to one article (a redirect and
/// its target) merge their `requested` lists instead of overwriting each other.
actor CacheSession {
    let cache: WikipediaCache
    private var entries: [WikipediaSnapshot.Key: WikipediaEntry]
    private var index: [WikipediaSnapshot.Key: WikipediaSnapshot.Key]

    init(cache: WikipediaCache, snapshot: WikipediaSnapshot) {
        self.cache = cache
        self.entries = snapshot.entries
        self.index = snapshot.index
    }

    /// The cached entry a requested title leads to.
    func entry(language: String, requested title: String) -> WikipediaEntry? {
        index[WikipediaSnapshot.Key(language: language, title: WikipediaTitle.normalize(title))].flatMap { entries[$0] }
    }

    func entry(language: String, canonical title: String) -> WikipediaEntry? {
        entries[WikipediaSnapshot.Key(language: language, title: title)]
    }

    /// Writes `entry`, reached by asking for `requested`: keeps titles other records asked for
    /// that led here before, and takes `requested` away from an entry it used to lead to.
    func commit(_ entry: WikipediaEntry, requested: String) throws {
        let key = WikipediaSnapshot.Key(language: entry.language, title: entry.canonicalTitle)
        let requestedKey = WikipediaSnapshot.Key(language: entry.language, title: WikipediaTitle.normalize(requested))
        var merged = entry
        var titles = Set(entries[key]?.requested ?? [])
        titles.insert(WikipediaTitle.normalize(requested))
        merged.requested = titles.sorted()
        if let previous = index[requestedKey], previous != key, var old = entries[previous] {
            old.requested.removeAll { WikipediaTitle.normalize($0) == requestedKey.title }
            try cache.write(old)
            entries[previous] = old
        }
        if entries[key] != merged {
            try cache.write(merged)
        }
        entries[key] = merged
        index[requestedKey] = key
        index[WikipediaSnapshot.Key(language: entry.language, title: WikipediaTitle.normalize(entry.canonicalTitle))] = key
    }
}

/// Counts shared by the workers.
actor FetchTally {
    private(set) var report = FetchReport()
    private(set) var done = 0

    func record(_ outcome: FetchOutcome, requests: Int, bodies: Int) -> Int {
        switch outcome {
        case .fetched: report.fetched += 1
        case .unchanged: report.unchanged += 1
        case .failed: report.failed += 1
        }
        report.requests += requests
        report.bodies += bodies
        done += 1
        return done
    }

    private var seen = Set<Diagnostic>()

    /// Adds diagnostics, each once (a notice every response repeats is printed once).
    func add(_ diagnostics: [Diagnostic]) {
        for d in diagnostics where seen.insert(d).inserted { report.diagnostics.append(d) }
    }
}
