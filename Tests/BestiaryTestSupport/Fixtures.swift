import Foundation

/// Paths of the repository's test fixtures (`Tests/Fixtures/…`), found from this source file so
/// tests run from any working directory without resource bundles.
public enum Fixtures {
    /// `Tests/Fixtures`.
    public static let directory: String = {
        let here = URL(fileURLWithPath: #filePath)  // …/Tests/BestiaryTestSupport/Fixtures.swift
        return here.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures").path
    }()

    /// The repository root (holds Package.swift, content/, templates/).
    public static let repositoryRoot: String = {
        URL(fileURLWithPath: directory).deletingLastPathComponent().deletingLastPathComponent().path
    }()

    public static func path(_ relative: String) -> String { directory + "/" + relative }

    public static func data(_ relative: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path(relative)))
    }

    /// Copies the fixture folder `relative` (e.g. `sites/minimal`) into `destination`.
    public static func copy(_ relative: String, to destination: String) throws {
        let fm = FileManager.default
        if fm.fileExists(atPath: destination) { try fm.removeItem(atPath: destination) }
        try fm.createDirectory(atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try fm.copyItem(atPath: path(relative), toPath: destination)
    }
}
