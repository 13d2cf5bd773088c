import BestiaryDiagnostics
import BestiarySite
import BestiaryStorage
import Foundation

/// A ``Rebuilder`` that runs the whole pipeline (`SiteBuilder.build()`) for any change: always
/// correct, and the stand-in until the engine tracks dependencies itself. It also works out which
/// output files changed, so open pages that did not change are left alone.
public final class FullRebuilder: Rebuilder, @unchecked Sendable {
    public let options: BuildOptions
    /// Called after each stage (for a progress line); may be nil.
    private let onStage: (@Sendable (BuildReport.Stage, Int, Int) -> Void)?
    private let lock = NSLock()
    private var snapshot: OutputSnapshot?

    /// A preview never records pack versions in content/packs.lock (`options` is changed to say so).
    public init(options: BuildOptions, onStage: (@Sendable (BuildReport.Stage, Int, Int) -> Void)? = nil) {
        var options = options
        options.recordsPackVersions = false
        self.options = options
        self.onStage = onStage
    }

    public func rebuild(changes: [ChangedPath]) throws(DiagnosticError) -> RebuildResult {
        lock.lock()
        defer { lock.unlock() }
        let start = DispatchTime.now().uptimeNanoseconds
        let builder = SiteBuilder(options: options)
        builder.onStage = onStage
        let report: BuildReport
        do {
            report = try builder.build()
        } catch {
            throw DiagnosticError(builder.diagnostics.items + error.diagnostics)
        }
        let previous = snapshot ?? OutputSnapshot()
        let current = OutputSnapshot.take(of: options.outputDirectory, reusing: previous, fileSystem: options.fileSystem)
        let changed: Set<String>? = snapshot == nil ? nil : current.changedPaths(since: previous)
        snapshot = current
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return RebuildResult(
            pages: report.pages, files: report.files, changedOutputs: changed, diagnostics: builder.diagnostics.items, seconds: seconds,
            upToDate: report.upToDate)
    }
}

/// The digest of every file in an output folder, to tell which files a rebuild changed. Files whose
/// inode, size and modification time are unchanged (media are hard links into content/) keep
/// their digest without being read again.
struct OutputSnapshot: Sendable {
    struct Entry: Sendable, Hashable {
        var device: UInt64
        var inode: UInt64
        var size: Int
        var modificationTime: Int64
        var digest: String
    }

    var entries: [String: Entry] = [:]

    static func take(of directory: String, reusing previous: OutputSnapshot, fileSystem: any FileSystem) -> OutputSnapshot {
        var result = OutputSnapshot()
        let files = (try? fileSystem.walkFiles(in: directory)) ?? []
        for relative in files {
            guard let info = fileSystem.info(directory + "/" + relative) else { continue }
            if let old = previous.entries[relative], old.inode == info.inode, old.device == info.device, old.size == info.size,
                old.modificationTime == info.modificationTime
            {
                result.entries[relative] = old
                continue
            }
            guard let data = try? fileSystem.read(directory + "/" + relative) else { continue }
            result.entries[relative] = Entry(
                device: info.device, inode: info.inode, size: info.size, modificationTime: info.modificationTime,
                digest: Hashing.sha256Hex(data))
        }
        return result
    }

    /// Paths added, removed or with other bytes.
    func changedPaths(since old: OutputSnapshot) -> Set<String> {
        var changed = Set<String>()
        for (path, entry) in entries where old.entries[path]?.digest != entry.digest { changed.insert(path) }
        for path in old.entries.keys where entries[path] == nil { changed.insert(path) }
        return changed
    }
}
