import BestiaryPackFormat
import Foundation

/// Where a client reads a pack tree from: an HTTP(S) server or CDN, a local folder, or
/// anything an app provides (a bundled copy, a test double). Paths are relative to the folder
/// holding `latest.json` and were checked to stay inside it (``BestiaryPackFormat/PackFormat/isSafePath(_:)``).
public protocol PackTransport: Sendable {
    /// Where the pack is, for messages (`https://example.org/packs`, `/srv/packs`).
    var location: String { get }

    /// Starts reading `path`. When `offset` > 0 the caller has the first `offset` bytes
    /// already and asks for the rest (HTTP `Range: bytes=OFFSET-`); a transport that cannot
    /// do that answers with the whole file (``PackResponse/Status/full``).
    func open(_ path: String, from offset: Int) async throws -> PackResponse

    /// Ends what the transport holds open (connections): called once, when the reader is done.
    func close() async

    /// Every file below the pack's folder, as paths relative to it, sorted, where the transport
    /// can list a folder (a local one); nil where it cannot (HTTP).
    func listFiles() async -> [String]?
}

extension PackTransport {
    public func close() async {}
    public func listFiles() async -> [String]? { nil }
}

/// A transport's answer: what it is, and the bytes as they arrive.
public struct PackResponse: Sendable {
    public enum Status: Hashable, Sendable {
        /// The whole file, from byte 0.
        case full
        /// The file from byte `start` on.
        case partial(start: Int)
        /// No such file (HTTP 404 or 410).
        case notFound
        /// The range asked for starts at or after the end of the file (HTTP 416).
        case rangeNotSatisfiable
    }

    public var status: Status
    /// The number of body bytes to expect, when the server said.
    public var length: Int?
    /// The body in chunks; ends with an error when the transfer breaks.
    public var body: AsyncThrowingStream<Data, any Error>

    public init(status: Status, length: Int?, body: AsyncThrowingStream<Data, any Error>) {
        self.status = status
        self.length = length
        self.body = body
    }

    /// A response without a body.
    public static func empty(_ status: Status) -> PackResponse {
        PackResponse(status: status, length: 0, body: AsyncThrowingStream { $0.finish() })
    }
}

/// A transfer that failed below the pack format: connection refused, HTTP 500, a cut.
public struct PackTransportError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    /// Whether asking again may get past it (a dropped connection, HTTP 503), which sync does a
    /// few times; false for an answer that will not change (HTTP 403, a redirect loop).
    public var transient: Bool
    /// How long the server asked to be left alone (`Retry-After`), when it said.
    public var retryAfter: Duration?

    public init(_ message: String, transient: Bool = true, retryAfter: Duration? = nil) {
        self.message = message
        self.transient = transient
        self.retryAfter = retryAfter
    }

    public var description: String { message }
}

/// The transport for a pack location as the `sync` command takes it: an `http(s)://` URL, a
/// `file://` URL or a local path, with or without a trailing `latest.json`.
public enum PackLocation {
    /// `http`: the transport for an HTTP(S) folder (``URLSessionPackTransport`` unless given).
    public static func transport(
        for location: String, http: (URL) -> any PackTransport = { URLSessionPackTransport(baseURL: $0) }
    ) throws -> any PackTransport {
        if let problem = syntaxProblem(location) { throw PackTransportError(problem) }
        let text = folder(location)
        let lower = text.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            guard let url = URL(string: text) else { throw PackTransportError("'\(HTTPPackFolder.shown(location))' is not a valid URL") }
            return http(url)
        }
        if lower.hasPrefix("file://") {
            guard let url = URL(string: text) else { throw PackTransportError("'\(HTTPPackFolder.shown(location))' is not a valid file URL") }
            return LocalPackTransport(directory: url.path)
        }
        let directory = text.isEmpty ? "." : text
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            throw PackTransportError("there is no folder '\(directory)'; give the pack folder (the one holding latest.json) or its http(s) URL")
        }
        if !isDirectory.boolValue {
            throw PackTransportError("'\(directory)' is a file, not a folder; give the pack folder (the one holding latest.json) or its http(s) URL")
        }
        // A build's output or a site root given for the pack folder in it: the folder meant.
        var base = directory
        while base.count > 1, base.hasSuffix("/") { base.removeLast() }
        if !FileManager.default.fileExists(atPath: base + "/" + PackFormat.pointerPath) {
            for inner in ["packs", "output/packs"] where FileManager.default.fileExists(atPath: "\(base)/\(inner)/\(PackFormat.pointerPath)") {
                throw PackTransportError("'\(directory)' holds no \(PackFormat.pointerPath), but '\(base)/\(inner)' does: give that folder (the one holding latest.json)")
            }
        }
        return LocalPackTransport(directory: directory)
    }

    /// What is wrong with how `location` is written, before anything is looked up (a usage
    /// error): a scheme other than http, https and file, a URL that does not parse, or one with
    /// a query or fragment (every file is fetched below the folder's address, so a query would
    /// be dropped, and a signed per-file URL cannot name the others). Nil when it may be used.
    public static func syntaxProblem(_ location: String) -> String? {
        let text = folder(location)
        let lower = text.lowercased()
        let web = lower.hasPrefix("http://") || lower.hasPrefix("https://")
        if web || lower.hasPrefix("file://") {
            guard let url = URLComponents(string: text), URL(string: text) != nil, !web || url.host?.isEmpty == false else {
                return "'\(HTTPPackFolder.shown(location))' is not a valid \(web ? "" : "file ")URL"
            }
            // `file://www/packs` reads /packs: `www` was taken as a host without a word.
            if !web, let host = url.host, !host.isEmpty, host.lowercased() != "localhost" {
                return "'\(HTTPPackFolder.shown(location))' names the host '\(host)', which a file URL cannot read from; write file:/// and the full path (three slashes), or the path itself"
            }
            if url.query != nil || url.fragment != nil {
                return "'\(HTTPPackFolder.shown(location))' has a query (?…) or a fragment (#…); give the address of the pack folder (the one holding latest.json) without one: every file is fetched below it"
            }
            return nil
        }
        if lower.contains("://") {
            return "'\(HTTPPackFolder.shown(location))' is neither an http(s) URL nor a folder; packs are read over HTTP(S) or from a local folder"
        }
        return nil
    }

    /// The local folder `location` names, as given (without a trailing `latest.json`); nil for
    /// an http(s) or file URL.
    public static func localFolder(_ location: String) -> String? {
        let text = folder(location)
        let lower = text.lowercased()
        return ["http://", "https://", "file://"].contains { lower.hasPrefix($0) } ? nil : text
    }

    /// `location` without a trailing `latest.json`.
    private static func folder(_ location: String) -> String {
        var text = location
        if text.hasSuffix("/latest.json") { text.removeLast("/latest.json".count) } else if text == "latest.json" { text = "." }
        return text
    }
}
