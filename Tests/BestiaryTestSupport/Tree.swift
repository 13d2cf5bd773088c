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

    /// `input`, when given, is piped into its standard input. With `user` (`nobody`) and run as
    /// root, it runs as that user (`setpriv`), to whom permission bits apply.
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], currentDirectory: String? = nil, input: Data? = nil,
        as user: String? = nil
    ) throws -> Result {
        let process = Process()
        if let user, getuid() == 0 {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=\(user)", "--regid=nogroup", "--clear-groups", path] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let inputPipe = input.map { _ in Pipe() }
        if let inputPipe { process.standardInput = inputPipe }
        try process.run()
        if let input, let inputPipe {
            // Written beside the reads below, so that neither side waits for the other's pipe.
            let handle = inputPipe.fileHandleForWriting
            writeOnAThreadOfItsOwn(input) { handle }
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// Writes `data` to the handle `open` gives (opening a pipe waits for its reader) on a thread of
/// its own, then closes it. A reader that stops early makes the write fail, not the tests: the
/// thread blocks SIGPIPE, which would end the whole test process.
public func writeOnAThreadOfItsOwn(_ data: Data, _ open: @escaping @Sendable () -> FileHandle?) {
    Thread.detachNewThread {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
        guard let handle = open() else { return }
        try? handle.write(contentsOf: data)
        try? handle.close()
    }
}
