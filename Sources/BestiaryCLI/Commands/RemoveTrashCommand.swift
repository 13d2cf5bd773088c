import ArgumentParser
import BestiarySite
import BestiaryStorage

/// `bestiary remove-trash PATH` (hidden): removes a folder tree a build discarded, in a process of
/// its own, started by `bestiary build` (``BuildCommand``) so that the build need not wait for it.
struct RemoveTrashCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove-trash",
        abstract: "Remove a folder tree a build discarded (started by `bestiary build` itself).",
        shouldDisplay: false)

    @Argument(help: "The discarded tree: .NAME.bestiary-trash-PID-N next to an output.")
    var path: String

    func run() async throws {
        try SiteBuilder.removeDiscarded(at: path)
    }

    /// The program that runs this command: the running `bestiary` (set by its `main.swift`);
    /// nil in a process that runs commands in-process (the tests), which then removes discarded
    /// trees itself.
    nonisolated(unsafe) static var executable: String?

    /// Starts `bestiary remove-trash PATH`, detached (``DetachedProcess``); false when it could not.
    @Sendable static func start(_ path: String) -> Bool {
        guard let executable else { return false }
        return DetachedProcess.start(executable, name: "bestiary", arguments: ["remove-trash", path]) != nil
    }
}
