import ArgumentParser
import BestiaryContent
import BestiaryDiagnostics
import Foundation

/// The `bestiary` command: argument parsing and message printing only. Every command is a thin
/// layer over a library target; library code throws, this layer maps errors to exit statuses
/// (0 success, 1 content/build/fetch errors, 2 usage — DESIGN.md §3).
public struct BestiaryCommand: AsyncParsableCommand {
    public static let version = "0.1.0"

    public static let configuration = CommandConfiguration(
        commandName: "bestiary",
        abstract: "Turn a folder of animal records into a static quiz website and signed content packs.",
        discussion: """
            A site root holds content/ (site.yml, animals/, pages/, media), optionally \
            templates/, and receives output/. Start with `bestiary init DIR`, or run \
            `make serve` in the Bestiary repository to preview its example site.
            """,
        version: version,
        subcommands: commandTypes
    )

    /// Every subcommand; helpers add theirs here.
    nonisolated(unsafe) static var commandTypes: [any ParsableCommand.Type] = [
        InitCommand.self,
        AddCommand.self,
        RemoveCommand.self,
        ImportCommand.self,
        CheckCommand.self,
        FetchCommand.self,
        BuildCommand.self,
        ServeCommand.self,
        KeysCommand.self, PackCommand.self, SyncCommand.self,
        RemoveTrashCommand.self,
    ]

    /// Lets `bestiary build` start this program again to remove the trees it discards
    /// (``RemoveTrashCommand``): called by `main.swift` with the running program's file.
    public static func runsAs(executable: String?) { RemoveTrashCommand.executable = executable }

    public init() {}

    /// Runs the command line `arguments` (without the program name) and returns the exit status.
    /// `main.swift` calls this; tests call it in-process with a capturing ``Console``.
    public static func run(arguments: [String]) async -> Int32 {
        _ = Console.takeOutputFailure()
        let status = await runCommand(arguments: arguments)
        // Results that never reached standard output (a full disk, `>&-`): not a success.
        if let failure = Console.takeOutputFailure(), status == 0 {
            Console.current.err("bestiary: error: cannot write to standard output: \(failure)")
            return 1
        }
        return status
    }

    static func runCommand(arguments: [String]) async -> Int32 {
        if let unknown = unknownHelpTopic(arguments) ?? unknownCommand(arguments) {
            // ArgumentParser's own `help` prints the top help for any word, and exits 0; for a
            // mistyped command it said only "Unexpected argument".
            // (Not the hidden ones: a typo is never sent to `remove-trash`.)
            let names = commandTypes.filter { $0.configuration.shouldDisplay }.map { name(of: $0) }
            let typed = String(unknown.split(separator: " ").last ?? "")
            let meant = unknown.contains(" ") ? nil : Suggestion.closest(to: typed, among: names).map { " (did you mean '\($0)'?)" }
            Console.current.err("Error: '\(unknown)' is not a bestiary command\(meant ?? ""); see 'bestiary --help'")
            return 2
        }
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return 0
        } catch let failure as CommandFailure {
            return failure.status
        } catch let error as DiagnosticError {
            Console.current.report(error.diagnostics, format: .text, everyWarning: arguments.contains("--all-warnings"))
            return 1
        } catch let error as ExitCode {
            return error.rawValue
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { Console.current.out(message) }
                return 0
            }
            if code.rawValue == 64 || error is ValidationError {
                // swift-argument-parser says EX_USAGE (64); our contract says 2.
                Console.current.err(message)
                return 2
            }
            Console.current.err("bestiary: error: \(message.isEmpty ? String(describing: error) : message)")
            return code.rawValue == 0 ? 1 : code.rawValue
        }
    }
}

extension BestiaryCommand {
    /// The words after `help` (`bestiary help pack verify`) when they name no command, else nil.
    static func unknownHelpTopic(_ arguments: [String]) -> String? {
        guard arguments.first == "help" else { return nil }
        let words = arguments.dropFirst().prefix { !$0.hasPrefix("-") }
        var commands: [any ParsableCommand.Type] = commandTypes
        for word in words {
            guard let command = commands.first(where: { name(of: $0) == word || $0.configuration.aliases.contains(word) }) else {
                return words.joined(separator: " ")
            }
            commands = command.configuration.subcommands
        }
        return nil
    }

    /// The first word, when it names no command (`bestiary biuld`).
    static func unknownCommand(_ arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"), first != "help" else { return nil }
        let known = commandTypes.contains { name(of: $0) == first || $0.configuration.aliases.contains(first) }
        return known ? nil : first
    }

    private static func name(of command: any ParsableCommand.Type) -> String {
        command.configuration.commandName ?? command._commandName
    }
}

/// Thrown by a command after it has printed what went wrong: carries only the exit status.
public struct CommandFailure: Error, Sendable {
    public var status: Int32
    public init(status: Int32 = 1) { self.status = status }
}
