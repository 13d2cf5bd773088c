import ArgumentParser
import BestiaryContent
import BestiaryDiagnostics
import BestiaryPacks
import BestiarySite
import Foundation

/// `bestiary build`: render the site and the packs into output/, never using the network.
struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Render the site (and the content packs) into output/. Never uses the network.",
        discussion: """
            Builds from content/, templates/ and the Wikipedia cache alone. The previous
            output/ stays untouched until the new one is complete. With
            SOURCE_DATE_EPOCH set, two builds of the same inputs are byte-identical.
            When nothing under content/ or templates/ (nor the options, nor bestiary
            itself) changed since the last build, it does nothing; otherwise it first
            names what changed since the output was built (when that build kept its walk
            of the inputs, .NAME.bestiary-inputs), then renders only the pages whose inputs
            changed and replaces only the files that changed, using the records the
            last build left next to the output
            (.NAME.bestiary-index: the output's files; .NAME.bestiary-records: the
            parsed records, so unchanged ones are not parsed again; .NAME.bestiary-files:
            the hashes of media and cached pictures, so unchanged ones are not read again;
            .NAME.bestiary-wikipedia: the decoded Wikipedia cache entries).
            --force builds without any of them. A build that writes the whole output
            leaves the output it replaced to a process of its own to remove
            (.NAME.bestiary-trash-*, gone seconds later; with BESTIARY_DETACH=0 the
            build removes them itself, as a `docker build` step must: its processes
            end with it). One build of an output runs at a time
            (.NAME.bestiary-lock; a second waits), and builds of a site with packs into
            two outputs take turns at recording versions (a lock on content/). A build
            that could not record its pack version in content/packs.lock notes it in
            .NAME.bestiary-unrecorded (.NAME.bestiary-pending until then), and the next
            build records that version as published.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: ArgumentHelp("Where to write the site (default: ROOT/output).", valueName: "DIR"))
    var output: String?

    @Flag(name: .long, help: "Fail instead of adding a version to content/packs.lock (for CI).")
    var locked = false

    @Option(name: .long, help: ArgumentHelp("Override site.yml's base_url.", valueName: "URL"))
    var baseURL: String?

    @Option(name: .long, help: ArgumentHelp("A file holding the base64 Ed25519 private key that signs packs (else BESTIARY_SIGNING_KEY).", valueName: "FILE"))
    var signingKey: String?

    @Flag(name: .long, help: "Build everything anew: render every page and write the whole output, even when nothing changed.")
    var force = false

    @Flag(name: .long, help: "Build packs unsigned although site.yml lists packs.public_keys (a check build on a branch or a fork without the key; never deploy its output).")
    var unsigned = false

    func validate() throws {
        // An empty --output (an unset $OUT) would be the current folder.
        if output?.isEmpty == true { throw ValidationError("--output must name a folder") }
        if let baseURL, let problem = URLCheck.problem(baseURL: baseURL) { throw ValidationError("--base-url \(problem)") }
        // The key was dropped without a word, the packs built unsigned.
        if unsigned, signingKey != nil {
            throw ValidationError("--unsigned builds packs without a signature, and --signing-key names the key to sign them with: give one of the two")
        }
    }

    func run() async throws {
        let console = Console.current
        let format = global.diagnostics
        var options = BuildOptions(
            root: global.siteRoot, output: output, baseURL: baseURL, locked: locked, signingKeyFile: signingKey)
        options.force = force
        options.allowsUnsignedPacks = unsigned
        options.exitsAfterBuild = true
        // The output a full build replaced (and the spare) go in a process of their own: the
        // build ends without waiting for 100,000 entries of a large site to be removed.
        // (Not as a container's first process: the container ends with it, and the remover with it;
        // nor with BESTIARY_DETACH=0: a `docker build` step's processes end with the step.)
        // (The variable checked first: a wrong value is an error wherever the build runs.)
        if try Self.detaches(options.environment), RemoveTrashCommand.executable != nil, getpid() != 1 {
            options.removesInBackground = RemoveTrashCommand.start
        }
        let builder = SiteBuilder(options: options)
        // Both given: the file is the one that signs, said so (CI with a key in its environment
        // and a file passed by a script).
        if let signingKey, !(ProcessInfo.processInfo.environment[SigningKeys.environmentVariable] ?? "").isEmpty {
            console.err("note: the key in \(signingKey) (--signing-key) signs the packs; \(SigningKeys.environmentVariable) is not used")
        }
        // Progress and summaries go to standard error in either format (JSON's problems go to
        // standard output).
        builder.onStage = { stage, index, total in
            let ms = String(format: "%6.0f ms", stage.seconds * 1000)
            console.err("[\(index)/\(total)] \(stage.name.padding(toLength: 7, withPad: " ", startingAt: 0)) \(ms)  \(stage.detail)")
        }
        let outputName = options.outputDirectory
        builder.onInputChanges = { changes in
            console.err("changed since \(outputName) was built: \(changes.summary())")
        }
        builder.onWait = {
            console.err("waiting for another build of \(outputName) (a second `bestiary build`, or `bestiary serve`) to finish…")
        }
        builder.onWaitForSite = {
            console.err("waiting for another build of this site (into another output folder) to finish: both record pack versions in content/packs.lock…")
        }
        do {
            let report = try builder.build()
            // The work around the stages, right after them.
            let upkeep = report.upkeep.reduce(0) { $0 + $1.seconds }
            if upkeep >= 0.0005 {
                let parts = report.upkeep.map { "\($0.name) \(Int(($0.seconds * 1000).rounded())) ms" }
                console.err("      + \(String(format: "%6.0f ms", upkeep * 1000))  around the stages: \(parts.joined(separator: ", "))")
            }
            console.report(builder.diagnostics.items, format: format, everyWarning: global.allWarnings)
            for note in report.notes { console.err("note: \(note)") }
            if report.upToDate {
                console.err("\(report.outputDirectory) is up to date (nothing changed since the last build; --force builds anyway)")
            } else {
                let total = report.seconds
                console.err(
                    "built \(report.pages) pages (\(report.files) files) into \(report.outputDirectory) in \(String(format: "%.2f", total)) s"
                        + (builder.diagnostics.warningCount > 0 ? ", \(builder.diagnostics.warningCount) warning\(builder.diagnostics.warningCount == 1 ? "" : "s")" : ""))
            }
        } catch {
            console.report(builder.diagnostics.items + error.diagnostics, format: format, everyWarning: global.allWarnings)
            do {
                let output = builder.replacedOutput ? "; \(options.outputDirectory) holds the new build"
                    : FileManager.default.fileExists(atPath: options.outputDirectory) ? "; \(options.outputDirectory) is unchanged" : ""
                console.err("build failed: \(Self.count(error.diagnostics.filter { $0.severity == .error }.count, "error"))\(output)")
            }
            throw CommandFailure(status: 1)
        }
    }

    /// `BESTIARY_DETACH`: whether a build may leave the trees it discards to a process of its own.
    static let detachVariable = "BESTIARY_DETACH"

    /// False when ``detachVariable`` is `0` (`false`, `no`, `off`); true when it is unset, empty,
    /// `1` (`true`, `yes`, `on`). Anything else is an error, not a guess.
    static func detaches(_ environment: [String: String]) throws(DiagnosticError) -> Bool {
        let value = environment[detachVariable]?.trimmingCharacters(in: .whitespaces) ?? ""
        switch value.lowercased() {
        case "", "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default:
            throw DiagnosticError(.error(
                "\(detachVariable)=\(value) is neither 0 nor 1: set it to 0 to have a build remove the output it replaces within itself (a `docker build` step, whose processes end with it), or leave it unset",
                stage: "load"))
        }
    }

    /// `1 error`, `2 errors`.
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
