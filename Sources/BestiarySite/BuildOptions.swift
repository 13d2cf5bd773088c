import BestiaryContent
import BestiaryStorage
import Foundation

/// How to build: the command line's flags, the environment, and the injected I/O.
public struct BuildOptions: Sendable {
    /// The site root (holds `content/`).
    public var root: String
    /// Where the site goes; `ROOT/output` by default.
    public var output: String?
    /// Overrides site.yml's `base_url` (e.g. for a preview or a staging host).
    public var baseURL: String?
    /// CI mode: fail instead of adding a version to `content/packs.lock`.
    public var locked: Bool
    /// A file holding the base64 Ed25519 private key (else `BESTIARY_SIGNING_KEY`).
    public var signingKeyFile: String?
    /// Record a new pack version in `content/packs.lock` after the output is in place. `serve`
    /// turns this off: a preview must not add a version for every saved edit.
    public var recordsPackVersions: Bool = true
    /// Sign the packs with the keys given (`--signing-key`, `BESTIARY_SIGNING_KEY`). `serve` turns
    /// this off: its versions are never recorded, and a signed one left in the output could be
    /// deployed, taken by apps, and then clash with the version `build` publishes under that number.
    public var signsPacks: Bool = true
    /// Build a site whose site.yml lists `packs.public_keys` without a signing key (`--unsigned`:
    /// a check build on a branch or a fork, whose output is not deployed).
    public var allowsUnsignedPacks: Bool = false
    /// Build everything anew: no up-to-date check (``BuildState``), no reuse of the previous
    /// build's pages (``OutputRecord``).
    public var force: Bool = false
    /// The process ends soon after the build (`bestiary build`): the build's values are left for
    /// the exit to drop (``ProcessMemory/leaveToExit(_:)``) rather than freed one by one.
    public var exitsAfterBuild: Bool = false
    /// Removes a folder tree the build discarded (the output a full build replaced, the spare:
    /// 20,000 folders and 80,000 files of a 10,000-animal site, seconds of a build's time) in
    /// another process, given the tree's absolute path, already renamed to
    /// `.NAME.bestiary-trash-PID-N` next to the output; false when none could be started (the
    /// build then removes it itself). `bestiary build` starts itself (``SiteBuilder/removeDiscarded(at:fileSystem:)``);
    /// nil (the default, and the preview's) removes such trees within the build.
    public var removesInBackground: (@Sendable (String) -> Bool)?
    /// `SOURCE_DATE_EPOCH`, `BESTIARY_SIGNING_KEY`, … (the process environment by default).
    public var environment: [String: String]
    public var fileSystem: any FileSystem
    public var time: any TimeSource

    public init(
        root: String, output: String? = nil, baseURL: String? = nil, locked: Bool = false, signingKeyFile: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment, fileSystem: any FileSystem = LocalFileSystem(),
        time: any TimeSource = SystemTimeSource()
    ) {
        self.root = root
        self.output = output
        self.baseURL = baseURL
        self.locked = locked
        self.signingKeyFile = signingKeyFile
        // An empty SOURCE_DATE_EPOCH (a CI template's `export SOURCE_DATE_EPOCH=`) is unset.
        self.environment = environment["SOURCE_DATE_EPOCH"].map { $0.trimmingCharacters(in: .whitespaces).isEmpty } == true
            ? environment.filter { $0.key != "SOURCE_DATE_EPOCH" } : environment
        self.fileSystem = fileSystem
        self.time = time
    }

    public var outputDirectory: String {
        output.map { Self.outputPath($0) } ?? Catalog.pathPrefix(root: root) + "output"
    }

    /// `--output` as a folder with a name of its own: what a build keeps for the next goes beside
    /// it (`.NAME.bestiary-*`), and the output is swapped in by renaming. So `site/` is `site`,
    /// `./site/.` is `site`, `a//b` is `a/b`; a path that ends in `.` or `..` after that (`.`,
    /// `x/..`) is made absolute from the current folder, with `..` taken off lexically.
    public static func outputPath(
        _ path: String, currentDirectory: () -> String = { FileManager.default.currentDirectoryPath }
    ) -> String {
        let absolute = path.hasPrefix("/")
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        if parts.isEmpty || parts.last == ".." {
            var resolved: [Substring] = []
            let from = absolute ? [] : currentDirectory().split(separator: "/", omittingEmptySubsequences: true)
            for part in from + parts where part != "." {
                if part == ".." { _ = resolved.popLast() } else { resolved.append(part) }
            }
            return "/" + resolved.joined(separator: "/")
        }
        return (absolute ? "/" : "") + parts.joined(separator: "/")
    }
}

/// What a build did, for the command to print.
public struct BuildReport: Sendable {
    public struct Stage: Sendable {
        public var name: String
        public var seconds: Double
        public var detail: String
    }

    public var stages: [Stage] = []
    /// The work around the stages, timed part by part: checking the inputs, reading and saving
    /// what one build keeps for the next (one-shot builds).
    public var upkeep: [Stage] = []
    /// From the start of the build to its end (the stages and the upkeep).
    public var seconds: Double = 0
    public var pages: Int = 0
    /// Pages not rendered again because their inputs did not change (the preview's memo, or the
    /// previous build's record).
    public var pagesReused: Int = 0
    public var files: Int = 0
    public var outputDirectory: String = ""
    /// Notes for the user that are not problems (e.g. "packs are unsigned").
    public var notes: [String] = []
    /// What changed among the inputs since the output was built; nil when that build recorded
    /// none (the first build, `--force`) or nothing did (another output, the same inputs).
    public var inputChanges: InputChanges?
    /// True when nothing changed since the last build and every stage was skipped.
    public var upToDate: Bool = false
    /// Output paths this build added, changed or removed; nil when it wrote the whole output
    /// anew (a build without a ``BuildMemo``, or the memo's first).
    public var changedOutputs: Set<String>?
}
