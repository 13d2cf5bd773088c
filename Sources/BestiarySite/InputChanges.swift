import BestiaryContent
import BestiaryDiagnostics
import BestiaryStorage
import Foundation

/// What changed among a build's inputs since the build that made the output: the check step's
/// walk (``BuildState/snapshot(now:listing:)``) against the one that build kept
/// (``InputLedger``). A build says it before its stages ("changed since output was built:
/// content/animals/fox.md"), so a rebuild nobody expected (a day passed without
/// SOURCE_DATE_EPOCH, another binary, a stray file in `content/`) names its cause; and it is the
/// change set a rebuild that follows the change starts from (docs/change-driven-rebuild.md).
public struct InputChanges: Equatable, Sendable {
    /// Files (and links) whose metadata changed: size, time or inode.
    /// Each kind's paths are in the walk's order.
    public var modified: [String] = []
    /// Entries the walk finds now and the last build's did not.
    public var added: [String] = []
    /// Entries the last build's walk found and this one does not.
    public var removed: [String] = []
    /// Folders whose own metadata changed while nothing below them did (a file made and
    /// removed again, `touch content/animals`).
    public var folders: [String] = []
    /// What else the build depends on: the binary, options, the environment (``settingNames``).
    public var settings: [String] = []
    /// Not a change: the symbolic links below `content/animals/` in the new walk. The walk lists
    /// a link, not what it leads to, so a record read through one changes under its target's
    /// path (``unchangedAnimals(_:)`` takes no animal as unchanged while there are any).
    public var animalLinks: [String] = []

    /// Not a change: files (and links) the last build's walk found changed in the 2 s before
    /// that build began, or later (``unsettled(_:before:)``), that are not among the changes. A
    /// change made to one within its clock's resolution could have left its metadata as that walk
    /// found it, so ``unchangedAnimals(_:)`` takes them as edited. Not said to the user, not
    /// counted, and not compared by `==`.
    public var unsettled: [String] = []

    /// Equal when they name the same changes (``unsettled`` is not one).
    public static func == (a: InputChanges, b: InputChanges) -> Bool {
        a.modified == b.modified && a.added == b.added && a.removed == b.removed && a.folders == b.folders
            && a.settings == b.settings && a.animalLinks == b.animalLinks
    }

    public var isEmpty: Bool {
        modified.isEmpty && added.isEmpty && removed.isEmpty && folders.isEmpty && settings.isEmpty
    }

    /// How many changes there are, settings included.
    public var count: Int { modified.count + added.count + removed.count + folders.count + settings.count }

    /// The ids of the animals none of whose files is among these changes, when the changes are
    /// edits of record files (`content/animals/…/ID.md`, `ID.LANG.md`) and nothing else; nil
    /// otherwise. An animal's page inputs and pack record are made from its record and
    /// translation files, its media, its Wikipedia entries, site.yml, the binary and the options:
    /// for these animals all of them are as the last build found them, so what that build
    /// digested of them still holds (docs/change-driven-rebuild.md, step 2). A record file is
    /// matched to its animal by folder and name, up to the name's first dot. Nil too while a
    /// record or translation is a symbolic link (``animalLinks``): its animal changes with a file
    /// under another name. (A file changed while the build runs is not among the changes: the
    /// build may then show its animal as it was. A rebuild records the walk it started from,
    /// which that file no longer matches, so the next build names the file and makes again what
    /// showed the animal, starting from what this one read. An animal one of whose files the build
    /// read with other metadata than the walk found, the build takes out of these itself
    /// (``ContentLoader/Result/readAfterAChange``): its pages show what was read, so it is
    /// digested and kept as read, and the build records no fingerprint. A full build records none
    /// either then, and the next digests every animal. A media file so read, or a cached picture
    /// whose check did not stand as the last build made it (the walk sees the pictures' folder by
    /// its own metadata), and the build takes no animal as unchanged.)
    public func unchangedAnimals(_ animals: [Animal]) -> Set<String>? {
        guard !modified.isEmpty, added.isEmpty, removed.isEmpty, folders.isEmpty, settings.isEmpty, animalLinks.isEmpty,
            unsettled.allSatisfy({ $0.hasPrefix("content/animals/") && $0.hasSuffix(".md") }),
            modified.allSatisfy({ $0.hasPrefix("content/animals/") && $0.hasSuffix(".md") })
        else { return nil }
        let edited = Set((modified + unsettled).map(Self.recordStem))
        var unchanged = Set<String>()
        unchanged.reserveCapacity(animals.count)
        for animal in animals where !edited.contains(Self.recordStem(animal.sourcePath)) { unchanged.insert(animal.id) }
        return unchanged
    }

