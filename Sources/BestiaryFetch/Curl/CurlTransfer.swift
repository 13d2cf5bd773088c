import CCurl
import Foundation

/// One HTTP GET through libcurl's easy interface, on a thread of its own (`curl_easy_perform`
/// blocks). ``head()`` waits for the response's status and headers, ``next()`` for each piece
/// of the body. At most ``window`` pieces wait for the reader: while they do, the transfer
/// waits too, so a server that sends without end fills no memory; ``cancel()`` (or dropping
/// the reader, see ``CurlBody``) ends the transfer at curl's next callback and closes the
/// connection. Redirects are not followed here: the transports follow them themselves.
final class CurlTransfer: @unchecked Sendable {
    struct Request: Sendable {
        var url: String
        var headers: [(name: String, value: String)] = []
        /// Asked for and decoded by curl (`gzip`); nil: the body is passed on as it comes.
        var acceptEncoding: String?
        var connectTimeout: Duration
        /// How long the connection may stay silent, from the start to the body's end.
        var readTimeout: Duration
        /// The whole transfer's limit, nil for none.
        var deadline: Duration?
        /// `http://host:port`, or nil for no proxy (the environment's are not read by curl:
        /// the transports decide, see ``CurlProxy``).
        var proxy: CurlProxy?
        /// More body bytes than this end the transfer (``Failure/Kind/tooLarge``).
        var maxBytes: Int?
        /// Fewer bytes than this arriving in any `readTimeout` (the reader's waits not counted)
        /// end the transfer as ``Failure/Kind/slow``: a server that trickles a byte now and then
        /// is never silent, and would keep a transfer without a deadline going for hours.
        var minimumBytesPerReadTimeout: Int64 = 0
    }

    /// The final response's status and headers (names in lower case).
    struct Head: Sendable {
        var status: Int
        var headers: [(name: String, value: String)]

