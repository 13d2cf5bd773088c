import BestiaryTestSupport
import Foundation
import Testing

@testable import BestiaryPreview

@Suite struct RequestPathTests {
    /// output/ with a page, a folder, a symlink inside and two pointing out; secret.txt beside it.
    func makeSite() throws -> (TemporaryDirectory, String) {
        let dir = TemporaryDirectory("bestiary-paths")
        try dir.write("<h1>home</h1>", to: "output/index.html")
        try dir.write("<h1>fox</h1>", to: "output/animals/fox/index.html")
        try dir.write("ogg", to: "output/media/a b.ogg")
        try dir.write("{}", to: "output/.bestiary-output")
        try dir.write("top secret", to: "secret.txt")
        try dir.write("<h1>outside</h1>", to: "elsewhere/index.html")
        try FileManager.default.createSymbolicLink(atPath: dir.appending("output/leak.txt"), withDestinationPath: "../secret.txt")
        try FileManager.default.createSymbolicLink(atPath: dir.appending("output/outdir"), withDestinationPath: dir.appending("elsewhere"))
        try FileManager.default.createSymbolicLink(atPath: dir.appending("output/alias.ogg"), withDestinationPath: "media/a b.ogg")
        return (dir, RequestPath.canonicalRoot(dir.appending("output")))
    }

    @Test func servesFilesAndIndexes() throws {
        let (dir, root) = try makeSite()
        _ = dir
        #expect(RequestPath.resolve("/", in: root) == .file(root + "/index.html"))
        #expect(RequestPath.resolve("/animals/fox/", in: root) == .file(root + "/animals/fox/index.html"))
        #expect(RequestPath.resolve("/animals/fox", in: root) == .redirect("/animals/fox/"))
        // Never to another host: `//animals/` is one to a browser (found by a security review).
        #expect(RequestPath.resolve("//animals", in: root) == .redirect("/animals/"))
        #expect(RequestPath.resolve("///animals/fox", in: root) == .redirect("/animals/fox/"))
        #expect(RequestPath.resolve("/media/a%20b.ogg", in: root) == .file(root + "/media/a b.ogg"))
        #expect(RequestPath.resolve("/./animals//fox/index.html", in: root) == .file(root + "/animals/fox/index.html"))
        #expect(RequestPath.resolve("/alias.ogg", in: root) == .file(root + "/media/a b.ogg"))
        #expect(RequestPath.resolve("/index.html/", in: root) == .notFound)
        #expect(RequestPath.resolve("/nope/", in: root) == .notFound)
        #expect(RequestPath.resolve("/.bestiary-output", in: root) == .notFound)
    }

    @Test(arguments: [
        "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2e/secret.txt", "/animals/..%2f..%2fsecret.txt",
        "/animals/%2e%2e/%2e%2e/secret.txt", "/..", "/a/../../secret.txt", "/%2e%2e%5csecret.txt", "/x%00.html", "/%zz",
    ])
    func refusesTraversal(path: String) throws {
        let (dir, root) = try makeSite()
        _ = dir
        guard case .refused(let status, _) = RequestPath.resolve(path, in: root) else {
            Issue.record("\(path) was not refused: \(RequestPath.resolve(path, in: root))")
            return
        }
        #expect(status == 400)
    }

    @Test(arguments: ["/leak.txt", "/outdir/", "/outdir/index.html"])
    func refusesSymlinksLeavingTheFolder(path: String) throws {
        let (dir, root) = try makeSite()
        _ = dir
        #expect(RequestPath.resolve(path, in: root) == .refused(status: 403, reason: "the path leads outside the site through a symbolic link"))
    }
}
