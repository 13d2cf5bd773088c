import ArgumentParser

public struct BestiaryCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(commandName: "bestiary")
    public init() {}
    public func run() async throws {}
}
