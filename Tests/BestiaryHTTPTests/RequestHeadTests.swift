import Testing

@testable import BestiaryHTTP

@Suite struct RequestHeadTests {
    func parse(_ text: String) -> RequestHead.Outcome {
        RequestHead.parse(Array(text.utf8)[...])
    }

    func request(_ text: String) throws -> (HTTPRequest, length: Int, body: Int) {
        guard case .request(let box, let length, let body) = parse(text) else {
            Issue.record("not a request: \(parse(text))")
            throw Stop()
        }
        return (box.request, length, body)
    }

    struct Stop: Error {}

    @Test func aRequestLineAndItsFields() throws {
        let text = "GET /animals/fox/?lang=en HTTP/1.1\r\nHost: 127.0.0.1\r\nIf-None-Match:  \"abc\" \r\n\r\nGET /next"
        let (r, length, body) = try request(text)
        #expect(r.method == "GET")
        #expect(r.target == "/animals/fox/?lang=en")
        #expect(r.path == "/animals/fox/")
        #expect(r.query == "lang=en")
        #expect(r.minorVersion == 1)
        #expect(r.headers["if-none-match"] == "\"abc\"")
        #expect(r.headers["HOST"] == "127.0.0.1")
        #expect(length == text.utf8.count - "GET /next".utf8.count)
        #expect(body == 0)
        #expect(r.keepsAlive)
    }

    @Test func anUnfinishedHeadAsksForMore() {
        #expect(parse("") == .incomplete)
        #expect(parse("GET / HTTP/1.1\r\nHost: x\r\n") == .incomplete)
        #expect(parse("\r\nGE") == .incomplete)
    }

    /// A TLS handshake to this plain port (and any other bytes no request starts with) is
    /// refused at once, not after the head's timeout.
    @Test func bytesThatBeginNoRequestAreRefusedAtOnce() {
        let line = RequestHead.Outcome.refused(status: 400, reason: "the request line is not METHOD TARGET HTTP/1.x")
        #expect(RequestHead.parse([0x16, 0x03, 0x01, 0x02, 0x00][...]) == line)
        #expect(parse(" GET") == line)
        #expect(parse("GET\t/") == line)
    }

    @Test func bareLineFeedsAndLeadingEmptyLinesAreTaken() throws {
        let (r, length, _) = try request("\r\n\r\nGET /a HTTP/1.0\nConnection: keep-alive\n\nnext")
        #expect(length == "\r\n\r\nGET /a HTTP/1.0\nConnection: keep-alive\n\n".utf8.count)
        #expect(r.path == "/a")
        #expect(r.minorVersion == 0)
        #expect(r.keepsAlive)
        #expect(try !request("GET /a HTTP/1.0\n\n").0.keepsAlive)
        #expect(try !request("GET /a HTTP/1.1\r\nConnection: Keep-Alive, close\r\n\r\n").0.keepsAlive)
    }

    /// Through a proxy the target is a whole URL; the path is what a handler routes on.
    @Test func anAbsoluteTargetGivesItsPath() throws {
        #expect(try request("GET http://wikipedia.invalid/page?x=1 HTTP/1.1\r\n\r\n").0.path == "/page")
        #expect(try request("GET http://wikipedia.invalid/page?x=1 HTTP/1.1\r\n\r\n").0.query == "x=1")
        #expect(try request("GET HTTP://host:80 HTTP/1.1\r\n\r\n").0.path == "/")
        #expect(try request("GET https://host?q HTTP/1.1\r\n\r\n").0.path == "/")
    }

    @Test func aBodyLengthIsGiven() throws {
        #expect(try request("POST /x HTTP/1.1\r\nContent-Length: 12\r\n\r\n").body == 12)
        #expect(try request("POST /x HTTP/1.1\r\nContent-Length: 12\r\ncontent-length: 12\r\n\r\n").body == 12)
        let notOne = RequestHead.Outcome.refused(status: 400, reason: "Content-Length is not one number")
        #expect(parse("POST /x HTTP/1.1\r\nContent-Length: twelve\r\n\r\n") == notOne)
        #expect(parse("POST /x HTTP/1.1\r\nContent-Length: +5\r\n\r\n") == notOne)
        #expect(parse("POST /x HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n") == notOne)
        #expect(parse("POST /x HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n") == notOne)
        #expect(parse("POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n") == .refused(status: 501, reason: "request bodies sent chunked are not taken"))
    }

    @Test func malformedHeadsAreRefusedWithTheirStatus() throws {
        let line = RequestHead.Outcome.refused(status: 400, reason: "the request line is not METHOD TARGET HTTP/1.x")
        #expect(parse("GET /\r\n\r\n") == line)
        #expect(parse("GET  / HTTP/1.1\r\n\r\n") == line)
        #expect(parse("G(T / HTTP/1.1\r\n\r\n") == line)
        #expect(parse("GET /a b HTTP/1.1\r\n\r\n") == line)
        #expect(parse("GET / SPDY/3\r\n\r\n") == line)
        #expect(parse("GET / HTTP/2.0\r\n\r\n") == .refused(status: 505, reason: "only HTTP/1.0 and HTTP/1.1 are served"))
        #expect(parse("GET index.html HTTP/1.1\r\n\r\n") == .refused(status: 400, reason: "the request target is neither a path nor an absolute URL"))
        #expect(parse("GET / HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n") == .refused(status: 400, reason: "a header line has no colon"))
        #expect(parse("GET / HTTP/1.1\r\nHost : 127.0.0.1\r\n\r\n") == .refused(status: 400, reason: "a header field's name is malformed"))
        #expect(parse("GET / HTTP/1.1\r\nA: b\r\n  folded: c\r\n\r\n") == .refused(status: 400, reason: "a header field's name is malformed"))
        #expect(parse("GET / HTTP/1.1\r\nA: b\u{0}c\r\n\r\n") == .refused(status: 400, reason: "a header field's value has a control character"))
        #expect(try request("GET / HTTP/1.1\r\nA: b\tc\r\n\r\n").0.headers["a"] == "b\tc")
    }

    @Test func aHeadOverTheLimitIsRefusedEvenUnfinished() {
        let big = "GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: RequestHead.limit) + "\r\n"
        #expect(parse(big) == .refused(status: 431, reason: "the request's head is over 64 KiB"))
        #expect(parse(big + "\r\n") == .refused(status: 431, reason: "the request's head is over 64 KiB"))
        // A target too long for the whole head is 414, finished or not (it was 431: found by a tester).
        let long = "GET /" + String(repeating: "a", count: RequestHead.limit) + " HTTP/1.1\r\n"
        #expect(parse(long) == .refused(status: 414, reason: "the request's target is over 64 KiB"))
        #expect(parse(String(long.dropLast(5))) == .refused(status: 414, reason: "the request's target is over 64 KiB"))
        #expect(parse(long + "\r\n") == .refused(status: 414, reason: "the request's target is over 64 KiB"))
    }

    @Test func headerFieldsSetAndReplace() {
        var h: HTTPHeaders = ["Content-Type": "a", "X": "1"]
        h.append("x", "2")
        #expect(h["x"] == "1")
        h["X"] = "3"
        #expect(h.fields.map { "\($0.name)=\($0.value)" } == ["Content-Type=a", "X=3"])
        h["content-type"] = nil
        #expect(h.fields.map { "\($0.name)=\($0.value)" } == ["X=3"])
    }

    @Test func datesAreRFC9110s() {
        #expect(HTTPServer.httpDate(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPServer.httpDate(1_767_225_600) == "Thu, 01 Jan 2026 00:00:00 GMT")
    }
}
