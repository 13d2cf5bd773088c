import BestiaryCLI
import BestiaryTestSupport
import Foundation

/// What one in-process `bestiary …` printed and returned.
struct SiteCommandRun: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Runs `bestiary ARGUMENTS…` in-process with a capturing console.
    static func bestiary(_ arguments: String...) async -> SiteCommandRun {
        await running(arguments)
    }

    static func running(_ arguments: [String]) async -> SiteCommandRun {
        let (console, captured) = Console.capturing()
        let status = await Console.$current.withValue(console) { await BestiaryCommand.run(arguments: arguments) }
        return SiteCommandRun(status: status, stdout: captured.stdout, stderr: captured.stderr)
    }

    /// A new site made by `bestiary init` in a temporary folder, with `languages`.
    static func newSite(languages: String = "[en]") async throws -> TemporaryDirectory {
        let dir = TemporaryDirectory("bestiary-cli")
        let result = await bestiary("init", dir.appending("site"))
        precondition(result.status == 0, result.stderr)
        let siteYML = dir.appending("site/content/site.yml")
        let text = try String(contentsOfFile: siteYML, encoding: .utf8).replacingOccurrences(of: "languages: [en]", with: "languages: \(languages)")
        try text.writeReplacing(toFile: siteYML)
        return dir
    }
}

/// Every file below a folder with its bytes.
struct SiteFilesSnapshot: Equatable {
    var files: [String: Data]
    init(_ root: String) throws {
        files = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = FileManager.default.contents(atPath: root + "/" + path)
            }
        }
    }
}
