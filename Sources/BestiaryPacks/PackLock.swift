import BestiaryContent
import BestiaryDiagnostics
import BestiaryPackFormat
import BestiaryStorage
import Foundation

/// `content/packs.lock`: the committed history of every published pack version, like a
/// package manager's lockfile. Each version stores what changed since the one before (records
/// added, changed, removed, with their revs), its record count and its state digest, so a diff
/// of the file shows exactly what a build published, and the file grows by the change only.
///
///     bestiary-pack-lock 2
///     pack tuxpaint
///
///     version 1 created 2026-01-01T00:00:00Z records 2 digest 5d1c… seal 8e0a…
///     + badger 0b6e…
///     + bear 77a0…
///
///     version 2 created 2026-02-01T00:00:00Z records 2 digest 91fe… seal 2b47…
///     ~ bear 3c2d…
///     - badger
///     + beaver 18aa…
///
/// Versions are numbered 1, 2, 3… and only grow: a client refuses to go back, so a lock that
/// loses versions would strand them. Reading replays every version and checks each one's record
/// count and digest, so a hand edit is caught with the line it broke. The digest covers the
/// records only; each version line's `seal` (the SHA-256 of the line before it) covers the rest,
/// the date above all: a version published again with another date strands every app that has it.
/// The format's number says whether there are seals: `bestiary-pack-lock 2` has one on every
/// version line; a lock written before seals (`bestiary-pack-lock 1`) has none, is read as it is,
/// and is written again as format 2 when a build adds the next version. (So deleting the seals of
/// a format 2 lock does not get an edit past them, and a binary from before seals refuses a
/// format 2 lock by its first line rather than by a version line it does not understand.) A build checks the digests
/// of only the versions it uses (the newest and the bases of its deltas: hashing every version's
/// state would cost versions × records); `bestiary check` checks them all.
public struct PackLock: Hashable, Sendable {
    /// Relative to the site root.
    public static let path = "content/packs.lock"
    static let magic = "bestiary-pack-lock 2"
    /// The format before seals: still read.
    static let unsealedMagic = "bestiary-pack-lock 1"

    public enum Change: Hashable, Sendable {
        case added(id: String, rev: String)
        case changed(id: String, rev: String)
        case removed(id: String)

        public var id: String {
            switch self {
            case .added(let id, _), .changed(let id, _), .removed(let id): id
            }
        }

        /// The record's rev after the change; nil when it was removed.
        public var rev: String? {
            switch self {
            case .added(_, let rev), .changed(_, let rev): rev
            case .removed: nil
            }
        }
    }

    public struct Version: Hashable, Sendable {
        public var number: Int
        public var created: PackTime
        public var count: Int
        public var digest: String
        /// Sorted by id.
        public var changes: [Change]
    }

    public var pack: String
    /// Ascending, numbered from 1 without gaps.
    public private(set) var versions: [Version]
    /// The record revs of the newest version.
    public private(set) var latestRevisions: [String: String]

    public init(pack: String) {
        self.pack = pack
        self.versions = []
        self.latestRevisions = [:]
    }

    public var latest: Version? { versions.last }

    /// Adds a version whose records have `revisions`, made at `created`; returns its number.
    /// `digest`: their ``PackDigest/state(_:)``, when the caller made it already.
    @discardableResult
    public mutating func append(revisions: [String: String], created: PackTime, digest: String? = nil) -> Int {
        var changes: [Change] = []
        for (id, rev) in revisions {
            if let old = latestRevisions[id] {
                if old != rev { changes.append(.changed(id: id, rev: rev)) }
            } else {
                changes.append(.added(id: id, rev: rev))
            }
        }
        for id in latestRevisions.keys where revisions[id] == nil { changes.append(.removed(id: id)) }
        changes.sort { CanonicalJSON.codePointOrder($0.id, $1.id) }
        let number = (versions.last?.number ?? 0) + 1
        versions.append(Version(
            number: number, created: created, count: revisions.count, digest: digest ?? PackDigest.state(revisions), changes: changes))
        latestRevisions = revisions
        return number
    }

    /// The record revs of the given versions (replaying the history once).
    public func revisions(of wanted: Set<Int>) -> [Int: [String: String]] {
        var state: [String: String] = [:]
        var result: [Int: [String: String]] = [:]
        for v in versions {
            Self.apply(v.changes, to: &state)
            if wanted.contains(v.number) { result[v.number] = state }
        }
        return result
    }

