import BestiaryDiagnostics
import BestiaryStorage
import Foundation

/// The write stage: puts a complete build in place in one step, so `output/` is always either the
/// previous build or the new one, never a mix (DESIGN.md §4).
///
/// Files are written into a staging folder next to the output (same file system), which is then
/// exchanged with the output folder (`renameat2(RENAME_EXCHANGE)` on Linux). A failure or a kill
/// before the exchange leaves the previous output untouched; the staging folder of an
/// interrupted build is removed by the next one.
struct OutputWriter {
    let fileSystem: any FileSystem
    let output: String

    /// Written into every output so the next build knows the folder is its own to replace.
    static let markerName = ".bestiary-output"
    static let markerText = "{\"generator\":\"bestiary\",\"format\":1}\n"

    var parent: String {
        guard let slash = output.lastIndex(of: "/") else { return "." }
        let p = String(output[..<slash])
        return p.isEmpty ? "/" : p
    }

    var name: String {
        output.split(separator: "/").last.map(String.init) ?? output
    }

    func stagingPath() -> String {
        (parent == "." ? "" : parent + "/") + ".\(name).bestiary-staging-\(getpid())"
    }

    /// Refuses to replace a folder that is not a Bestiary output, and removes leftovers of killed builds.
    func prepare() throws(DiagnosticError) {
        if let info = fileSystem.info(output) {
            guard info.kind == .directory else {
                throw DiagnosticError(.error("\(output) exists and is not a folder; remove it or choose another --output", stage: "write"))
            }
            let entries = (try? fileSystem.entries(in: output)) ?? []
            if !entries.isEmpty && fileSystem.info(output + "/" + Self.markerName) == nil {
                throw DiagnosticError(.error(
                    "\(output) holds files that bestiary did not make; refusing to replace it. Remove it or choose another --output",
                    stage: "write"))
            }
        }
        let prefix = ".\(name).bestiary-staging-"
        for entry in (try? fileSystem.entries(in: parent)) ?? [] where entry.name.hasPrefix(prefix) {
            let pid = Int32(entry.name.dropFirst(prefix.count)) ?? 0
            if pid != getpid() && (pid <= 0 || kill(pid, 0) != 0) {
                try? fileSystem.remove((parent == "." ? "" : parent + "/") + entry.name)
            }
        }
    }

    /// Writes `files` into a fresh staging folder, then swaps it in. Returns the number of files.
    func write(_ files: [OutputFile]) throws(DiagnosticError) -> Int {
        try prepare()
        let staging = stagingPath()
        do {
            try fileSystem.remove(staging)
            try fileSystem.createDirectory(staging)
            var directories = Set<String>()
            for file in files {
                var p = file.path
                while let slash = p.lastIndex(of: "/") {
                    p = String(p[..<slash])
                    if !directories.insert(p).inserted { break }
                }
            }
            for dir in directories.sorted() { try fileSystem.createDirectory(staging + "/" + dir) }
            let fs = fileSystem
            try Parallel.map(files, minimumChunk: 64) { file in
                let target = staging + "/" + file.path
                switch file.content {
                case .data(let data): try fs.writeNew(data, to: target)
                case .file(let source): try fs.link(source, to: target)
                }
            }
            try fileSystem.writeNew(Data(Self.markerText.utf8), to: staging + "/" + Self.markerName)
            if fileSystem.info(output) != nil {
                try fileSystem.exchange(staging, output)
                try fileSystem.remove(staging)
            } else {
                try fileSystem.move(staging, to: output)
            }
        } catch let error as DiagnosticError {
            try? fileSystem.remove(staging)
            throw error
        } catch {
            try? fileSystem.remove(staging)
            throw DiagnosticError(.error("cannot write the site: \(error); \(output) is unchanged", stage: "write"))
        }
        return files.count + 1
    }
}
