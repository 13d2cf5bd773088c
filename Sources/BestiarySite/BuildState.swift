import BestiaryContent
import BestiaryCrypto
import BestiaryStorage
import BestiaryWikipedia
import Foundation

/// What makes a rebuild with nothing changed cost only a walk over the inputs' metadata.
///
/// The fingerprint covers everything a build reads: every file and folder under `content/` and
/// `templates/` (path, kind, size, modification time, inode; never contents; the Wikipedia
/// cache's content-addressed images folder by its own metadata only), the `bestiary`
/// binary itself (its theme is built in), the options and environment that change the output
/// (`--base-url`, `--locked`, the signing key, `SOURCE_DATE_EPOCH`, else the UTC day, since an
/// unsigned-date build renews the pack pointer's expiry), and the output folder's identity.
///
/// It is kept next to the output (`.NAME.bestiary-state`, like the staging folder), never in it:
/// output stays a function of the inputs alone. It is written only after a complete build, and
/// a build whose fingerprint matches skips every stage.
struct BuildState {
    let options: BuildOptions
    /// ``toolIdentity(_:)``, made once per build (it reads `/proc/self/maps` and looks at every
    /// library there: three times a build took 5 % of a small site's rebuild).
    let tool: String

    /// `tool`: the identity when known (or not needed: only forgetting the state).
    init(options: BuildOptions, tool: String? = nil) {
        self.options = options
        self.tool = tool ?? Self.toolIdentity(options.fileSystem)
    }

    var path: String { kept("state") }

    /// The snapshot the recorded fingerprint was made from (``InputLedger``), kept beside it.
    var ledgerPath: String { kept("inputs") }

    private func kept(_ kind: String) -> String {
        let writer = OutputWriter(fileSystem: options.fileSystem, output: options.outputDirectory)
        return (writer.parent == "." ? "" : writer.parent + "/") + ".\(writer.name).bestiary-\(kind)"
    }

    static let header = "bestiary-build-state 1\n"

    /// One line per input: what the build reads, as it is now.
    func snapshot(now: Date) -> [String] {
        snapshot(now: now, listing: false).lines
    }

    /// What the walk of ``snapshot(now:)`` found, for the stages that would otherwise list or
    /// `stat` the same files again.
    struct Listing {
        /// The Wikipedia cache's folder (nil when `content/wikipedia` is not a folder): the cache
        /// then lists nothing again.
        var wikipedia: WikipediaCache.Listing?
        /// The other entries below `content/` (records and media among them), in the walk's order:
        /// made into a ``ListedFiles`` once the build goes on (a build with nothing to do needs none).
        var files: [(path: String, info: FileInfo?)] = []
    }

    /// ``snapshot(now:)``, and with `listing` what its walk found (``Listing``), made when asked
    /// for: a build with nothing to do, which only needs the lines, does not make it. `racy`: the
    /// files and links the walk found changed at `racyFrom` (nanoseconds since 1970) or later,
    /// not folders (a link in `templates/` by what it leads to too), in the walk's order.
    func snapshot(now: Date, listing: Bool, racyFrom: Int64 = .max) -> (lines: [String], listing: (() -> Listing)?, racy: [String]) {
        let fs = options.fileSystem
        var lines: [String] = []
        func add(_ key: String, _ value: String) { lines.append(key + "\t" + value) }
        let describe: (FileInfo?) -> String = Self.describe
        add("tool", tool)
        add("base-url", options.baseURL ?? "")
        add("locked", "\(options.locked)")
        add("records-pack-versions", "\(options.recordsPackVersions)")
        add("signs-packs", "\(options.signsPacks)")
        add("signing-key-file", (options.signingKeyFile ?? "") + " " + Self.describeKeyFile(options.signingKeyFile, fs))
        add("signing-key-env", Hashing.sha256Hex(options.environment["BESTIARY_SIGNING_KEY"] ?? ""))
        if let epoch = options.environment["SOURCE_DATE_EPOCH"] {
            add("source-date-epoch", epoch)
        } else {
            add("day", String(Int(now.timeIntervalSince1970) / 86_400))
        }
        var content: (entries: [Walked], lines: [String]) = ([], [])
        var racy: [String] = []
        func isRacy(_ info: FileInfo?) -> Bool {
            guard let info, info.kind == .file || info.kind == .symlink else { return false }
            return info.modificationTime >= racyFrom
        }
        for folder in ["content", "templates"] {
            add(folder, describe(fs.info(root(folder))))
            let entries = walk(folder)
            // Each entry's line made on every core (35,000 on the bench corpus).
            // A link in templates/ is read through (``Theme/load(root:fileSystem:)``): what it
            // leads to counts too, so that an edit of a shared file is no "up to date".
            let throughLinks = folder == "templates"
            let made = Parallel.map(entries, chunk: 1024) { entry in line(entry.path, entry.info, throughLinks: throughLinks) }
            lines.append(contentsOf: made)
            for entry in entries
            where isRacy(entry.info) || (throughLinks && entry.info?.kind == .symlink && isRacy(fs.infoFollowingLinks(root(entry.path)))) {
                racy.append(entry.path)
            }
            // Its own array, not a slice of `lines` (which the next append would then copy whole).
            if folder == "content" && listing { content = (entries, made) }
        }
        guard listing else { return (lines, nil, racy) }
        return (lines, { Self.listing(content.entries, lines: content.lines) }, racy)
    }

