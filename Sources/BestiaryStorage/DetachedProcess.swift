import CBestiarySystem
import Foundation

/// A program started to outlive its caller without holding anything of it: its own session, no
/// terminal, its standard input and outputs /dev/null, none of the caller's other descriptors
/// (not the pipes a script reads the caller's output from, which would stay open until it ends;
/// not the caller's locks), none of its environment (not `BESTIARY_SIGNING_KEY`), the root
/// folder as its working folder. Not waited for. Where the C library cannot close the caller's
/// descriptors in it (glibc before 2.34, musl), nothing is started.
public enum DetachedProcess {
    /// Starts `executable` with `arguments` (without the program name, which is `name`) and
    /// `environment` (`NAME=value`, none by default); its process id, or nil when it could not be
    /// started.
    public static func start(_ executable: String, name: String, arguments: [String], environment: [String] = []) -> Int32? {
        func cStrings(_ words: [String]) -> [UnsafeMutablePointer<CChar>?] { words.map { strdup($0) } + [nil] }
        let argv = cStrings([name] + arguments)
        let envp = cStrings(environment)
        defer { for word in argv + envp { free(word) } }
        let pid = cbestiary_spawn_detached(executable, argv, envp)
        return pid > 0 ? pid : nil
    }

    /// The file of the running program itself, to start it again (Linux: `/proc/self/exe`, which
    /// stays the very program even when an upgrade replaced its file meanwhile); nil where unknown.
    public static var runningExecutable: String? {
        #if os(Linux)
        return FileManager.default.fileExists(atPath: "/proc/self/exe") ? "/proc/self/exe" : nil
        #else
        return Bundle.main.executablePath
        #endif
    }
}
