import BestiaryPackFormat
import BestiaryCrypto
import Foundation

/// Fetches media files into a staging folder, resuming interrupted transfers with HTTP Range,
/// and verifying size and SHA-256 before a file gets its final name (`SHA256.EXT`). A
/// `SHA256.EXT.part` file is an unfinished download: kept across runs, continued next time.
/// Files here are not trusted by name alone: the store verifies them again when it takes them.
struct MediaDownloader: Sendable {
    let transport: any PackTransport
    let directory: String
    /// Attempts after a transfer breaks (each continues where the last stopped), and the waits.
    let retry: SyncRetry
    let concurrency: Int
    let onEvent: (@Sendable (SyncEvent) throws -> Void)?

    struct Outcome: Sendable {
        var path: String
        /// Bytes received over the transport in this run.
        var transferred: Int
        /// True when a request continued a partial file (HTTP Range) rather than starting over.
        var resumed: Bool
        /// The verified file was already there (a previous run downloaded it and then stopped).
        var reused: Bool
    }

    func stagedPath(_ ref: PackMediaRef) -> String { directory + "/" + ref.sha256 + "." + ref.ext }

    /// Whether a file name is one this downloader makes: `SHA256.EXT` or `SHA256.EXT.part`
    /// (64 lowercase hex digits, an extension of letters and digits).
    static func isDownload(_ name: String) -> Bool {
        var rest = Substring(name)
        if rest.hasSuffix(".part") { rest = rest.dropLast(5) }
        let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 64, !parts[1].isEmpty else { return false }
        return parts[0].utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
            && parts[1].utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// Downloads every file in `refs`; returns hash → outcome.
    func fetchAll(_ refs: [PackMediaRef]) async throws(SyncError) -> [String: Outcome] {
        if refs.isEmpty { return [:] }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw SyncError(.store, "cannot create the download folder \(directory): \(error.localizedDescription)")
        }
        do {
            return try await withThrowingTaskGroup(of: (String, Outcome).self) { group in
                var results: [String: Outcome] = [:]
                var next = 0
                func startNext() {
                    guard next < refs.count else { return }
                    let ref = refs[next]
                    next += 1
                    group.addTask { (ref.sha256, try await fetch(ref)) }
                }
                for _ in 0..<max(1, concurrency) { startNext() }
                while let (sha, outcome) = try await group.next() {
                    results[sha] = outcome
                    startNext()
                }
                return results
            }
        } catch let error as SyncError {
            throw error
        } catch is CancellationError {
            throw SyncError(.cancelled, "the sync was cancelled; downloads are kept and continue next time")
        } catch {
            throw SyncError(.transport, "\(error)")
        }
    }

    /// Makes sure the verified file is in the staging folder.
    func fetch(_ ref: PackMediaRef) async throws -> Outcome {
        let final = stagedPath(ref)
        let part = final + ".part"
        if StagingFiles.exists(final) {
            if (try? Self.verify(final, ref)) == true {
                return Outcome(path: final, transferred: 0, resumed: false, reused: true)
            }
            StagingFiles.remove(final)
        }
        var failures = 0
        var transferred = 0
        var resumed = false
        var restartedAfterBadResume = false
        // A part an earlier run left, whole or not: its bytes are not this run's. (A full-length
        // one, left by a crash before its rename, was called the server's tampering without the
        // server being asked again: found by an app maker's audit.)
        let leftOver = (StagingFiles.size(part) ?? 0) > 0
        while true {
            try Task.checkCancellation()
            var have = StagingFiles.size(part) ?? 0
            if have > ref.bytes {
                StagingFiles.remove(part)
                have = 0
            }
            if have < ref.bytes {
                do {
                    try await transfer(ref, to: part, from: have, received: &transferred, resumed: &resumed)
                } catch let error as SyncError {
                    throw error
                } catch is CancellationError {
                    throw CancellationError()
                } catch {
                    failures += 1
                    guard try await retry.waitBeforeRetry(after: failures, error) else {
                        let got = StagingFiles.size(part) ?? 0
                        let why = retry.describe(error, attempts: failures)
                        var failure = SyncError(
                            .transport, file: ref.path,
                            got == 0
                                ? "the download failed: \(why)"
                                : "the download stopped at \(got) of \(ref.bytes) bytes (\(why)); the part is kept and the next sync continues from there")
                        // A 403, a redirect loop, a certificate refused: asking later will not mend it (as HTTPRetry).
                        failure.definitive = (error as? PackTransportError)?.transient == false
                        throw failure
                    }
                    continue
                }
            }
            let got = StagingFiles.size(part) ?? 0
            if got < ref.bytes {
                // The server ended the body early without an error: try again from where it stopped.
                failures += 1
                guard try await retry.waitBeforeRetry(after: failures, PackTransportError("the body ended early")) else {
                    let attempts = failures > 1 ? " (after \(failures) attempts)" : ""
                    throw SyncError(
                        .transport, file: ref.path,
                        "only \(got) of \(ref.bytes) bytes arrived\(attempts); the part is kept and the next sync continues from there")
                }
                continue
            }
            if try Self.verify(part, ref) {
                try StagingFiles.move(part, to: final)
                let outcome = Outcome(path: final, transferred: transferred, resumed: resumed, reused: false)
                do {
                    try onEvent?(.mediaDownloaded(ref: ref, transferred: transferred, resumed: resumed))
                } catch {
                    // As at every other event: the caller stopped the sync (it was taken for a
                    // network failure; found by an app developer).
                    throw SyncError(.cancelled, "stopped: \(error)")
                }
                return outcome
            }
            StagingFiles.remove(part)
            // A resumed part may have been damaged before this run (a crash mid-write): start
            // once more from zero before calling the server's file bad.
            if (resumed || leftOver) && !restartedAfterBadResume {
                restartedAfterBadResume = true
                continue
            }
            throw SyncError(.hashMismatch, file: ref.path, "the file's SHA-256 is not the one in its name (the SHA-256 the pack gives it); it was altered or damaged")
        }
    }