    /// For each of the `wanted` versions, the records that changed after it (up to the newest
    /// version), each with its rev at that version (nil: it was not there). Replays only those
    /// records: the few a delta needs, not 10,000 revs per version.
    public func changes(since wanted: Set<Int>) -> [Int: [String: String?]] {
        guard let first = wanted.min() else { return [:] }
        // The ids changed after each wanted version, from the newest version down.
        var after = Set<String>()
        var changedAfter: [Int: Set<String>] = [:]
        for v in versions.reversed() where v.number > first {
            after.formUnion(v.changes.lazy.map(\.id))
            if wanted.contains(v.number - 1) { changedAfter[v.number - 1] = after }
        }
        for number in wanted where changedAfter[number] == nil { changedAfter[number] = [] }  // the newest
        // Their revs, replayed from version 1.
        var state: [String: String] = [:]
        var result: [Int: [String: String?]] = [:]
        for v in versions {
            for c in v.changes where after.contains(c.id) { state[c.id] = c.rev }
            if let ids = changedAfter[v.number] {
                var revs: [String: String?] = [:]
                for id in ids { revs[id] = .some(state[id]) }
                result[v.number] = revs
            }
        }
        return result
    }

    private static func apply(_ changes: [Change], to state: inout [String: String]) {
        for c in changes { state[c.id] = c.rev }
    }

    // MARK: Text form

    /// The file's bytes: deterministic for the same history.
    public var encoded: Data {
        var out = """
            # content/packs.lock: every published version of the content pack '\(pack)'.
            # Written by `bestiary build`; commit it and never edit it by hand. Apps sync by these
            # version numbers and refuse to go back, so versions must never be removed or renumbered.
            \(Self.magic)
            pack \(pack)

            """
        for v in versions {
            let line = Self.versionLine(v)
            out += "\n\(line) seal \(Self.seal(line))\n"
            for c in v.changes {
                switch c {
                case .added(let id, let rev): out += "+ \(id) \(rev)\n"
                case .changed(let id, let rev): out += "~ \(id) \(rev)\n"
                case .removed(let id): out += "- \(id)\n"
                }
            }
        }
        return Data(out.utf8)
    }

    /// `version N created T records C digest D`: what a version line's seal covers.
    static func versionLine(_ v: Version) -> String {
        "version \(v.number) created \(v.created) records \(v.count) digest \(v.digest)"
    }

    static func seal(_ versionLine: String) -> String {
        PackDigest.sha256(Data(versionLine.utf8))
    }

    /// Reads `content/packs.lock` under `root`; nil when there is none yet. With
    /// `checkingDigestsOfLast`, only the digests of that many newest versions are checked.
    public static func load(
        root: String, fileSystem: any FileSystem = LocalFileSystem(), checkingDigestsOfLast recent: Int? = nil
    ) throws(DiagnosticError) -> PackLock? {
        try read(root: root, fileSystem: fileSystem).map { data throws(DiagnosticError) in try parse(data, checkingDigestsOfLast: recent) }
    }

    /// The bytes of `content/packs.lock` under `root`, not parsed; nil when there is none yet.
    public static func read(root: String, fileSystem: any FileSystem = LocalFileSystem()) throws(DiagnosticError) -> Data? {
        let full = (root == "." ? "" : root + "/") + path
        guard let info = fileSystem.infoFollowingLinks(full) ?? fileSystem.info(full) else { return nil }
        // A pipe would block the build until something writes to it.
        guard info.kind == .file else {
            throw DiagnosticError(.error("the pack history is not a regular file (a pipe, a device, a socket or a folder)", at: SourceLocation(path: path), stage: "packs"))
        }
        let data: Data
        do {
            data = try fileSystem.read(full)
        } catch {
            throw DiagnosticError(.error("cannot read the pack history: \(error)", at: SourceLocation(path: path), stage: "packs"))
        }
        return data
    }

