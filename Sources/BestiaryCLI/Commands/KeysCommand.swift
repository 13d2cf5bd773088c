import ArgumentParser
import BestiaryDiagnostics
import BestiaryPackFormat
import BestiaryPacks
import Foundation

/// `bestiary keys …`: Ed25519 keys for signing content packs.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Make and inspect the Ed25519 keys content packs are signed with.",
        subcommands: [KeysGenerateCommand.self, KeysPublicCommand.self])
}

/// `bestiary keys generate`: a new key pair, as two lines.
struct KeysGenerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Print a new Ed25519 key pair for signing packs.",
        discussion: """
            Prints two lines, `public-key: BASE64` and `private-key: BASE64`. Keep the private key \
            secret (a CI secret BESTIARY_SIGNING_KEY, or a file passed to `build --signing-key`; \
            the whole output works as that file). Put the public key into apps and into \
            site.yml's packs.public_keys; `bestiary sync` and `pack verify` take it as --public-key.
            """)

    @OptionGroup var global: ReportOptions

    func run() async throws {
        let pair = PackKeys.generate()
        Console.current.out("public-key: \(pair.publicKey)")
        Console.current.out("private-key: \(pair.privateKey)")
    }
}

/// `bestiary keys public [FILE]`: the public key of a signing key.
struct KeysPublicCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "public",
        abstract: "Print the public key of a signing key (from FILE or BESTIARY_SIGNING_KEY).")

    @OptionGroup var global: ReportOptions

    @Argument(help: ArgumentHelp("A file with the private key, as `keys generate` wrote it.", valueName: "FILE"))
    var file: String?

    func run() async throws {
        let console = Console.current
        let keys: [String]
        do {
            keys = try SigningKeys.publicKeys(environment: ProcessInfo.processInfo.environment, file: file)
        } catch {
            console.report(error.diagnostics, format: global.diagnostics, everyWarning: global.allWarnings)
            throw CommandFailure(status: 1)
        }
        guard !keys.isEmpty else {
            console.err("bestiary: error: no signing key: pass a FILE or set \(SigningKeys.environmentVariable)")
            throw CommandFailure(status: 1)
        }
        for key in keys { console.out("public-key: \(key)") }
    }
}
