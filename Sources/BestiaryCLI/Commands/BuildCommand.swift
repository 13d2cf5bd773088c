import ArgumentParser

struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "build", abstract: "(not yet)")
    @OptionGroup var global: GlobalOptions
    func run() async throws { throw CommandFailure(status: 1) }
}