        func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }
    }

    /// Why a transfer ended before its body did.
    struct Failure: Error, Sendable {
        enum Kind: Sendable, Equatable {
            /// ``cancel()`` was called, or the reader went away.
            case cancelled
            /// Nothing arrived for the request's `readTimeout`.
            case silent
            /// Less than the request's `minimumBytesPerReadTimeout` arrived in a `readTimeout`.
            case slow
            /// The body passed the request's `maxBytes`.
            case tooLarge
            /// curl gave up: ``code`` says why.
            case curl
        }
        var kind: Kind
        /// curl's `CURLcode`.
        var code: Int
        /// The system's `errno` of the failed connection, 0 when none.
        var osErrno: Int
        /// curl's own words (its error buffer, else `curl_easy_strerror`).
        var message: String
        /// Body bytes received (decoded).
        var received: Int
        /// Whether a response's head had arrived.
        var answered: Bool
        /// Whether a connection was made and every handshake on it done (TCP, a proxy's CONNECT, TLS).
        var connected: Bool
    }

    /// Pieces of the body held for a reader that has not taken them yet.
    static let window = 8

    let request: Request
    private let pool: CurlHandlePool
    private let condition = NSCondition()
    // Guarded by `condition`:
    private var status = 0
    private var collecting: [(name: String, value: String)] = []
    private var head: Head?
    private var pieces: [Data] = []
    private var received = 0
    private var finished = false
    private var failure: Failure?
    private var cancelled = false
    private var silent = false
    private var slow = false
    private var windowStart = ContinuousClock.now
    private var windowCount: Int64 = 0
    private var tooLarge = false
    private var headWaiter: CheckedContinuation<Head, any Error>?
    private var pieceWaiter: CheckedContinuation<Data?, any Error>?
    private var lastActivity = ContinuousClock.now
    private var lastCount: Int64 = 0

    init(_ request: Request, pool: CurlHandlePool) {
        self.request = request
        self.pool = pool
    }

    /// Starts the transfer on a new thread; the thread holds the transfer until curl is done.
    func start() {
        let thread = Thread { [self] in perform() }
        thread.name = "bestiary-curl"
        thread.start()
    }

    // MARK: Reading

    /// The response's head; throws ``Failure`` when none came.
    func head() async throws -> Head {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Head, any Error>) in
                condition.lock()
                if let head {
                    condition.unlock()
                    waiter.resume(returning: head)
                } else if finished {
                    let failure = failure ?? noAnswer()
                    condition.unlock()
                    waiter.resume(throwing: failure)
                } else {
                    headWaiter = waiter
                    condition.unlock()
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// The next piece of the body, nil at its end; throws ``Failure`` when it broke off.
    func next() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Data?, any Error>) in
                condition.lock()
                if !pieces.isEmpty {
                    let piece = pieces.removeFirst()
                    condition.broadcast()
                    condition.unlock()
                    waiter.resume(returning: piece)
                } else if finished {
                    let failure = failure
                    condition.unlock()
                    if let failure { waiter.resume(throwing: failure) } else { waiter.resume(returning: nil) }
                } else {
                    pieceWaiter = waiter
                    condition.unlock()
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// The whole body (what ``next()`` gives, joined).
    func body() async throws -> Data {
        var body = Data()
        while let piece = try await next() { body.append(piece) }
        return body
    }

    /// Ends the transfer at curl's next callback (within about a second when the server is silent).
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    private func noAnswer() -> Failure {
        Failure(
            kind: .curl, code: Int(CURLE_GOT_NOTHING.rawValue), osErrno: 0, message: "the server sent no answer", received: 0,
            answered: false, connected: true)
    }

    // MARK: The transfer's thread

    private func perform() {
        let handle = pool.take()
        var headers: UnsafeMutablePointer<curl_slist>?
        for (name, value) in request.headers { headers = curl_slist_append(headers, "\(name): \(value)") }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer {
            curl_slist_free_all(headers)
            errorBuffer.deallocate()
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        var code = CURLE_OK
        func set(_ option: CURLoption, _ value: Int) {
            if code == CURLE_OK { code = bestiary_curl_set_long(handle, option, value) }
        }
        func set(_ option: CURLoption, _ value: String) {
            if code == CURLE_OK { code = bestiary_curl_set_string(handle, option, value) }
        }
        // Only http(s) URLs come here (the transports check every URL, redirects included).
        set(CURLOPT_URL, request.url)
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_FOLLOWLOCATION, 0)
        set(CURLOPT_CONNECTTIMEOUT_MS, request.connectTimeout.milliseconds)
        if let deadline = request.deadline { set(CURLOPT_TIMEOUT_MS, max(1, deadline.milliseconds)) }
        if let encoding = request.acceptEncoding { set(CURLOPT_ACCEPT_ENCODING, encoding) }
        if let proxy = request.proxy {
            set(CURLOPT_PROXY, proxy.address)
            if let user = proxy.user { set(CURLOPT_PROXYUSERNAME, user) }
            if let password = proxy.password { set(CURLOPT_PROXYPASSWORD, password) }
            set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
            set(CURLOPT_NOPROXY, "")  // the transports' decision stands (curl would read no_proxy itself)
        } else {
            set(CURLOPT_PROXY, "")  // not the environment's: the transports decide
        }
        set(CURLOPT_NOPROGRESS, 0)
        if code == CURLE_OK { code = bestiary_curl_set_list(handle, CURLOPT_HTTPHEADER, headers) }
        if code == CURLE_OK { code = bestiary_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer) }
        for option in [CURLOPT_WRITEDATA, CURLOPT_HEADERDATA, CURLOPT_XFERINFODATA] where code == CURLE_OK {
            code = bestiary_curl_set_pointer(handle, option, context)
        }
        if code == CURLE_OK { code = bestiary_curl_set_data_callback(handle, CURLOPT_WRITEFUNCTION, curlBodyCallback) }
        if code == CURLE_OK { code = bestiary_curl_set_data_callback(handle, CURLOPT_HEADERFUNCTION, curlHeaderCallback) }
        if code == CURLE_OK { code = bestiary_curl_set_progress_callback(handle, curlProgressCallback) }
        if code == CURLE_OK { code = curl_easy_perform(handle) }
        var osErrno = 0
        _ = bestiary_curl_get_long(handle, CURLINFO_OS_ERRNO, &osErrno)
        // Connected: every handshake done (TCP, the proxy's CONNECT, TLS), the request about to go.
        var connectTime: curl_off_t = 0
        _ = bestiary_curl_get_offset(handle, CURLINFO_PRETRANSFER_TIME_T, &connectTime)
        let message = errorBuffer.pointee != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
        // A transfer broken off leaves its connection closed; a whole one may be used again.
        pool.give(handle, reusable: code == CURLE_OK)
        finish(code, osErrno: osErrno, message: message, connected: connectTime > 0)
    }

    private func finish(_ code: CURLcode, osErrno: Int, message: String, connected: Bool) {
        condition.lock()
        finished = true
        if code != CURLE_OK {
            let kind: Failure.Kind = cancelled ? .cancelled : silent ? .silent : slow ? .slow : tooLarge ? .tooLarge : .curl
            failure = Failure(
                kind: kind, code: Int(code.rawValue), osErrno: osErrno, message: message, received: received, answered: head != nil,
                connected: connected || head != nil)
        }
        let headWaiter = headWaiter, pieceWaiter = pieceWaiter
        self.headWaiter = nil
        self.pieceWaiter = nil
        let head = head, failure = failure
        condition.broadcast()
        condition.unlock()
        if let headWaiter {
            if let head { headWaiter.resume(returning: head) } else { headWaiter.resume(throwing: failure ?? noAnswer()) }
        }
        if let pieceWaiter {
            if let failure { pieceWaiter.resume(throwing: failure) } else { pieceWaiter.resume(returning: nil) }
        }
    }

    /// One line of a response's head (curl passes the heads of every response, 1xx included).
    fileprivate func headerLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        condition.lock()
        lastActivity = .now
        if cancelled {
            condition.unlock()
            return false
        }
        var waiter: CheckedContinuation<Head, any Error>?
        var ready: Head?
        if line.hasPrefix("HTTP/") {
            status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            collecting = []
        } else if line.isEmpty {
            // The end of a head: an interim one (100 Continue, 103 Early Hints) is followed by another.
            if !(100..<200).contains(status), head == nil {
                ready = Head(status: status, headers: collecting)
                head = ready
                // The slow rule counts the body's bytes from here. Until now the window that began
                // with the request applies, so a head must come whole within one read timeout (one
                // whose lines trickle in is ended as slow); but an answer that took most of a read
                // timeout to begin was ended as slow too, its body's first bytes counted in a window
                // that was nearly over. Silence is timed as before.
                windowStart = lastActivity
                windowCount = lastCount
                waiter = headWaiter
                headWaiter = nil
            }
        } else if let colon = line.firstIndex(of: ":"), head == nil {
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            collecting.append((name, value))
        }
        condition.unlock()
        if let waiter, let ready { waiter.resume(returning: ready) }
        return true
    }

    /// A piece of the body; waits while the reader has ``window`` pieces it has not taken.
    fileprivate func bodyPiece(_ bytes: UnsafeRawBufferPointer) -> Bool {
        condition.lock()
        if cancelled {
            condition.unlock()
            return false
        }
        if let limit = request.maxBytes, received + bytes.count > limit {
            tooLarge = true
            condition.unlock()
            return false
        }
        received += bytes.count
        let piece = Data(bytes)
        var waiter: CheckedContinuation<Data?, any Error>?
        if let pieceWaiter {
            waiter = pieceWaiter
            self.pieceWaiter = nil
        } else {
            pieces.append(piece)
        }
        if let waiter {
            condition.unlock()
            waiter.resume(returning: piece)
            condition.lock()
        }
        var waited = false
        while pieces.count >= Self.window, !cancelled {
            condition.wait()
            waited = true
        }
        // Time spent waiting for the reader is not the server's silence, nor its slowness.
        lastActivity = .now
        if waited {
            windowStart = lastActivity
            windowCount = lastCount
        }
        let go = !cancelled
        condition.unlock()
        return go
    }

    /// curl's progress callback: ends a cancelled transfer, and one silent for too long.
    fileprivate func progress(downloaded: Int64) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if cancelled { return false }
        let now = ContinuousClock.now
        if downloaded != lastCount {
            lastCount = downloaded
            lastActivity = now
        } else if now - lastActivity > request.readTimeout {
            silent = true
            return false
        }
        if now - windowStart >= request.readTimeout {
            if downloaded - windowCount < request.minimumBytesPerReadTimeout {
                slow = true
                return false
            }
            windowStart = now
            windowCount = downloaded
        }
        return true
    }
}

