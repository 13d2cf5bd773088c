import ArgumentParser
import BestiaryPreview
import BestiarySite
import Foundation

/// `bestiary serve`: build, then serve output/ on 127.0.0.1 for a preview in the browser.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Build the site and preview it at http://127.0.0.1:8000/.",
        discussion: "Binds to 127.0.0.1 unless --host says otherwise. Stop it with Ctrl-C.")

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "Address to listen on (0.0.0.0 makes the preview reachable from other machines).")
    var host = "127.0.0.1"

    @Option(name: .long, help: "Port to listen on (0 picks a free one).")
    var port = 8000

    @Option(name: .long, help: ArgumentHelp("Where to write the site (default: ROOT/output).", valueName: "DIR"))
    var output: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
    }

    func run() async throws {
        let console = Console.current
        let options = BuildOptions(root: global.siteRoot, output: output, baseURL: "http://\(host == "0.0.0.0" ? "127.0.0.1" : host):\(port == 0 ? 8000 : port)/")
        let builder = SiteBuilder(options: options)
        do {
            let report = try builder.build()
            console.report(builder.diagnostics.items, format: global.diagnostics)
            console.err("built \(report.pages) pages into \(report.outputDirectory)")
        } catch {
            console.report(builder.diagnostics.items + error.diagnostics, format: global.diagnostics)
            console.err("build failed; fix the errors above and run `bestiary serve` again")
            throw CommandFailure(status: 1)
        }
        let server = PreviewServer(outputDirectory: options.outputDirectory, host: host, port: port)
        do {
            try await server.run { url in console.err("serving \(options.outputDirectory) at \(url)  (Ctrl-C stops)") }
        } catch {
            console.err("bestiary: error: cannot serve on \(host):\(port): \(error)")
            throw CommandFailure(status: 1)
        }
    }
}
