import BestiaryPackFormat
import BestiaryStorage
import BestiaryTestSupport
@testable import BestiaryWikipedia
import Foundation
import Testing

/// `CacheEntryReader` (the fast way a build reads cache entries) against `JSONDecoder` (the way
/// it stands in for): on every file it accepts, both give the same entry; what it refuses goes
/// to `JSONDecoder`.
struct CacheEntryReaderTests {
    /// Real recorded summaries made into entries, one with a full lead image and its attribution.
    static func entries() throws -> [WikipediaEntry] {
        let rendition = ImageRendition(width: 330, height: 247, url: "https://upload.wikimedia.org/a/330px-x.jpg", path: "wikipedia/images/ab.jpg", sha256: String(repeating: "ab", count: 32), bytes: 654, format: "jpeg")
        let image = CachedImage(
            file: "File:Harzer_Fuchs_Hündin_2.jpg", original: ImageSource(url: "https://upload.wikimedia.org/a/x.jpg", width: 1200, height: 900),
            renditions: [rendition, rendition],
            attribution: ImageAttribution(artist: "Jörg \"J\" Hempel", credit: "Own work", license: License(name: "CC BY-SA 3.0", url: nil), attributionRequired: true, descriptionURL: nil))
        return [
            try CacheTests.entry("he__Kelev_haBayit.json"), try CacheTests.entry("de__Haushund.json", requested: ["Haushund", "Hund"], image: image),
            try CacheTests.entry("en__Test.json"),
        ]
    }

    static func jsonObject(_ entry: WikipediaEntry) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: try JSONEncoder().encode(entry)) as? [String: Any])
    }

    /// What each reader makes of one entry object: the fast reader may refuse, never differ.
    static func compare(_ object: [String: Any], _ what: String) throws -> Bool {
        let data = try JSONSerialization.data(withJSONObject: object)
        let slow = try? JSONDecoder().decode(WikipediaEntry.self, from: data)
        guard let fast = CacheEntryReader.Fields(try JSONParser.parse(data)).flatMap(CacheEntryReader.entry) else { return false }
        #expect(fast == slow, "\(what)")
        return true
    }

    /// An entry a redirect left without titles writes its empty list as `[]` (it was `[`, an
    /// empty line, `]`), and reads back the same with both readers.
    @Test func anEmptyListIsWrittenOnOneLine() throws {
        var entry = try CacheTests.entry("en__Test.json")
        entry.requested = []
        let data = try CacheEntryFile.encode(entry)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"requested\" : [],\n"), "\(text)")
        #expect(!text.contains("[\n\n"))
        #expect(try CacheEntryFile.decode(data) == entry)
        #expect(CacheEntryReader.envelope(data)?.entry == entry)
    }

    @Test func filesFetchWritesAreReadTheSameWayAndFast() throws {
        for entry in try Self.entries() {
            let data = try CacheEntryFile.encode(entry)
            let read = try #require(CacheEntryReader.envelope(data), "the fast reader refused a file fetch wrote")
            #expect(read.entry == entry)
            #expect(read.format == CacheEntryFile.format)
            #expect(try CacheEntryFile.decode(data) == entry)
            #expect(try Self.compare(try Self.jsonObject(entry), "as written"))
        }
    }

    /// Every field removed, made null, or given a value of each JSON type, at the top and inside
    /// the image: whatever the fast reader accepts, `JSONDecoder` decodes to the same entry.
    @Test func changedFieldsAreReadAlikeOrLeftToJSONDecoder() throws {
        let replacements: [(String, Any?)] = [("removed", nil), ("null", NSNull()), ("number", 7), ("fraction", 7.5), ("text", "x"), ("true", true), ("list", ["x"]), ("object", ["name": "x"])]
        var accepted = 0, refused = 0
        for entry in try Self.entries() {
            let object = try Self.jsonObject(entry)
            var variants: [(String, [String: Any])] = [("unknown key", object.merging(["future": 1]) { a, _ in a })]
            for key in object.keys {
                for (name, value) in replacements {
                    var changed = object
                    changed[key] = value
                    variants.append(("\(key) \(name)", changed))
                }
            }
            if var image = object["image"] as? [String: Any] {
                for key in image.keys {
                    for (name, value) in replacements {
                        let saved = image[key]
                        image[key] = value
                        var changed = object
                        changed["image"] = image
                        variants.append(("image.\(key) \(name)", changed))
                        image[key] = saved
                    }
                }
            }
            for (what, variant) in variants {
                if try Self.compare(variant, what) { accepted += 1 } else { refused += 1 }
            }
        }
        #expect(accepted > 20 && refused > 100, "\(accepted) accepted, \(refused) refused")
    }

    /// Bytes the strict parser refuses but `JSONDecoder` reads go the long way and still load.
    @Test func lenientFilesStillLoad() throws {
        let entry = try Self.entries()[0]
        let data = try CacheEntryFile.encode(entry)
        let bom = Data([0xEF, 0xBB, 0xBF]) + data
        #expect(CacheEntryReader.envelope(bom) == nil)
        #expect((try? CacheEntryFile.decode(bom)) == (try? JSONDecoder().decode(WikipediaEntry.self, from: try JSONEncoder().encode(entry))).map { _ in entry })
        let text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\"format\" : 1", with: "\"format\" : 1.0")
        #expect(CacheEntryReader.envelope(Data(text.utf8)) == nil)
    }
}

extension CacheEntryReader.Envelope: Equatable {
    public static func == (a: Self, b: Self) -> Bool { a.format == b.format && a.checksum == b.checksum && a.entry == b.entry }
}

/// The bytes of a cache entry file: read and written again, a file an earlier `bestiary fetch`
/// wrote comes out the same to the byte (teams commit these files).
@Suite struct CacheEntryBytesTests {
    @Test func aFileFetchWroteIsWrittenAgainTheSame() throws {
        let data = try Fixtures.data("cache-entries/generated-belbel-finch.json")
        let entry = try CacheEntryFile.decode(data)
        #expect(entry.title == "Belbel finch")
        #expect(entry.image?.renditions.count == 2)
        let again = try CacheEntryFile.encode(entry)
        #expect(String(decoding: again, as: UTF8.self) == String(decoding: data, as: UTF8.self))
    }

    /// An entry's and a summary's fields are all in their boxes (``BestiaryStorage/SharedValue``):
    /// a stored property added beside the box would escape what lists and writes the fields.
    @Test func everyFieldIsInTheBox() {
        #expect(MemoryLayout<WikipediaEntry>.size == MemoryLayout<SharedValue<WikipediaEntry.Fields>>.size)
        #expect(MemoryLayout<ResolvedSummary>.size == MemoryLayout<SharedValue<ResolvedSummary.Fields>>.size)
    }

    /// Optional fields left out are left out of the file, not written as null.
    @Test func fieldsLeftOutAreNotWritten() throws {
        var entry = try CacheEntryFile.decode(try Fixtures.data("cache-entries/generated-belbel-finch.json"))
        entry.description = nil
        entry.etag = nil
        entry.image = nil
        let text = String(decoding: try CacheEntryFile.encode(entry), as: UTF8.self)
        #expect(!text.contains("\"description\""))
        #expect(!text.contains("\"etag\""))
        #expect(!text.contains("\"image\""))
        #expect(!text.contains("null"))
        #expect(try CacheEntryFile.decode(Data(text.utf8)) == entry)
    }
}