private let curlBodyCallback: bestiary_curl_data_callback = { data, size, count, context in
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
    let length = size * count
    return transfer.bodyPiece(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

private let curlHeaderCallback: bestiary_curl_data_callback = { data, size, count, context in
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
    let length = size * count
    return transfer.headerLine(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

private let curlProgressCallback: bestiary_curl_progress_callback = { context, _, downloaded, _, _ in
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
    return transfer.progress(downloaded: Int64(downloaded)) ? 0 : 1
}

/// A proxy for one request: curl's `CURLOPT_PROXY` and its credentials.
struct CurlProxy: Sendable, Equatable {
    /// `http`, or `https` for a proxy spoken to over TLS.
    var scheme = "http"
    var host: String
    var port: Int
    var user: String?
    var password: String?

    var address: String {
        scheme + "://" + (host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host) + ":\(port)"
    }

    /// The proxy the environment names for `url`, read as curl reads it: `https_proxy` (or
    /// `HTTPS_PROXY`) for https, `http_proxy` for http (lower case only: a program run as CGI gets
    /// `HTTP_PROXY` from a request's `Proxy:` header), else `all_proxy` (or `ALL_PROXY`); unless
    /// `no_proxy` (or `NO_PROXY`) lists the host (`*`, a name, a domain the host ends with, or,
    /// for a host written as an address, that address or a range of them: `10.0.0.0/8`,
    /// `fd00::/8`) or the host is this machine (`localhost`, 127.x.x.x, ::1). A proxy URL
    /// without a port uses 80 (`http://`, or no scheme) or 443 (`https://`, spoken to over TLS);
    /// with `user:password@`, basic authorization.
    static func from(environment: [String: String], for url: URL) -> CurlProxy? {
        guard let host = url.host?.lowercased(), let scheme = url.scheme?.lowercased() else { return nil }
        // This machine itself is never reached through a proxy.
        if host == "localhost" || isLoopbackIPv4(host) || host == "::1" || host == "[::1]" { return nil }
        func value(_ name: String) -> String? {
            let setting = name == "http_proxy" ? environment[name] : environment[name] ?? environment[name.uppercased()]
            return setting.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        }
        let hostIsAddress = ipAddressBytes(host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host) != nil
        if let noProxy = value("no_proxy") {
            for entry in noProxy.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) where !entry.isEmpty {
                if entry == "*" { return nil }
                if let inRange = addressRange(entry, contains: host) {
                    if inRange { return nil }
                    continue
                }
                // An address is matched by addresses only (`30.40` is no domain of 10.20.30.40).
                if hostIsAddress { continue }
                let domain = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
                if host == domain || host.hasSuffix("." + domain) { return nil }
            }
        }
        guard let setting = value(scheme == "https" ? "https_proxy" : "http_proxy") ?? value("all_proxy") else { return nil }
        let text = setting.contains("://") ? setting : "http://" + setting
        guard let proxy = URL(string: text), let proxyHost = proxy.host, !proxyHost.isEmpty else { return nil }
        let secure = proxy.scheme?.lowercased() == "https"
        return CurlProxy(
            scheme: secure ? "https" : "http", host: proxyHost, port: proxy.port ?? (secure ? 443 : 80),
            user: proxy.user?.removingPercentEncoding, password: proxy.password?.removingPercentEncoding)
    }
}

/// For a `no_proxy` entry that is an IP address or a range (`192.168.0.0/16`, `[fd00::]/8`,
/// `10.1.2.3`): whether `host` is an address in it (a name never is). nil for any other entry (a
/// name or a domain), or a range whose prefix is not a number the address's length allows (such
/// an entry is left out, so the proxy is used). Beyond curl (lib/noproxy.c): an entry may be
/// bracketed, and a prefix of 0 is the whole address space (curl reads `/0` as no prefix). An
/// IPv6 zone (`fe80::1%eth0`) is not part of the address compared.
func addressRange(_ entry: String, contains host: String) -> Bool? {
    var address = entry
    var prefix: Int?
    if let slash = entry.lastIndex(of: "/") {
        guard let bits = Int(entry[entry.index(after: slash)...]) else { return nil }
        address = String(entry[..<slash])
        prefix = bits
    }
    func unbracketed(_ text: String) -> String {
        text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
    }
    guard let range = ipAddressBytes(unbracketed(address)) else { return nil }
    let bits = prefix ?? range.count * 8
    guard (0...(range.count * 8)).contains(bits) else { return nil }
    guard let candidate = ipAddressBytes(unbracketed(host)), candidate.count == range.count else { return false }
    for bit in 0..<bits {
        let mask = UInt8(0x80) >> UInt8(bit % 8)
        if candidate[bit / 8] & mask != range[bit / 8] & mask { return false }
    }
    return true
}

/// The 4 or 16 bytes of an IPv4 or IPv6 address written as text (an IPv6 zone, `%eth0`, left
/// out), or nil for anything else.
func ipAddressBytes(_ written: String) -> [UInt8]? {
    let text = written.contains(":") ? String(written.prefix { $0 != "%" }) : written
    var four = in_addr()
    if inet_pton(AF_INET, text, &four) == 1 {
        return withUnsafeBytes(of: &four) { Array($0) }
    }
    var sixteen = in6_addr()
    if inet_pton(AF_INET6, text, &sixteen) == 1 {
        return withUnsafeBytes(of: &sixteen) { Array($0) }
    }
    return nil
}

/// 127.x.x.x written as an address (`127.example.org` is a name).
private func isLoopbackIPv4(_ host: String) -> Bool {
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && UInt8($0) != nil }
}

/// Idle easy handles, kept with their open connections for the next transfer to the same
/// server (curl keeps a connection cache per handle).
final class CurlHandlePool: @unchecked Sendable {
    private static let global: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()
    private let lock = NSLock()
    private var idle: [UnsafeMutableRawPointer] = []
    private let keep: Int

    init(keep: Int = 4) {
        _ = Self.global
        self.keep = keep
    }

    func take() -> UnsafeMutableRawPointer {
        lock.lock()
        let handle = idle.popLast()
        lock.unlock()
        return handle ?? curl_easy_init()
    }

    /// Keeps a handle whose transfer ended well, its options reset (an idle handle must not
    /// point at the finished transfer's error buffer, header list or context).
    func give(_ handle: UnsafeMutableRawPointer, reusable: Bool) {
        if reusable { curl_easy_reset(handle) }
        lock.lock()
        if reusable, idle.count < keep {
            idle.append(handle)
            lock.unlock()
        } else {
            lock.unlock()
            curl_easy_cleanup(handle)
        }
    }

    /// Closes the idle handles and their connections.
    func close() {
        lock.lock()
        let handles = idle
        idle = []
        lock.unlock()
        handles.forEach { curl_easy_cleanup($0) }
    }

    deinit { idle.forEach { curl_easy_cleanup($0) } }
}

/// A body read piece by piece as an `AsyncThrowingStream`: when the reader drops the stream, the
/// transfer is cancelled (its thread would otherwise wait for the reader for ever).
enum CurlBody {
    static func stream(_ transfer: CurlTransfer, describe: @escaping @Sendable (any Error) -> any Error) -> AsyncThrowingStream<Data, any Error> {
        final class Reader: @unchecked Sendable {
            let transfer: CurlTransfer
            init(_ transfer: CurlTransfer) { self.transfer = transfer }
            deinit { transfer.cancel() }
        }
        let reader = Reader(transfer)
        return AsyncThrowingStream(unfolding: {
            do {
                return try await reader.transfer.next()
            } catch {
                throw describe(error)
            }
        })
    }
}

extension Duration {
    var milliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }

    var nanoseconds: Double {
        let (s, atto) = components
        return Double(s) * 1e9 + Double(atto) / 1e9
    }
}