    /// The walk's line of the entry at `path` (relative to the root) with `info` (its `lstat`):
    /// `throughLinks`, a link with what it leads to.
    private func line(_ path: String, _ info: FileInfo?, throughLinks: Bool) -> String {
        // In one buffer, made a string once (not three strings joined).
        var line: [UInt8] = []
        line.reserveCapacity(path.utf8.count + 64)
        line.append(contentsOf: path.utf8)
        line.append(9)
        Self.describe(info, into: &line)
        if throughLinks && info?.kind == .symlink {
            line.append(contentsOf: " -> ".utf8)
            Self.describe(options.fileSystem.infoFollowingLinks(root(path)), into: &line)
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// The walk's lines (of `walk`) of the files a build reads whole before it renders, other
    /// than records and media: `content/site.yml`, the pages and their translations (`.md`), and
    /// the theme's files and links (not folders); not what editors leave beside a file (a swap
    /// file, a lock, a backup: ``EditorFiles``), which no stage reads and which changes while a
    /// file is edited. ``changedSinceWalk(_:)`` looks at them again once they are read.
    static func sourceLines(_ walk: [String]) -> [String] {
        walk.filter { line in
            guard let tab = line.utf8.lastIndex(of: 9) else { return false }
            let key = line[..<tab], kind = line.utf8[line.utf8.index(after: tab)...].first
            guard kind == UInt8(ascii: "f") || kind == UInt8(ascii: "l") else { return false }
            if key == "content/site.yml" { return true }
            let read = (key.utf8.starts(with: "content/pages/".utf8) && key.hasSuffix(".md")) || key.utf8.starts(with: "templates/".utf8)
            return read && !EditorFiles.isUnderLeftover(key)
        }
    }

    /// The paths of `lines` (the walk's, ``sourceLines(_:)``) whose files have other metadata now
    /// than the walk found: changed after it, maybe before a stage read them, so what the build
    /// read may not be what the walk describes. Compared by bytes.
    func changedSinceWalk(_ lines: [String]) -> [String] {
        let fs = options.fileSystem
        return lines.compactMap { walked in
            guard let tab = walked.utf8.lastIndex(of: 9) else { return nil }
            let path = String(walked[..<tab])
            let now = line(path, fs.info(root(path)), throughLinks: path.utf8.starts(with: "templates/".utf8))
            return InputChanges.sameBytes(now, walked) ? nil : path
        }
    }

    /// What the walk found below `content/`, sorted out for the stages: the Wikipedia cache's
    /// folder as ``WikipediaCache/load()`` lists it, with the digest of its lines, and every
    /// other entry. `lines`: each entry's line in the snapshot.
    private static func listing(_ walked: [Walked], lines: [String]) -> Listing {
        let cache = WikipediaCache.relativeDirectory, prefix = cache + "/"
        var folders: [WikipediaCache.Listing.Folder] = []
        var cacheLines: [UInt8] = []
        var isFolder = false
        var files: [(path: String, info: FileInfo?)] = []
        for ((relative, info), line) in zip(walked, lines) {
            guard relative.utf8.starts(with: cache.utf8) else {
                files.append((relative, info))
                continue
            }
            if relative.utf8.count == cache.utf8.count {
                isFolder = info?.kind == .directory
            } else if relative.utf8.starts(with: prefix.utf8) {
                list(relative.utf8.dropFirst(prefix.utf8.count), info, into: &folders)
            } else {
                files.append((relative, info))  // beside the cache's folder, such as content/wikipedia.md
                continue
            }
            // Each line's length first, as in ``digest(_:except:)``: a name may hold a line break.
            withUnsafeBytes(of: UInt64(line.utf8.count).littleEndian) { cacheLines.append(contentsOf: $0) }
            cacheLines.append(contentsOf: line.utf8)
        }
        let wikipedia = isFolder ? WikipediaCache.Listing(folders: folders, stamp: Hashing.sha256Hex(Data(cacheLines))) : nil
        return Listing(wikipedia: wikipedia, files: files)
    }

    /// One walked path below the Wikipedia cache's folder, as ``WikipediaCache/load()`` lists its
    /// own: the language folders (not `images`, not hidden) and their visible `.json` files.
    private static func list(_ path: Substring.UTF8View, _ info: FileInfo?, into folders: inout [WikipediaCache.Listing.Folder]) {
        guard let info, path.first != UInt8(ascii: ".") else { return }
        guard let slash = path.firstIndex(of: UInt8(ascii: "/")) else {
            if info.kind == .directory, !path.elementsEqual("images".utf8) { folders.append(.init(name: String(Substring(path)))) }
            return
        }
        let name = path[path.index(after: slash)...]
        guard info.kind == .file, name.first != UInt8(ascii: "."), !name.contains(UInt8(ascii: "/")), name.count > 5,
            name.suffix(5).elementsEqual(".json".utf8), let last = folders.indices.last,
            folders[last].name.utf8.elementsEqual(path[..<slash])
        else { return }
        folders[last].files.append((name: String(Substring(name)), info: info))
    }

    /// `snapshot` with the lines of `paths` (relative to the root) made again from the files as
    /// they are now; nil when one of them was made or removed since (its line would be added or
    /// dropped: take a new snapshot).
    func refreshing(_ snapshot: [String], _ paths: Set<String>) -> [String]? {
        let fs = options.fileSystem
        var lines = snapshot
        var found = Set<String>()
        let prefixes = paths.map { ($0, $0 + "\t") }
        for (i, line) in lines.enumerated() {
            guard let key = prefixes.first(where: { line.hasPrefix($0.1) })?.0 else { continue }
            guard let info = fs.info(root(key)) else { return nil }
            lines[i] = key + "\t" + Self.describe(info)
            found.insert(key)
        }
        for path in paths where !found.contains(path) && fs.info(root(path)) != nil { return nil }
        return lines
    }

    /// Whether two snapshots are the same but for the lines of `paths` (which either may lack).
    static func same(_ a: [String], _ b: [String], except paths: Set<String>) -> Bool {
        let prefixes = paths.map { $0 + "\t" }
        func excepted(_ line: String) -> Bool { prefixes.contains { line.hasPrefix($0) } }
        var i = 0, j = 0
        while true {
            while i < a.count, excepted(a[i]) { i += 1 }
            while j < b.count, excepted(b[j]) { j += 1 }
            if i == a.count || j == b.count { return i == a.count && j == b.count }
            if a[i] != b[j] { return false }
            i += 1
            j += 1
        }
    }

    /// A digest of a snapshot but for the lines of `paths` (which it may lack): two snapshots
    /// have the same digest when ``same(_:_:except:)`` would find them the same.
    static func digest(_ snapshot: [String], except paths: Set<String>) -> String {
        let prefixes = paths.map { $0 + "\t" }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(snapshot.count * 100)
        for line in snapshot where !prefixes.contains(where: { line.hasPrefix($0) }) {
            // Each line's length first: a path may hold a line break.
            withUnsafeBytes(of: UInt64(line.utf8.count).littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: line.utf8)
        }
        return Hashing.sha256Hex(Data(bytes))
    }

    /// The fingerprint of a snapshot together with the output folder's identity (which changes
    /// with every swap); nil when there is no complete output.
    func fingerprint(_ snapshot: [String]) -> String? {
        let fs = options.fileSystem
        guard let output = fs.info(options.outputDirectory), output.kind == .directory,
            fs.info(options.outputDirectory + "/" + OutputWriter.markerName) != nil
        else { return nil }
        let text = snapshot.joined(separator: "\n") + "\noutput\t\(output.inode) \(output.device) \(output.modificationTime)\n"
        return Hashing.sha256Hex(text)
    }

    /// The running `bestiary` binary's identity (metadata and path) and that of the shared
    /// libraries it runs with (the Swift runtime, Foundation, ICU: string case mapping and
    /// collation come from them): what the pages are rendered by, built-in theme included.
    static func toolIdentity(_ fs: any FileSystem) -> String {
        var identity = describe(fs.infoFollowingLinks("/proc/self/exe")) + " " + ((try? fs.realPath("/proc/self/exe")) ?? "")
        if let maps = try? fs.read("/proc/self/maps") {
            var libraries = Set<String>()
            for line in String(decoding: maps, as: UTF8.self).split(separator: "\n") {
                guard let slash = line.firstIndex(of: "/") else { continue }
                let path = String(line[slash...])
                // Those linked at start only (a library loaded later, such as an NSS module, would
                // make two runs of the same binary look different).
                let name = path.split(separator: "/").last.map(String.init) ?? ""
                if name.contains(".so") && ["libswift", "libFoundation", "lib_Foundation", "libicu", "libdispatch"].contains(where: name.hasPrefix) {
                    libraries.insert(path)
                }
            }
            let digest = libraries.sorted().map { $0 + " " + describe(fs.infoFollowingLinks($0)) }.joined(separator: "\n")
            identity += " libraries " + Hashing.sha256Hex(digest).prefix(16)
        }
        return identity
    }

    /// The signing key file by its metadata and the digest of its bytes: a key put in place of
    /// another within the file system clock's tick (the same size, the same time, a write in
    /// place) signs the next build's packs, which must not be taken as up to date. A file that
    /// is not a regular one or is larger than any key file is by its metadata (the build reads it
    /// and says what is wrong).
    static func describeKeyFile(_ path: String?, _ fs: any FileSystem) -> String {
        guard let path else { return describe(nil) }
        let info = fs.infoFollowingLinks(path)
        guard let info, info.kind == .file, info.size <= 1 << 20, let bytes = try? fs.read(path) else { return describe(info) }
        return describe(info) + " " + Hashing.sha256Hex(bytes)
    }

    /// A file's identity as one short line (plain concatenation: this runs for every input file).
    static func describe(_ info: FileInfo?) -> String {
        var out: [UInt8] = []
        describe(info, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// ``describe(_:)`` appended to `out` as UTF-8 (the output record writes 80,000 of them).
    static func describe(_ info: FileInfo?, into out: inout [UInt8]) {
        guard let info else {
            out.append(UInt8(ascii: "-"))
            return
        }
        switch info.kind {
        case .file: out.append(UInt8(ascii: "f"))
        case .directory: out.append(UInt8(ascii: "d"))
        case .symlink: out.append(UInt8(ascii: "l"))
        case .other: out.append(UInt8(ascii: "o"))
        }
        appendNumber(negative: info.size < 0, UInt64(info.size.magnitude), to: &out)
        appendNumber(negative: info.modificationTime < 0, info.modificationTime.magnitude, to: &out)
        appendNumber(negative: false, info.inode, to: &out)
        appendNumber(negative: false, info.device, to: &out)
    }

    /// `separator` (a space), then the number in decimal (as `String(n)` writes it): two digits at
    /// a time, from the last, into a buffer on the stack (four numbers for each of the walk's
    /// 35,000 entries).
    static func appendNumber(negative: Bool, _ magnitude: UInt64, separator: UInt8 = UInt8(ascii: " "), to out: inout [UInt8]) {
        out.append(separator)
        if negative { out.append(UInt8(ascii: "-")) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in  // UInt64.max has 20
            var n = magnitude, start = 20
            while n >= 100 {
                let pair = Int(n % 100) * 2
                n /= 100
                start -= 2
                digits[start] = digitPairs[pair]
                digits[start + 1] = digitPairs[pair + 1]
            }
            if n >= 10 {
                start -= 2
                digits[start] = digitPairs[Int(n) * 2]
                digits[start + 1] = digitPairs[Int(n) * 2 + 1]
            } else {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(n)
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
        }
    }

    /// `separator`, then `n` in decimal, as `String(n)` writes it.
    static func appendNumber(_ n: Int, separator: UInt8, to out: inout [UInt8]) {
        appendNumber(negative: n < 0, UInt64(n.magnitude), separator: separator, to: &out)
    }

    /// "00", "01" … "99", one after the other.
    private static let digitPairs: [UInt8] = (0..<100).flatMap { [UInt8(ascii: "0") + UInt8($0 / 10), UInt8(ascii: "0") + UInt8($0 % 10)] }

    /// Folders whose files are content-addressed and only ever added or removed whole (the
    /// Wikipedia cache's images): their own metadata stands for their files.
    static let contentAddressedFolders: Set<String> = ["content/wikipedia/images"]

    private func root(_ relative: String) -> String {
        Catalog.pathPrefix(root: options.root) + relative
    }

    /// An entry the walk found: its path relative to the root and its metadata (nil when it went
    /// between the listing and the `lstat`).
    typealias Walked = (path: String, info: FileInfo?)

    /// Every entry below `folder` (not following links), depth first in name order. The folders
    /// in a folder are walked side by side (a site's records, media and Wikipedia cache).
    private func walk(_ folder: String) -> [Walked] {
        let fs = options.fileSystem
        // A folder of 10,000 records is 10,000 lstat calls, made on both cores when no other
        // folder is walked beside it (libdispatch narrows a `concurrentPerform` nested in another).
        guard let listed = try? fs.entriesWithInfo(in: root(folder)) else { return [] }  // sorted by name
        let paths = listed.map { folder + "/" + $0.entry.name }
        let below = listed.indices.filter { listed[$0].entry.kind == .directory && !Self.contentAddressedFolders.contains(paths[$0]) }
        let subtrees = Parallel.map(below, chunk: 1) { walk(paths[$0]) }
        var walked: [Walked] = []
        walked.reserveCapacity(listed.count + subtrees.reduce(0) { $0 + $1.count })
        var next = 0
        for i in listed.indices {
            walked.append((paths[i], listed[i].info))
            if next < below.count, below[next] == i {
                walked.append(contentsOf: subtrees[next])
                next += 1
            }
        }
        return walked
    }

    /// A file the walk of a build found changed in the 2 s before that walk began, or later
    /// (``FileInfo/racyNanoseconds``), with the digest of what it held right after the walk,
    /// before the build read it. Changed again within its clock's resolution, after the build
    /// read it, it could keep the metadata the walk found (git's "racily clean" files): its
    /// bytes then tell the change.
    struct RacyFile: Equatable, Sendable {
        var path: String
        /// SHA-256 of its bytes (read through links); nil when it is not a regular file or could
        /// not be read. Its 32 bytes, not a text: a build just after a clone holds 35,000 of them
        /// through its peak.
        var digest: SHA256Digest?

        init(path: String, digest: SHA256Digest?) {
            self.path = path
            self.digest = digest
        }

        /// From the state's text: 64 lower-case hex digits, or "-".
        init?(path: String, text: some StringProtocol) {
            self.path = path
            guard text != "-" else { return }
            let hex = Array(text.utf8)
            guard hex.count == 2 * SHA256Digest.byteCount else { return nil }
            var bytes: [UInt8] = []
            for i in stride(from: 0, to: hex.count, by: 2) {
                guard let byte = BuildState.byte(hex[i], hex[i + 1]) else { return nil }
                bytes.append(byte)
            }
            digest = SHA256Digest(bytes: bytes)
        }

        /// A file this build wrote itself (its pack lock), by the bytes it wrote.
        init(path: String, wrote bytes: Data) {
            self.init(path: path, digest: SHA256.hash(data: bytes))
        }

        /// As the state writes it: lower-case hex, or "-".
        var text: String { digest.map { Hashing.hex($0) } ?? "-" }
    }

    /// The byte two hex digits (either case) spell; nil when they are not hex digits.
    private static func byte(_ high: UInt8, _ low: UInt8) -> UInt8? {
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        guard let h = nibble(high), let l = nibble(low) else { return nil }
        return h << 4 | l
    }

    /// What the last complete build recorded: the fingerprint of its inputs, and the files its
    /// walk found changed just before it began (``RacyFile``).
    struct Recorded: Equatable {
        var fingerprint: String
        var racy: [RacyFile] = []
    }

    /// `paths` (relative to the root), each with the digest of what it holds now: "-" for what is
    /// not a regular file through links (a link to a pipe would never end its read) or cannot be
    /// read.
    func digests(of paths: [String]) -> [RacyFile] {
        let fs = options.fileSystem
        return Parallel.map(paths, chunk: 8) { path in
            let file = root(path)
            let kind = fs.info(file)?.kind
            guard kind == .file || (kind == .symlink && fs.infoFollowingLinks(file)?.kind == .file), let bytes = try? fs.read(file) else {
                return RacyFile(path: path, digest: nil)
            }
            return RacyFile(path: path, digest: SHA256.hash(data: bytes))
        }
    }

    /// The paths of `racy` whose files no longer hold what they held when the last build recorded
    /// them.
    func changedBytes(_ racy: [RacyFile]) -> [String] {
        racy.isEmpty ? [] : zip(racy, digests(of: racy.map(\.path))).compactMap { then, now in then == now ? nil : then.path }
    }

    /// What the last complete build recorded: the header, the fingerprint, then a line per racy
    /// file (its digest, a tab, its path with `%`, tab and line breaks escaped as `%XX`).
    func recorded() -> Recorded? {
        guard let data = try? options.fileSystem.read(path), data.count < 64 << 20 else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard text.hasPrefix(Self.header) else { return nil }
        var lines = text.dropFirst(Self.header.count).split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        guard let fingerprint = lines.first, !fingerprint.isEmpty else { return nil }
        var racy: [RacyFile] = []
        for line in lines.dropFirst() {
            let fields = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            guard fields.count == 2, let path = Self.unescaped(fields[1]), let file = RacyFile(path: path, text: fields[0]) else { return nil }
            racy.append(file)
        }
        return Recorded(fingerprint: String(fingerprint), racy: racy)
    }

    private static let escapedBytes: Set<UInt8> = [UInt8(ascii: "%"), 9, 10, 13]

    private static func escaped(_ path: String) -> String {
        var bytes: [UInt8] = []
        for byte in path.utf8 {
            if escapedBytes.contains(byte) { bytes.append(contentsOf: String(format: "%%%02X", byte).utf8) } else { bytes.append(byte) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func unescaped(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next(), let low = utf8.next(), let value = Self.byte(high, low) else { return nil }
            bytes.append(value)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Keeps `snapshot` for the next build's ``changes(since:)``: before ``record(_:)`` records
    /// its fingerprint, so that a fingerprint is never recorded beside an older snapshot.
    func keep(_ snapshot: [String]) {
        InputLedger.save(snapshot, to: ledgerPath, fileSystem: options.fileSystem)
    }

    func record(_ recorded: Recorded) {
        var text = Self.header + recorded.fingerprint + "\n"
        for file in recorded.racy { text += file.text + "\t" + Self.escaped(file.path) + "\n" }
        try? options.fileSystem.writeAtomically(Data(text.utf8), to: path)
    }

    func forget() {
        try? options.fileSystem.remove(path)
        InputLedger.forget(ledgerPath, fileSystem: options.fileSystem)
    }

    /// What changed from the snapshot the recorded fingerprint was made from to `snapshot`; nil
    /// when none is recorded, or the kept snapshot is not the one the recorded fingerprint was
    /// made from with the output as it is now (a build killed after its swap left the last
    /// build's fingerprint and snapshot beside its own output; an older binary recorded a
    /// fingerprint without one): it would name changes the output already has.
    ///
    /// Of the files the recorded walk found changed in the 2 s before it began (``Recorded/racy``),
    /// whose metadata could have stayed the same through another change, those whose bytes the
    /// check found changed (`changedBytes`) are among the modified; the others hold what they held.
    func changes(since snapshot: [String], recorded: Recorded, changedBytes: [String]) -> InputChanges? {
        guard let kept = InputLedger.load(ledgerPath, fileSystem: options.fileSystem), fingerprint(kept) == recorded.fingerprint
        else { return nil }
        return InputChanges.between(kept, snapshot, changedBytes: changedBytes)
    }
}