    /// `content/animals/birds/owl` for `content/animals/birds/owl.md` and `…/owl.de.md`: up to
    /// the first "." byte of the name, found among the path's bytes in place (by characters,
    /// 10,000 records' paths took 17 ms of a rebuild's serial stretch). A "." that a combining
    /// mark follows ends the stem too: two paths with one stem by characters have one by bytes,
    /// so no edited record is taken as unchanged.
    static func recordStem(_ path: String) -> Substring {
        var copy = path
        let length = copy.withUTF8 { bytes -> Int in
            let name = bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
            return bytes[name...].firstIndex(of: UInt8(ascii: ".")) ?? bytes.count
        }
        return path[..<path.utf8.index(path.utf8.startIndex, offsetBy: length)]
    }

    /// How a setting line of the snapshot is named to the user.
    static let settingNames: [String: String] = [
        "tool": "the bestiary binary (or a library it runs with)",
        "base-url": "--base-url",
        "locked": "--locked",
        "records-pack-versions": "whether pack versions are recorded (bestiary serve records none)",
        "signs-packs": "--unsigned",
        "signing-key-file": "--signing-key",
        "signing-key-env": "BESTIARY_SIGNING_KEY",
        "source-date-epoch": "SOURCE_DATE_EPOCH",
        "day": "the day (without SOURCE_DATE_EPOCH, a build renews the packs' expiry each day)",
    ]

    /// The changes as one line: the first `limit` of them, then how many more. A control
    /// character in a path (a file's name may hold an escape or a line break) is written as an
    /// escape, as in a diagnostic's location, so the line stays one line and the terminal's own.
    public func summary(limit: Int = 5) -> String {
        let line = SourceLocation.oneLine
        var items: [String] = settings
        items += modified.map(line)
        items += added.map { line($0) + " (new)" }
        items += removed.map { line($0) + " (removed)" }
        items += folders.map { line($0) + "/ (the folder)" }
        guard items.count > limit else { return items.joined(separator: ", ") }
        return items.prefix(limit).joined(separator: ", ") + " and \(items.count - limit) more"
    }

