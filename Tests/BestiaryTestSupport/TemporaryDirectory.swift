import Foundation

/// A fresh directory under the system's temporary folder, removed when the value is released.
public final class TemporaryDirectory: @unchecked Sendable {
    public let path: String

    public init(_ prefix: String = "bestiary-test") {
        let base = FileManager.default.temporaryDirectory.path
        var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "cannot create a temporary directory")
        path = String(cString: made!)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `path/relative`.
    public func appending(_ relative: String) -> String { path + "/" + relative }

    /// Writes `text` to `relative`, creating folders.
    public func write(_ text: String, to relative: String) throws {
        try write(Data(text.utf8), to: relative)
    }

    public func write(_ data: Data, to relative: String) throws {
        let full = appending(relative)
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: full))
    }

    public func read(_ relative: String) throws -> String {
        try String(contentsOfFile: appending(relative), encoding: .utf8)
    }

    public func exists(_ relative: String) -> Bool {
        FileManager.default.fileExists(atPath: appending(relative))
    }
}
