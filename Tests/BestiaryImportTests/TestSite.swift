import BestiaryContent
import BestiaryDiagnostics
import BestiaryImport
import BestiaryStorage
import BestiaryTestSupport
import Foundation
import Testing

/// A throwaway site root: content/site.yml with the given languages, and whatever a test adds.
final class TestSite: @unchecked Sendable {
    let directory = TemporaryDirectory("bestiary-import")
    var root: String { directory.path }

    init(languages: [String] = ["en", "de"]) throws {
        try directory.write(
            """
            title: Test site
            base_url: "https://example.org/test/"
            languages: [\(languages.joined(separator: ", "))]

            """, to: "content/site.yml")
    }

    func write(_ text: String, to relative: String) throws { try directory.write(text, to: relative) }
    func read(_ relative: String) throws -> String { try directory.read(relative) }
    func exists(_ relative: String) -> Bool { directory.exists(relative) }

    /// Every file below the root with its bytes: to prove that nothing changed.
    func snapshot() throws -> [String: Data] {
        var result: [String: Data] = [:]
        for path in try LocalFileSystem().walkFiles(in: root) {
            result[path] = try Data(contentsOf: URL(fileURLWithPath: root + "/" + path))
        }
        return result
    }

    /// Plans an import of `fixture` (a path under Tests/Fixtures/import/, or absolute).
    func plan(_ fixture: String, _ format: ImportFormat, language: String? = nil, media: String? = nil) throws -> ChangePlan {
        let file = fixture.hasPrefix("/") ? fixture : Fixtures.path("import/" + fixture)
        return try Importer(format: format, file: file, root: root, language: language, mediaDirectory: media).plan()
    }

    /// Imports and writes; returns the plan.
    @discardableResult
    func importing(_ fixture: String, _ format: ImportFormat, language: String? = nil, media: String? = nil) throws -> ChangePlan {
        let plan = try plan(fixture, format, language: language, media: media)
        try plan.apply(root: root, fileSystem: LocalFileSystem())
        return plan
    }

    /// The diagnostics an import fails with; records an issue when it succeeds.
    func failure(
        _ fixture: String, _ format: ImportFormat, language: String? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> [Diagnostic] {
        do {
            _ = try plan(fixture, format, language: language)
            Issue.record("the import succeeded", sourceLocation: sourceLocation)
            return []
        } catch let error as DiagnosticError {
            return error.diagnostics
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
            return []
        }
    }

    /// The record `id` as the content loader reads it; the whole site must be free of errors.
    func animal(_ id: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Animal? {
        let errors = self.errors()
        #expect(errors.isEmpty, "\(errors)", sourceLocation: sourceLocation)
        return ContentLoader(root: root).load().catalog?.animal(id: id)
    }

    /// `bestiary check`'s verdict: the errors of the whole site.
    func errors() -> [Diagnostic] {
        ContentLoader(root: root).load().diagnostics.items.filter { $0.severity == .error }
    }

    /// Writes `text` to a file outside content/ and returns its absolute path.
    func source(_ text: String, name: String) throws -> String {
        try directory.write(text, to: "incoming/" + name)
        return directory.appending("incoming/" + name)
    }
}