    /// The changes from the snapshot `old` to `new` (lines `KEY<tab>METADATA` as
    /// ``BuildState`` makes them: the settings, then `content` and `templates` and everything
    /// below them, depth first in the byte order of the names). `unsettled`: the files the walk
    /// `old` found changed just before its build began (``unsettled(_:before:)``); those not
    /// among the changes are kept as ``unsettled``. `changedBytes`: files whose lines are the same
    /// in both but whose bytes were found changed (a change within the clock's resolution of the
    /// one before): among the modified.
    public static func between(_ old: [String], _ new: [String], unsettled: [String] = [], changedBytes: [String] = []) -> InputChanges {
        var changes = InputChanges()
        let changedBytes = Set(changedBytes.map { Array($0.utf8) })
        let oldWalk = walkStart(old), newWalk = walkStart(new)
        let oldSettingLines = old[..<oldWalk].compactMap(setting), newSettingLines = new[..<newWalk].compactMap(setting)
        let oldSettings = Dictionary(oldSettingLines, uniquingKeysWith: { _, last in last })
        let newSettings = Dictionary(newSettingLines, uniquingKeysWith: { _, last in last })
        // In the snapshot's order (the dictionaries' would differ from run to run).
        for (key, value) in newSettingLines where oldSettings[key] != value {
            // SOURCE_DATE_EPOCH set or unset shows as one line in place of another.
            let name = key == "day" && oldSettings["source-date-epoch"] != nil ? "source-date-epoch" : String(key)
            let named = settingNames[name] ?? name
            if !changes.settings.contains(named) { changes.settings.append(named) }
        }
        for (key, _) in oldSettingLines where newSettings[key] == nil && !(key == "day" || key == "source-date-epoch") {
            changes.settings.append(settingNames[String(key)] ?? String(key))
        }
        // One ordered pass over both walks; a line the same in both (nearly all) is not taken apart.
        var folderChanges: [Substring] = []
        var i = oldWalk, j = newWalk
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, sameBytes(old[i], new[j]) {
                if !changedBytes.isEmpty, let a = entry(old[i]), changedBytes.contains(Array(a.key.utf8)) { changes.modified.append(String(a.key)) }
                i += 1
                j += 1
                continue
            }
            let a = i < old.count ? entry(old[i]) : nil, b = j < new.count ? entry(new[j]) : nil
            if i < old.count, a == nil {
                i += 1
                continue
            }
            if j < new.count, b == nil {
                j += 1
                continue
            }
            guard let a else {
                changes.added.append(String(b!.key))
                j += 1
                continue
            }
            guard let b else {
                changes.removed.append(String(a.key))
                i += 1
                continue
            }
            let order = compare(a.key, b.key)
            if order < 0 {
                changes.removed.append(String(a.key))
                i += 1
            } else if order > 0 {
                changes.added.append(String(b.key))
                j += 1
            } else {
                if !a.value.utf8.elementsEqual(b.value.utf8) {
                    if a.value.first == "d" && b.value.first == "d" { folderChanges.append(b.key) } else { changes.modified.append(String(b.key)) }
                }
                i += 1
                j += 1
            }
        }
        if !unsettled.isEmpty {
            // By bytes (`==` would take two spellings of one accented letter as one path).
            var named = Set((changes.modified + changes.added + changes.removed).map { Array($0.utf8) })
            for path in unsettled where named.insert(Array(path.utf8)).inserted { changes.unsettled.append(path) }
        }
        // A folder whose time changed because an entry below it did is said through that entry.
        var holding = Set<Substring>()
        for path in changes.modified + changes.added + changes.removed {
            var rest = Substring(path)
            while let slash = rest.utf8.lastIndex(of: UInt8(ascii: "/")) {
                rest = rest[..<slash]
                if !holding.insert(rest).inserted { break }
            }
        }
        for folder in folderChanges where !holding.contains(folder) { changes.folders.append(String(folder)) }
        for line in new[newWalk...] where line.utf8.starts(with: "content/animals/".utf8) {
            if let (key, value) = entry(line), value.first == "l" { changes.animalLinks.append(String(key)) }
        }
        return changes
    }

    typealias Entry = (key: Substring, value: Substring)

    /// A line's key and metadata (after its last tab: the metadata never holds one, a path may).
    private static func entry(_ line: String) -> Entry? {
        guard let tab = line.utf8.lastIndex(of: UInt8(ascii: "\t")) else { return nil }
        return (line[..<tab], line[line.index(after: tab)...])
    }

    /// A setting line's key and value: its key is one of ours (no tab), its value may hold a
    /// path (the signing key's), which may hold a tab.
    private static func setting(_ line: String) -> Entry? {
        guard let tab = line.utf8.firstIndex(of: UInt8(ascii: "\t")) else { return nil }
        return (line[..<tab], line[line.index(after: tab)...])
    }

    /// Whether two lines hold the same bytes. Not `==`, which takes two spellings of one accented
    /// letter (composed and decomposed: a file renamed from one to the other) as equal.
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        let fast = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
        return (fast ?? nil) ?? a.utf8.elementsEqual(b.utf8)
    }

    /// Where the walk's lines begin, after the settings: at `content`'s or `templates`' line.
    private static func walkStart(_ lines: [String]) -> Int {
        lines.firstIndex { line in
            ["content", "templates"].contains { line.hasPrefix($0 + "\t") || line.hasPrefix($0 + "/") }
        } ?? lines.count
    }

    /// The changes from `old`, the walk a build that began at `started` made, to `new`, with the
    /// files `old` found changed in the 2 s before `started` (or later) as ``unsettled``.
    static func since(_ old: [String], walkedBefore started: Int64, to new: [String]) -> InputChanges {
        between(old, new, unsettled: unsettled(old, before: started))
    }

    /// The files and links of `walk` (not folders) whose time is less than 2 s before `started`
    /// (nanoseconds since 1970), or later (``FileInfo/isSettled(before:)``): a later change to
    /// one within its clock's resolution could leave its metadata as the walk found it. Read
    /// from each line's metadata (``BuildState/describe(_:)``: kind, size, time, inode, device).
    static func unsettled(_ walk: [String], before started: Int64) -> [String] {
        var paths: [String] = []
        for line in walk[walkStart(walk)...] {
            guard let (key, value) = entry(line), value.first == "f" || value.first == "l" else { continue }
            let fields = value.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count > 2, let time = Int64(fields[2]), time < started - FileInfo.racyNanoseconds else {
                paths.append(String(key))
                continue
            }
        }
        return paths
    }

    /// The walk's order: part by part, each part by its bytes, a folder before what is below it.
    static func compare(_ a: Substring, _ b: Substring) -> Int {
        var x = a.utf8.makeIterator(), y = b.utf8.makeIterator()
        while true {
            let p = x.next(), q = y.next()
            switch (p, q) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case let (p?, q?):
                if p == q { continue }
                // The end of a part comes before any byte of a longer part.
                if p == UInt8(ascii: "/") { return -1 }
                if q == UInt8(ascii: "/") { return 1 }
                return p < q ? -1 : 1
            }
        }
    }
}

