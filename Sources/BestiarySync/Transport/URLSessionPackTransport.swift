import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reads a pack tree over HTTP(S) with `URLSession`: Apple platforms, and Linux through
/// FoundationNetworking. Bytes are handed on as they arrive, so an interrupted download leaves
/// what it got and can go on with a `Range` request.
public final class URLSessionPackTransport: PackTransport, @unchecked Sendable {
    /// The folder holding `latest.json`.
    public var baseURL: URL { folder.baseURL }
    private let folder: HTTPPackFolder
    private let session: URLSession
    private let delegate: SessionDelegate

    /// - Parameters:
    ///   - configuration: defaults to an ephemeral session (no cookies, no shared cache: the
    ///     client verifies everything itself and keeps its own files).
    ///   - timeout: seconds without data before a request fails.
    public init(baseURL: URL, configuration: URLSessionConfiguration = .ephemeral, timeout: TimeInterval = 60) {
        folder = HTTPPackFolder(baseURL)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.timeoutIntervalForRequest = timeout
        let delegate = SessionDelegate()
        self.delegate = delegate
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    public var location: String { folder.location }

    public func open(_ path: String, from offset: Int) async throws -> PackResponse {
        let url = try folder.url(of: path)
        var request = URLRequest(url: url)
        for (name, value) in HTTPPackFolder.headers(for: path, from: offset) { request.setValue(value, forHTTPHeaderField: name) }
        let task = session.dataTask(with: request)
        let (body, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        // Once the reader is gone (it stopped at a size limit, failed, or was cancelled), the
        // transfer stops and what still arrives is dropped, not buffered: a server that sends
        // without end must not fill the memory (the cancellation reaches the transfer late on
        // Linux, behind the data already queued).
        let delegate = self.delegate
        continuation.onTermination = { @Sendable _ in
            delegate.forget(task.taskIdentifier)
            task.cancel()
        }
        let response: URLResponse = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (head: CheckedContinuation<URLResponse, any Error>) in
                delegate.register(task.taskIdentifier, head: head, body: continuation)
                task.resume()
            }
        } onCancel: {
            delegate.cancelHead(task.taskIdentifier)
            task.cancel()
        }
        guard let http = response as? HTTPURLResponse else {
            task.cancel()
            throw PackTransportError("\(HTTPPackFolder.shown(url)): not an HTTP response", transient: false)
        }
        // A compressed body's Content-Length counts the compressed bytes, not the file's.
        let encoded = (http.value(forHTTPHeaderField: "Content-Encoding")).map { $0.lowercased() != "identity" } ?? false
        let length = !encoded && http.expectedContentLength >= 0 ? Int(http.expectedContentLength) : nil
        let status: PackResponse.Status
        do {
            status = try HTTPPackFolder.status(
                http.statusCode, contentRange: header(http, "Content-Range"), retryAfter: header(http, "Retry-After"), url: url)
        } catch {
            task.cancel()
            throw error
        }
        switch status {
        case .full, .partial:
            return PackResponse(status: status, length: length, body: body)
        case .notFound, .rangeNotSatisfiable:
            task.cancel()
            return .empty(status)
        }
    }

    private func header(_ response: HTTPURLResponse, _ name: String) -> String? {
        for (key, value) in response.allHeaderFields {
            if let k = key as? String, k.caseInsensitiveCompare(name) == .orderedSame { return value as? String }
        }
        return nil
    }

}

/// Routes the session's callbacks to the request that is waiting for them.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct Pending {
        var head: CheckedContinuation<URLResponse, any Error>?
        var body: AsyncThrowingStream<Data, any Error>.Continuation
    }

    private let lock = NSLock()
    private var pending: [Int: Pending] = [:]

    func register(_ id: Int, head: CheckedContinuation<URLResponse, any Error>, body: AsyncThrowingStream<Data, any Error>.Continuation) {
        lock.withLock { pending[id] = Pending(head: head, body: body) }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let head = lock.withLock { () -> CheckedContinuation<URLResponse, any Error>? in
            let h = pending[dataTask.taskIdentifier]?.head
            pending[dataTask.taskIdentifier]?.head = nil
            return h
        }
        head?.resume(returning: response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let body = lock.withLock({ pending[dataTask.taskIdentifier]?.body }) else {
            // Nobody reads this transfer any more: stop it.
            dataTask.cancel()
            return
        }
        body.yield(data)
    }

    /// The reader of a transfer is gone: what still arrives is dropped.
    func forget(_ id: Int) {
        let entry = lock.withLock { pending.removeValue(forKey: id) }
        entry?.head?.resume(throwing: CancellationError())
    }

    /// The request was cancelled while it waited for the response's head: it stops waiting now,
    /// not when the transfer's end is reported.
    func cancelHead(_ id: Int) {
        let head = lock.withLock { () -> CheckedContinuation<URLResponse, any Error>? in
            let h = pending[id]?.head
            pending[id]?.head = nil
            return h
        }
        head?.resume(throwing: CancellationError())
    }

    /// URLSession's failures that asking again does not get past: a URL it cannot use, a body
    /// not in its named encoding, a certificate that is not trusted.
    static let permanentFailures: Set<URLError.Code> = [
        .badURL, .unsupportedURL, .cannotDecodeContentData, .cannotDecodeRawData, .serverCertificateUntrusted,
        .serverCertificateHasBadDate, .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot,
        .clientCertificateRejected, .clientCertificateRequired,
    ]

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = lock.withLock({ pending.removeValue(forKey: task.taskIdentifier) }) else { return }
        let failure = error.map {
            PackTransportError(
                "\(task.originalRequest?.url.map(HTTPPackFolder.shown) ?? "request"): \($0.localizedDescription)",
                transient: !Self.permanentFailures.contains(($0 as? URLError)?.code ?? .unknown))
        }
        if let head = entry.head {
            head.resume(throwing: failure ?? PackTransportError("the server closed the connection without a response"))
        }
        if let failure {
            entry.body.finish(throwing: failure)
        } else {
            entry.body.finish()
        }
    }
}
