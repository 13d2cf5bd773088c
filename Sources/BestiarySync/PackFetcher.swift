import BestiaryPackFormat
import Foundation

/// Reads whole small files (pointer, manifests, deltas, signatures) through a transport,
/// never accepting more bytes than a limit.
struct PackFetcher: Sendable {
    let transport: any PackTransport

    /// The whole file, refusing more than `limit` bytes.
    func fetch(_ path: String, limit: Int, tooLarge: SyncError.Reason) async throws(SyncError) -> Data {
        do {
            let response = try await transport.open(path, from: 0)
            switch response.status {
            case .notFound:
                throw SyncError(.notFound, file: path, "not found at \(transport.location)")
            case .partial, .rangeNotSatisfiable:
                throw SyncError(.transport, file: path, "the server answered a plain request with a partial response")
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
            return data
        } catch let error as SyncError {
            throw error
        } catch is CancellationError {
            throw SyncError(.cancelled, "the sync was cancelled; the store is unchanged")
        } catch {
            throw SyncError(.transport, file: path, "\(error)")
        }
    }
}
