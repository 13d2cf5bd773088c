import BestiaryPackFormat
import Foundation

/// Reads whole small files (pointer, manifests, deltas, signatures) through a transport,
/// never accepting more bytes than a limit, and asks again after a transfer that failed in a
/// way that may pass (a dropped connection, HTTP 503: ``SyncRetry``).
struct PackFetcher: Sendable {
    let transport: any PackTransport
    var retry = SyncRetry(retries: 2, delay: .milliseconds(500))

    /// The whole file, refusing more than `limit` bytes.
    func fetch(_ path: String, limit: Int, tooLarge: SyncError.Reason) async throws(SyncError) -> Data {
        do {
            return try await retry.run(path: path) { try await fetchOnce(path, limit: limit, tooLarge: tooLarge) }
        } catch let error as SyncError {
            throw error
        } catch {
            // Only a cancellation is left.
            throw SyncError(.cancelled, "the sync was cancelled; the store is unchanged")
        }
    }

    private func fetchOnce(_ path: String, limit: Int, tooLarge: SyncError.Reason) async throws -> Data {
        let response = try await transport.open(path, from: 0)
        switch response.status {
        case .notFound:
            throw SyncError(.notFound, file: path, "not found at \(transport.location)" + (await folderHint(for: path)))
        case .partial, .rangeNotSatisfiable:
            // A server set up so, not a passing failure.
            var failure = SyncError(.transport, file: path, "the server answered a plain request with a partial response")
            failure.definitive = true
            throw failure
        case .full:
            break
        }
        if let length = response.length, length > limit {
            throw SyncError(tooLarge, file: path, "the pack source offers \(length) bytes; at most \(limit) are accepted")
        }
        var data = Data()
        for try await chunk in response.body {
            data.append(chunk)
            if data.count > limit {
                throw SyncError(tooLarge, file: path, "the file is larger than the \(limit) bytes accepted")
            }
        }
        // A transport's body may end quietly when its task is cancelled: not a whole file.
        try Task.checkCancellation()
        return data
    }

    /// A site's address given for its pack folder (`https://example.org/` for
    /// `https://example.org/packs`): the pointer is looked for in `packs/` below it, and the
    /// folder named when it is there (a local path was told so; a URL said only "not found").
    private func folderHint(for path: String) async -> String {
        guard path == PackFormat.pointerPath else { return "" }
        // Nor there: the address, or the publishing, is what to look at (it said only "not found").
        guard let probe = try? await transport.open("packs/" + path, from: 0), probe.status == .full else {
            return ": is that the address of the folder holding latest.json (a site's packs/ folder), and is the pack published there?"
        }
        var seen = 0
        do {
            for try await chunk in probe.body {
                seen += chunk.count
                if seen > 1 << 16 { break }
            }
        } catch {}
        var base = transport.location
        while base.hasSuffix("/") { base.removeLast() }
        return ", but \(base)/packs holds one: give that folder (the one holding latest.json)"
    }
}