/// The snapshot of the inputs the last complete build was made from, kept next to the output
/// (`.NAME.bestiary-inputs`) with its fingerprint (``BuildState``): written when the fingerprint
/// is recorded, removed when it is forgotten. Each line with its length first (a path may hold a
/// line break).
struct InputLedger {
    static let header = Array("bestiary-inputs 1\n".utf8)

    static func save(_ lines: [String], to path: String, fileSystem fs: any FileSystem) {
        var bytes = header
        bytes.reserveCapacity(lines.reduce(header.count) { $0 + 4 + $1.utf8.count })
        for line in lines {
            withUnsafeBytes(of: UInt32(line.utf8.count).littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: line.utf8)
        }
        do {
            try fs.writeAtomically(bytes: bytes, to: path)
        } catch {
            // Without it the next build says nothing of what changed: it must not say something untrue.
            try? fs.remove(path)
        }
    }

    /// The lines kept at `path`; nil when there are none, or they are damaged.
    static func load(_ path: String, fileSystem fs: any FileSystem) -> [String]? {
        guard let data = try? fs.read(path), data.count >= header.count else { return nil }
        return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> [String]? in
            guard raw.prefix(header.count).elementsEqual(header) else { return nil }
            var lines: [String] = []
            var at = header.count
            while at < raw.count {
                guard raw.count - at >= 4 else { return nil }
                var length: UInt32 = 0
                withUnsafeMutableBytes(of: &length) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[at..<at + 4])) }
                at += 4
                let n = Int(UInt32(littleEndian: length))
                guard raw.count - at >= n else { return nil }
                lines.append(String(decoding: UnsafeRawBufferPointer(rebasing: raw[at..<at + n]), as: UTF8.self))
                at += n
            }
            return lines
        }
    }

    static func forget(_ path: String, fileSystem fs: any FileSystem) {
        try? fs.remove(path)
    }
}
