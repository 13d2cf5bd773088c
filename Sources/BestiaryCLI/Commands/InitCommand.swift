import ArgumentParser

struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "init", abstract: "(not yet)")
    @OptionGroup var global: GlobalOptions
    func run() async throws { throw CommandFailure(status: 1) }
}