    /// One request: appends what arrives to `part`, which holds `offset` bytes; counts the bytes
    /// received (also when the transfer breaks) and whether the server continued the part.
    private func transfer(_ ref: PackMediaRef, to part: String, from offset: Int, received: inout Int, resumed: inout Bool) async throws {
        let response = try await transport.open(ref.path, from: offset)
        var start = offset
        switch response.status {
        case .notFound:
            throw SyncError(.notFound, file: ref.path, "not found at \(transport.location)")
        case .rangeNotSatisfiable:
            StagingFiles.remove(part)
            throw PackTransportError("the server refused to continue at byte \(offset); starting over")
        case .full:
            start = 0
        case .partial(let s):
            guard s == offset else {
                StagingFiles.remove(part)
                throw PackTransportError("the server continued at byte \(s) instead of \(offset); starting over")
            }
            resumed = true
        }
        // A whole file of another length is the server's file, not a broken transfer: asking again
        // would get the same (a file cut short on the server was asked for again on every sync,
        // as a network failure; found by an app developer). A part may end short of the end.
        if let length = response.length, response.status == .full ? start + length != ref.bytes : start + length > ref.bytes {
            throw SyncError(
                .sizeMismatch, file: ref.path,
                "the pack source offers \(start + length) bytes, but the pack says the file has \(ref.bytes): the file on the server is not the one the pack was built with (an upload cut short?); its publisher must upload it again")
        }
        // The disk's failures are the store's (not retried, not the server's).
        func disk<T>(_ step: () throws -> T) throws(SyncError) -> T {
            do {
                return try step()
            } catch {
                throw SyncError(.store, file: ref.path, "cannot write \(part): \(error.localizedDescription)")
            }
        }
        try disk { try StagingFiles.touch(part) }
        guard let handle = FileHandle(forWritingAtPath: part) else {
            throw SyncError(.store, file: ref.path, "cannot write \(part)")
        }
        defer { try? handle.close() }
        try disk {
            try handle.truncate(atOffset: UInt64(start))
            try handle.seek(toOffset: UInt64(start))
        }
        var written = start
        for try await chunk in response.body {
            if written + chunk.count > ref.bytes {
                try? handle.close()
                StagingFiles.remove(part)
                throw SyncError(.sizeMismatch, file: ref.path, "more than the \(ref.bytes) bytes the pack names arrived")
            }
            try disk { try handle.write(contentsOf: chunk) }
            written += chunk.count
            received += chunk.count
        }
    }

    /// Size and SHA-256 of the file at `path` match `ref` (reads in chunks).
    static func verify(_ path: String, _ ref: PackMediaRef) throws -> Bool {
        guard StagingFiles.size(path) == ref.bytes, let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        var hasher = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(data: chunk) }
        return PackDigest.hex(hasher.finalize()) == ref.sha256
    }
}
