import Foundation

/// Every file below a folder with its bytes, for comparing whole build outputs.
public struct Tree: Equatable, Sendable {
    public var files: [String: Data]

    public init(_ directory: String) throws {
        var files: [String: Data] = [:]
        let base = URL(fileURLWithPath: directory).standardizedFileURL.resolvingSymlinksInPath().path
        if let walker = FileManager.default.enumerator(atPath: base) {
            for case let relative as String in walker {
                let full = base + "/" + relative
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                    files[relative] = try Data(contentsOf: URL(fileURLWithPath: full))
                }
            }
        }
        self.files = files
    }

    public init(files: [String: Data]) {
        self.files = files
    }

    public var paths: [String] { files.keys.sorted() }

    /// Paths whose bytes differ, or that exist on one side only.
    public func differences(from other: Tree) -> [String] {
        Set(files.keys).union(other.files.keys).filter { files[$0] != other.files[$0] }.sorted()
    }
}

/// Runs the built `bestiary` binary, as a user would.
public enum Binary {
    public static var path: String { Fixtures.repositoryRoot + "/.build/debug/bestiary" }

    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    public static func run(_ arguments: [String], environment: [String: String] = [:], currentDirectory: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }
}
