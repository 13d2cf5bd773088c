import BestiaryContent
import BestiaryDiagnostics
import BestiaryStorage
import Foundation

/// `bestiary remove ID…`: which files go — the record, its translations (`ID.LANG.md`), and its
/// sound and picture unless another record uses them — planned before anything is deleted.
public struct RemovalPlan: Sendable {
    public struct Removal: Sendable, Equatable {
        /// Relative to the site root.
        public var path: String
        /// `record`, `translation`, `sound`, `image`.
        public var kind: String
    }

    public struct KeptMedia: Sendable, Equatable {
        /// Relative to the site root.
        public var path: String
        /// The records that still use it (ids, or file paths of records that cannot be read).
        public var users: [String]
    }

    public var removals: [Removal]
    public var kept: [KeptMedia]
    /// What the plan could not know: the media of a record file that cannot be read.
    public var notes: [Diagnostic] = []

    public func apply(root: String, fileSystem: any FileSystem) throws {
        for removal in removals {
            try fileSystem.remove(Catalog.pathPrefix(root: root) + removal.path)
        }
    }
}

public enum RecordRemover {
    /// Plans removing `ids`; throws (having removed nothing) when one of them is not a record.
    /// `keepMedia`: leave sounds and pictures in place.
    public static func plan(ids: [String], keepMedia: Bool, store: RecordStore) throws(DiagnosticError) -> RemovalPlan {
        var problems: [Diagnostic] = []
        var removals: [RemovalPlan.Removal] = []
        var mediaPaths: [(String, MediaKind)] = []
        var removedRecordFiles: Set<String> = []
        var notes: [Diagnostic] = []
        for id in ids {
            let path: String
            if let known = store.paths[id] {
                path = known
            } else if let (other, _) = store.paths.first(where: { $0.value == store.newRecordPath(id) }) {
                // `koala-renamed.md` holding `id: koala-x`: removing the file by its name left
                // the record's picture behind, unknown (found by a site's admin).
                problems.append(.error(
                    "\(store.newRecordPath(id)) holds the record '\(other)' (its id: line), not '\(id)': remove it by its id, `bestiary remove \(other)`, which removes its sound and picture too",
                    stage: "remove"))
                continue
            } else if store.fileSystem.info(store.fullPath(store.newRecordPath(id))) != nil {
                // A record that cannot be read: its file still goes, its media cannot be known.
                // Said, with the media files its text names (they stayed without a word: found
                // by a tester).
                path = store.newRecordPath(id)
                notes.append(unreadableNote(path, store: store))
            } else {
                let hint = Suggestion.closest(to: id, among: store.paths.keys.sorted()).map { " (did you mean '\($0)'?)" } ?? ""
                problems.append(.error("there is no record '\(id)'\(hint)", stage: "remove"))
                continue
            }
            guard !removedRecordFiles.contains(path) else { continue }
            removedRecordFiles.insert(path)
            removals.append(.init(path: path, kind: "record"))
            removals += translations(of: path, store: store).map { .init(path: $0, kind: "translation") }
            if let animal = store.catalog.animal(id: id) {
                // By the file it names: `./sounds/a.mp3` and `sounds//a.mp3` are `sounds/a.mp3`.
                if let p = RecordPlanner.normalizedPath(animal.sound?.filePath) { mediaPaths.append((p, .sound)) }
                if let p = RecordPlanner.normalizedPath(animal.image?.filePath) { mediaPaths.append((p, .image)) }
            }
        }
        if !problems.isEmpty { throw DiagnosticError(problems) }

        var kept: [RemovalPlan.KeptMedia] = []
        if !keepMedia {
            let removedIDs = Set(ids)
            // By the file they name, however spelt (`./sounds/a.mp3`).
            let mediaUsers = RecordPlanner.mediaUsers(store.catalog)
            // Record files the loader could not read may name the file too: keep it for them.
            let unreadable = (store.unreadableRecordFiles() ?? []).filter { !removedRecordFiles.contains($0) }
            var seen: Set<String> = []
            for (media, kind) in mediaPaths where seen.insert(media).inserted {
                let full = "content/\(media)"
                var users = (mediaUsers[media] ?? []).filter { !removedIDs.contains($0) }
                users += unreadable.filter { file in
                    (try? store.fileSystem.readString(store.fullPath(file)))?.contains(media) ?? false
                }
                if !users.isEmpty {
                    kept.append(.init(path: full, users: users))
                } else if store.fileSystem.info(store.fullPath(full)) != nil {
                    removals.append(.init(path: full, kind: kind.rawValue))
                }
            }
        }
        var plan = RemovalPlan(removals: removals, kept: kept)
        plan.notes = notes
        return plan
    }

    /// The note for removing `path`, a record file that cannot be read: its sound and picture are
    /// not known, so they stay; the media files under `content/` its text names are listed.
    static func unreadableNote(_ path: String, store: RecordStore) -> Diagnostic {
        let text = (try? store.fileSystem.readString(store.fullPath(path))) ?? ""
        var named: [String] = []
        for match in text.matches(of: /[A-Za-z0-9_.\/-]+\.(?i:ogg|oga|opus|mp3|m4a|aac|wav|flac|webm|jpe?g|png|webp|gif|svg|avif)\b/) {
            guard let media = RecordPlanner.normalizedPath(String(match.0)), !media.hasPrefix("../"), !media.hasPrefix("/") else { continue }
            let full = "content/" + media
            if !named.contains(full), store.fileSystem.info(store.fullPath(full))?.kind == .file { named.append(full) }
        }
        let which = named.isEmpty
            ? "its sound and picture, if it has any, stay in content/"
            : "the media files it names stay (\(named.joined(separator: ", "))): remove them by hand if no other record uses them"
        return .note(
            "\(path) cannot be read as a record (`bestiary check` says why), so \(which)", at: SourceLocation(path: path), stage: "remove")
    }

    /// `content/animals/fox.de.md` and other `STEM.LANG.md` beside `path`.
    static func translations(of path: String, store: RecordStore) -> [String] {
        guard let slash = path.lastIndex(of: "/") else { return [] }
        let directory = String(path[..<slash])
        let stem = String(path[path.index(after: slash)...].dropLast(3))
        let names = (try? store.fileSystem.entries(in: store.fullPath(directory))) ?? []
        return names.compactMap { entry in
            guard entry.kind == .file, entry.name.hasPrefix(stem + "."), entry.name.hasSuffix(".md") else { return nil }
            let middle = entry.name.dropFirst(stem.count + 1).dropLast(3)
            return LanguageCode.isValid(String(middle)) ? "\(directory)/\(entry.name)" : nil
        }
    }
}
