import ArgumentParser

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "(not yet)")
    @OptionGroup var global: GlobalOptions
    func run() async throws { throw CommandFailure(status: 1) }
}
