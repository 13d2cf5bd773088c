import BestiaryContent
import BestiaryDiagnostics
import BestiaryStorage
import Foundation

/// Every file an import or `add` will write, computed and checked before anything is written.
public struct ChangePlan: Sendable {
    public enum Action: String, Sendable {
        case create, update, unchanged
    }

    public struct RecordChange: Sendable {
        public var id: String
        /// Relative to the site root.
        public var path: String
        public var action: Action
        /// Top-level keys whose value changed (for `update`), e.g. `["habitat", "scientific"]`.
        public var changedKeys: [String]
        /// The file's new bytes (its old bytes for `unchanged`).
        public var data: Data
    }

    /// A sound or picture copied into `content/`.
    public struct MediaCopy: Sendable {
        /// Where it is read from.
        public var source: String
        /// Relative to the site root: `content/sounds/ID.EXT`.
        public var destination: String
        public var data: Data
        /// A file with other bytes is there already.
        public var replaces: Bool
    }

    /// Sorted by path.
    public var records: [RecordChange]
    public var copies: [MediaCopy]
    /// Problems that did not stop the plan (a picture left out, a missing sound).
    public var warnings: [Diagnostic]
    /// Sounds and pictures no record names once the plan is written (a record's `fox.wav` whose
    /// new sound is `fox.ogg`), relative to the site root: removed after the records are written.
    public var removals: [String] = []
    /// Sounds and pictures no record names once the plan is written that bestiary did not name
    /// (`sounds/my-recording.ogg`): kept, and reported, for their author to delete or keep.
    public var kept: [String] = []

    public var created: Int { records.count { $0.action == .create } }
    public var updated: Int { records.count { $0.action == .update } }
    public var unchanged: Int { records.count { $0.action == .unchanged } }

    /// `created N, updated N, unchanged N`.
    public var summary: String { "created \(created), updated \(updated), unchanged \(unchanged)" }

    /// How many files a plan writes or removes.
    public var fileCount: Int { copies.count + records.count { $0.action != .unchanged } + removals.count }

    /// A plan stopped between two files (``apply(root:fileSystem:stopping:)``): each file written
    /// is complete, and the same import again finishes the job.
    public struct Stopped: Error, Sendable {
        public var done: Int
        public var total: Int
    }

    /// Writes the plan: media first, so that no record ever names a file that is not there yet;
    /// each file atomically (a reader sees the old bytes or the new ones, never a mix). `stopping`
    /// is asked before each file (a Ctrl-C): then ``Stopped`` is thrown, with how far it came.
    public func apply(root: String, fileSystem: any FileSystem, stopping: () -> Bool = { false }) throws {
        func full(_ relative: String) -> String { Catalog.pathPrefix(root: root) + relative }
        let total = fileCount
        var done = 0
        func next() throws(Stopped) {
            if stopping() { throw Stopped(done: done, total: total) }
            done += 1
        }
        for copy in copies {
            try next()
            try fileSystem.writeAtomically(copy.data, to: full(copy.destination))
        }
        for change in records where change.action != .unchanged {
            try next()
            try fileSystem.writeAtomically(change.data, to: full(change.path))
        }
        for removal in removals {
            try next()
            if fileSystem.info(full(removal)) != nil { try fileSystem.remove(full(removal)) }
        }
    }

    /// Removes what a write cut off earlier (a second Ctrl-C, a `kill -9`) left in the folders this
    /// plan writes to: Bestiary's temporary files whose process is gone (``AtomicWriteLeftovers``),
    /// which nothing read, and `git add -A` committed. Their paths, relative to the root.
    public func removeLeftovers(root: String, fileSystem: any FileSystem) -> [String] {
        let folders = Set((copies.map(\.destination) + records.map(\.path)).map { path in
            path.split(separator: "/").dropLast().joined(separator: "/")
        })
        return folders.sorted().flatMap { folder in
            AtomicWriteLeftovers.remove(in: Catalog.pathPrefix(root: root) + folder, fileSystem: fileSystem).map { folder + "/" + $0 }
        }
    }
}
