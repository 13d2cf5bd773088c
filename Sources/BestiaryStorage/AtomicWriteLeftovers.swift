import Foundation

/// The temporary files of ``LocalFileSystem/writeAtomically(_:to:)`` (`NAME.tmp-PID-N`, renamed
/// over `NAME` once complete) that a process killed while writing left behind.
public enum AtomicWriteLeftovers {
    /// The process that made `name`, when it is such a temporary file; else nil.
    public static func writer(of name: some StringProtocol) -> Int32? {
        guard let marker = name.range(of: ".tmp-", options: .backwards) else { return nil }
        let parts = name[marker.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let pid = Int32(parts[0]), pid > 0, !parts[1].isEmpty, parts[1].allSatisfy(\.isNumber) else { return nil }
        return pid
    }

    /// Whether process `pid` is gone (not this one; another user's answers EPERM: it is alive).
    public static func isGone(_ pid: Int32) -> Bool {
        pid != getpid() && (pid <= 0 || (kill(pid, 0) != 0 && errno == ESRCH))
    }

    /// Removes from `folder` each such file whose process is gone; returns their names, sorted.
    public static func remove(in folder: String, fileSystem: any FileSystem) -> [String] {
        guard let entries = try? fileSystem.entries(in: folder) else { return [] }
        var removed: [String] = []
        for entry in entries {
            guard let pid = writer(of: entry.name), isGone(pid), (try? fileSystem.remove(folder + "/" + entry.name)) != nil else { continue }
            removed.append(entry.name)
        }
        return removed.sorted()
    }
}