    /// Parses and checks the text form; `path` names the file in diagnostics. Every version's
    /// digest is checked, or with `checkingDigestsOfLast`, only that many newest versions'.
    public static func parse(
        _ data: Data, path: String = PackLock.path, checkingDigestsOfLast recent: Int? = nil
    ) throws(DiagnosticError) -> PackLock {
        func fail(_ line: Int, _ message: String) -> DiagnosticError {
            DiagnosticError(.error(
                "\(message); restore the file from version control (it is written by `bestiary build`)",
                at: SourceLocation(path: path, line: line, column: 1), stage: "packs"))
        }
        // Named where the first byte that is not UTF-8 sits (a bad merge, an editor's encoding).
        if let (location, problem) = SourceText.invalidUTF8(in: data, path: path) {
            throw DiagnosticError(.error(
                "the pack history is not UTF-8 text (\(problem)); restore the file from version control (it is written by `bestiary build`)",
                at: location, stage: "packs"))
        }
        // Read as bytes (0.1 s of every rebuild went to splitting 10,000 lines into characters
        // and words): the file is ASCII as the build writes it, and every byte sliced at is
        // ASCII, so each piece is whole UTF-8. An editor's byte-order mark is not part of it.
        let bytes = [UInt8](data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data)
        let lines = TextLines(bytes)
        // A merge of two branches that each recorded a version.
        if let conflict = lines.ranges.firstIndex(where: { lines.starts($0, with: "<<<<<<< ") || lines.equals($0, "<<<<<<<") }) {
            throw DiagnosticError(.error(
                "the pack history has merge conflict markers: two branches each recorded a version. Keep the history of the branch whose packs were published (`git checkout --ours \(path)` or `--theirs`; never merge the two by hand) and build again: the build records the merged content as the next version",
                at: SourceLocation(path: path, line: conflict + 1, column: 1), stage: "packs"))
        }
        var lock: PackLock? = nil
        var sawMagic = false
        var current: Version? = nil
        var currentLine = 0
        var state: [String: String] = [:]
        // The checked versions' states, sorted once (at the first checked version) and then
        // changed as each next version says.
        var sorted: PackDigest.SortedState? = nil
        // Whether the version lines carry seals: the format's number says.
        var sealed = true
        // Versions go up by one from 1 (checked below), so the newest is the number of version lines.
        let firstChecked = recent.map { window in
            lines.ranges.count(where: { lines.starts(lines.trimmed($0), with: "version ") }) - window + 1
        } ?? 1

        func finish(_ version: Version?, line: Int, lock: inout PackLock?) throws(DiagnosticError) {
            guard let version, lock != nil else { return }
            if state.count != version.count {
                throw fail(line, "version \(version.number) says \(version.count) records, but its changes leave \(state.count)")
            }
            if version.number >= firstChecked {
                if sorted == nil {
                    sorted = PackDigest.SortedState(state)
                } else {
                    for change in version.changes { sorted!.set(change.id, rev: change.rev) }
                }
                if sorted!.digest != version.digest {
                    throw fail(line, "version \(version.number)'s records do not match its digest")
                }
            }
            lock!.versions.append(version)
        }

        var spans: [Range<Int>] = []
        for (n, raw) in lines.ranges.enumerated() {
            let line = n + 1
            // Spaces and tabs around a line are ignored.
            let trimmed = lines.trimmed(raw)
            if trimmed.isEmpty || bytes[trimmed.lowerBound] == UInt8(ascii: "#") { continue }
            if !sawMagic {
                guard lines.equals(trimmed, magic) || lines.equals(trimmed, unsealedMagic) else {
                    throw fail(line, "expected '\(magic)' as the first line that is not a comment\(lines.starts(trimmed, with: "bestiary-pack-lock ") ? " (a newer format? this bestiary reads formats 1 and 2)" : "")")
                }
                sealed = lines.equals(trimmed, magic)
                sawMagic = true
                continue
            }
            // A record line (most of them) is read without an array of words made for it.
            lines.words(trimmed, into: &spans)
            if lock != nil, let op = lines.recordOperation(spans) {
                guard current != nil else { throw fail(line, "a record line before the first 'version' line") }
                let isRemoval = op == UInt8(ascii: "-")
                let id = spans.count > 1 ? lines.text(spans[1]) : ""
                let rev = spans.count > 2 ? lines.text(spans[2]) : ""
                guard spans.count == (isRemoval ? 2 : 3), PackFormat.isValidID(id), isRemoval || PackFormat.isSHA256(rev) else {
                    throw fail(line, isRemoval ? "expected '- ID'" : "expected '\(lines.text(spans[0])) ID REV'")
                }
                if let last = current!.changes.last, !CanonicalJSON.codePointOrder(last.id, id) {
                    throw fail(line, "record lines must be sorted by id, each id once per version")
                }
                switch op {
                case UInt8(ascii: "+"):
                    guard state[id] == nil else { throw fail(line, "'\(id)' is added but already exists") }
                    state[id] = rev
                    current!.changes.append(.added(id: id, rev: rev))
                case UInt8(ascii: "~"):
                    guard let old = state[id] else { throw fail(line, "'\(id)' is changed but does not exist") }
                    guard old != rev else { throw fail(line, "'\(id)' is marked changed with the same rev") }
                    state[id] = rev
                    current!.changes.append(.changed(id: id, rev: rev))
                default:
                    guard state[id] != nil else { throw fail(line, "'\(id)' is removed but does not exist") }
                    state[id] = nil
                    current!.changes.append(.removed(id: id))
                }
                continue
            }
            let words = spans.map(lines.text)
            if lock == nil {
                guard words.count == 2, words[0] == "pack", PackFormat.isValidID(words[1]) else {
                    throw fail(line, "expected 'pack ID'")
                }
                lock = PackLock(pack: words[1])
                continue
            }
            switch words[0] {
            case "version":
                try finish(current, line: currentLine, lock: &lock)
                guard words.count == (sealed ? 10 : 8), !sealed || (words[8] == "seal" && PackFormat.isSHA256(words[9])),
                    words[2] == "created", words[4] == "records", words[6] == "digest",
                    let number = Int(words[1]), let created = PackTime(words[3]), let count = Int(words[5]), count >= 0,
                    PackFormat.isSHA256(words[7])
                else {
                    throw fail(line, sealed
                        ? "expected 'version N created YYYY-MM-DDTHH:MM:SSZ records COUNT digest SHA256 seal SHA256' (every version line of a '\(magic)' file ends in its seal)"
                        : "expected 'version N created YYYY-MM-DDTHH:MM:SSZ records COUNT digest SHA256' (a '\(unsealedMagic)' file has no seals)")
                }
                let expected = (current?.number ?? lock!.versions.last?.number ?? 0) + 1
                guard number == expected else { throw fail(line, "version \(number) follows version \(expected - 1); versions go up by one") }
                if let previous = current ?? lock!.versions.last, created < previous.created {
                    throw fail(line, "version \(number) is dated before version \(previous.number)")
                }
                let version = Version(number: number, created: created, count: count, digest: words[7], changes: [])
                if sealed, seal(versionLine(version)) != words[9] {
                    throw fail(line, "version \(number)'s line does not match its seal: its date, count or digest was edited, and apps that have this version would refuse it published again")
                }
                current = version
                currentLine = line
            default:
                throw fail(line, "unexpected line; expected 'version …' or a record line '+ ID REV', '~ ID REV', '- ID'")
            }
        }
        try finish(current, line: currentLine, lock: &lock)
        guard var result = lock else { throw fail(1, sawMagic ? "no 'pack ID' line" : "the pack history is empty") }
        result.latestRevisions = state
        return result
    }
}

