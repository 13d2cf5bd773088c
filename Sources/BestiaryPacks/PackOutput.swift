import BestiaryContent
import BestiaryDiagnostics
import BestiaryPackFormat
import BestiaryStorage
import Foundation

/// What the `packs` stage made: the files of `output/packs/` and, when a version was added,
/// the new `content/packs.lock`.
public struct PackOutput: Sendable {
    /// site.yml's `packs:`; nil when the site publishes no packs (then everything is empty).
    public var settings: PackSettings?
    /// Relative to `output/packs/`, sorted by path: metadata as bytes, media as files to link.
    public var files: [PackFile]
    /// The new `content/packs.lock` (``PackLock/path``); nil when the history is unchanged.
    /// Write it only after the output is in place.
    public var lock: Data?
    /// The version `latest.json` points at.
    public var version: Int
    /// True when this build added `version` to the history.
    public var isNewVersion: Bool
    public var signed: Bool
    public var records: Int
    /// What the new version changed (empty when none was added).
    public var changes: [PackLock.Change]
    /// Warnings for the build to print (unsigned packs).
    public var diagnostics: [Diagnostic]
    /// Where each record is in the newest manifest, for the next build (``KeptRecords``).
    public var recordTable: PackRecordTable? = nil
    /// The version `latest.json` points at, as a note of it would say (number, creation, digest).
    public var published: PackProducer.PublishedVersion? = nil
    /// When `latest.json` stops being valid (`expires`): the build time plus `packs.expires_days`.
    public var expires: PackTime? = nil

    /// One line for the build's summary, e.g.
    /// `pack 'tuxpaint' version 3 (new: 1 added: zebra): 66 records, signed`.
    public var summary: String {
        guard let settings else { return "no content packs (site.yml has no packs section)" }
        let what = isNewVersion ? "new: \(PackProducer.describe(changes))" : "unchanged"
        return "pack '\(settings.id)' version \(version) (\(what)): \(records) record\(records == 1 ? "" : "s"), \(signed ? "signed" : "unsigned")"
    }

    /// Writes the files into `directory` (a fresh staging folder): bytes with `writeNew`, media
    /// with `link`.
    public func write(to directory: String, fileSystem: any FileSystem) throws(DiagnosticError) {
        for file in files {
            let target = directory + "/" + file.path
            do {
                switch file.contents {
                case .bytes(let data): try fileSystem.writeNew(data, to: target)
                case .pieces(let parts): try fileSystem.writeNew(parts: parts, to: target)
                case .link(let source): try fileSystem.link(source, to: target)
                }
            } catch {
                throw DiagnosticError(.error("cannot write \(file.path): \(error)", stage: "packs"))
            }
        }
    }
}
