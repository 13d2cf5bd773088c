import BestiaryContent
import BestiaryDiagnostics
import BestiaryTestSupport
import Foundation

/// Writes a small site into a temporary directory: a valid site.yml unless the test gives one,
/// plus the files of the case.
struct TestSite {
    let directory = TemporaryDirectory("bestiary-content")
    var root: String { directory.path }

    static let siteYML = """
        title: { de: Test, en: Test }
        base_url: https://example.org/
        languages: [de, en]

        """

    init(_ files: [String: String] = [:], binary: [String: Data] = [:], siteYML: String? = TestSite.siteYML) throws {
        if let siteYML { try directory.write(siteYML, to: "content/site.yml") }
        for (path, text) in files { try directory.write(text, to: path) }
        for (path, data) in binary { try directory.write(data, to: path) }
    }

    func load() -> ContentLoader.Result {
        ContentLoader(root: root).load()
    }

    /// Every diagnostic as `path:line:col: severity: message`.
    func lines() -> [String] {
        load().diagnostics.sorted.map { d in
            let place = d.location.map { "\($0.path):\($0.line):\($0.column)" } ?? "-"
            return "\(place): \(d.severity.rawValue): \(d.message)"
        }
    }
}

/// Tiny valid media for tests (generated, not real recordings or photos).
enum TestMedia {
    static let png: Data = {
        var d = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
        d.append(contentsOf: [0, 0, 0, 4, 0, 0, 0, 3, 8, 2, 0, 0, 0, 0, 0, 0, 0])
        return d
    }()
    static let ogg = Data("OggS".utf8) + Data([0, 2]) + Data(repeating: 0, count: 22) + Data("\u{1}vorbis".utf8) + Data(repeating: 0, count: 30)
    static let wav = Data("RIFF".utf8) + Data([36, 0, 0, 0]) + Data("WAVEfmt ".utf8) + Data(repeating: 0, count: 28)
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 0, count: 60)
}
