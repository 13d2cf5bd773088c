import Testing

@testable import BestiaryPreview

@Suite struct ByteRangeTests {
    @Test(arguments: [
        ("bytes=0-99", 1000, ByteRange.satisfiable(0...99)),
        ("bytes=100-", 1000, .satisfiable(100...999)),
        ("bytes=-100", 1000, .satisfiable(900...999)),
        ("bytes=-5000", 1000, .satisfiable(0...999)),
        ("bytes=900-5000", 1000, .satisfiable(900...999)),
        ("bytes=999-999", 1000, .satisfiable(999...999)),
        ("bytes=1000-", 1000, .unsatisfiable),
        ("bytes=5000-6000", 1000, .unsatisfiable),
        ("bytes=-0", 1000, .unsatisfiable),
        ("bytes=0-", 0, .unsatisfiable),
        ("bytes=99999999999999999999999-", 1000, .unsatisfiable),
        ("bytes=0-1,5-6", 1000, .ignored),
        ("items=0-1", 1000, .ignored),
        ("bytes=5-1", 1000, .ignored),
        ("bytes=a-b", 1000, .ignored),
        ("bytes=", 1000, .ignored),
        (" bytes=0-0 ", 10, .satisfiable(0...0)),
    ])
    func parses(header: String, size: Int, expected: ByteRange) {
        #expect(ByteRange.parse(header, size: size) == expected)
    }
}

@Suite struct ContentTypeTests {
    @Test(arguments: [
        ("a/index.html", "text/html; charset=utf-8"),
        ("media/0123.ogg", "audio/ogg"),
        ("media/0123.oga", "audio/ogg"),
        ("media/0123.opus", "audio/ogg; codecs=opus"),
        ("media/0123.m4a", "audio/mp4"),
        ("media/0123.mp3", "audio/mpeg"),
        ("media/0123.wav", "audio/wav"),
        ("media/0123.aac", "audio/aac"),
        ("media/0123.webp", "image/webp"),
        ("media/0123.svg", "image/svg+xml"),
        ("media/0123.PNG", "image/png"),
        ("manifest.webmanifest", "application/manifest+json; charset=utf-8"),
        ("assets/catalog.1234.json", "application/json; charset=utf-8"),
        ("assets/js/site.1234.mjs", "text/javascript; charset=utf-8"),
        ("assets/js/site.1234.js", "text/javascript; charset=utf-8"),
        ("assets/css/site.1234.css", "text/css; charset=utf-8"),
        ("sitemap.xml", "application/xml; charset=utf-8"),
        ("packs/latest.json.sig", "application/octet-stream"),
        ("LICENSE", "application/octet-stream"),
        (".hidden", "application/octet-stream"),
    ])
    func typeByExtension(path: String, type: String) {
        #expect(ContentTypes.forPath(path) == type)
    }
}

@Suite struct CachingTests {
    @Test(arguments: [
        ("assets/css/site.8a0a4bdebf.css", true),
        ("assets/catalog.4588ec4e03.json", true),
        ("assets/icons/icon-192.19980121ae.png", true),
        ("media/00e5735dec58b5dd.png", true),
        ("media/00e5735dec58b5dd00e5735dec58b5dd.ogg", true),
        ("assets/css/site.css", false),
        ("assets/js/v.1.2.js", false),
        ("media/short.ogg", false),
        ("index.html", false),
        ("manifest.webmanifest", false),
        ("animals/fox.0123456789.html", false),
    ])
    func contentAddressedFilesAreImmutable(path: String, immutable: Bool) {
        #expect(SiteFiles.isContentAddressed(path) == immutable)
    }
}