/// The lines of a text's bytes, split at each line feed (a carriage return before it, as git's
/// autocrlf on Windows writes, is not part of the line), with the line after the last line feed
/// (empty when the text ends with one): line N is `ranges[N - 1]`.
private struct TextLines {
    let bytes: [UInt8]
    let ranges: [Range<Int>]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var ranges: [Range<Int>] = []
        var start = 0
        for i in bytes.indices where bytes[i] == 10 {
            ranges.append(start..<(i > start && bytes[i - 1] == 13 ? i - 1 : i))
            start = i + 1
        }
        ranges.append(start..<bytes.count)
        self.ranges = ranges
    }

    /// `range` less the spaces and tabs at either end.
    func trimmed(_ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, bytes[lower] == 32 || bytes[lower] == 9 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 32 || bytes[upper - 1] == 9 { upper -= 1 }
        return lower..<upper
    }

    /// The words of `range` (split at spaces, none empty) into `words`.
    func words(_ range: Range<Int>, into words: inout [Range<Int>]) {
        words.removeAll(keepingCapacity: true)
        var start: Int? = nil
        for i in range {
            if bytes[i] == 32 {
                if let s = start { words.append(s..<i); start = nil }
            } else if start == nil {
                start = i
            }
        }
        if let s = start { words.append(s..<range.upperBound) }
    }

    /// `+`, `~` or `-` when the first word is that one character alone.
    func recordOperation(_ words: [Range<Int>]) -> UInt8? {
        guard let first = words.first, first.count == 1 else { return nil }
        let op = bytes[first.lowerBound]
        return op == UInt8(ascii: "+") || op == UInt8(ascii: "~") || op == UInt8(ascii: "-") ? op : nil
    }

    func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    func equals(_ range: Range<Int>, _ text: String) -> Bool { bytes[range].elementsEqual(text.utf8) }

    func starts(_ range: Range<Int>, with prefix: String) -> Bool { bytes[range].starts(with: prefix.utf8) }
}
