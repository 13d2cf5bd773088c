import BestiaryContent
import BestiaryStorage
import BestiaryTestSupport
import Foundation
import Testing

/// A media file cut short by a copy that stopped half way passes the first-bytes check of
/// loading; `check` walks each format's framing to its end. Real files (the fixtures' recordings
/// and pictures, the example site's) are whole; each cut at half its length is not. The formats
/// no fixture has (M4A, AAC, GIF, JPEG) are made here, byte by byte: generated, not recorded.
struct MediaIntegrityTests {
    static let root = Fixtures.repositoryRoot
    static let realFiles: [(String, MediaFormat)] = [
        ("Tests/Fixtures/sites/tuxpaint/content/sounds/badger.ogg", .ogg),
        ("Tests/Fixtures/sites/tuxpaint/content/images/badger.png", .png),
        ("Tests/Fixtures/sites/minimal/content/sounds/tone.wav", .wav),
        ("Tests/Fixtures/import/wildsound/sounds/Amsel.mp3", .mp3),
        ("content/sounds/owl.ogg", .ogg),
        ("content/images/owl.webp", .webp),
    ]

    @Test(arguments: realFiles) func aWholeFileIsWholeAndHalfOfItIsCutShort(path: String, format: MediaFormat) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.root + "/" + path)))
        #expect(MediaFormat.allCases.contains(format))
        #expect(MediaIntegrity.problem(bytes, format: format) == nil)
        // An MP3's frames are not walked: only its ID3 tag, cut here.
        let cut = format == .mp3 ? Array(bytes.prefix(8)) : Array(bytes.prefix(bytes.count / 2))
        let problem = MediaIntegrity.problem(cut, format: format)
        #expect(problem?.description.contains("the file is cut short") == true, "\(problem?.description ?? "nil")")
        #expect(problem?.leavesWhole == false)
    }

    /// A whole Ogg file with a stray byte after it read as "cut short (its last Ogg page stops at
    /// byte N)", N being its own length (found by a volunteer); a page begun and cut is still that.
    @Test func bytesAfterAWholeOggFileAreNotACut() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.root + "/content/sounds/owl.ogg")))
        let extra = MediaIntegrity.problem(bytes + [0x0A], format: .ogg)
        #expect(extra?.description == "the file has 1 byte after its last Ogg page that is no Ogg page: its sound is whole, and players pass over the rest; to drop them, copy the file again from its source")
        #expect(extra?.leavesWhole == true, "used as it is")
        #expect(MediaIntegrity.problem(bytes + Array("trailing".utf8), format: .ogg)?.description.hasPrefix("the file has 8 bytes after its last Ogg page") == true)
        #expect(MediaIntegrity.problem(bytes + Array("OggS".utf8), format: .ogg)?.description.hasPrefix("the file is cut short") == true)
        #expect(MediaIntegrity.problem(bytes + Array("OggS".utf8), format: .ogg)?.leavesWhole == false)
        #expect(MediaIntegrity.problem(bytes + Array("Og".utf8), format: .ogg)?.description.hasPrefix("the file is cut short") == true)
        // Pages damaged in the middle (the stream had not ended there) are damage, not an addition.
        var damaged = bytes
        let second = try #require((1..<damaged.count - 4).first { damaged[$0..<$0 + 4].elementsEqual("OggS".utf8) })
        damaged[second] = UInt8(ascii: "X")
        #expect(MediaIntegrity.problem(damaged, format: .ogg)?.description.hasPrefix("the file is damaged (its bytes stop being Ogg pages at byte \(second))") == true)
        #expect(MediaIntegrity.problem(damaged, format: .ogg)?.leavesWhole == false)
    }

    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + body.count)
        return withUnsafeBytes(of: size.bigEndian, Array.init) + Array(type.utf8) + body
    }

    @Test func generatedFilesOfTheOtherFormats() {
        let m4a = Self.box("ftyp", Array("M4A ".utf8) + [0, 0, 0, 0]) + Self.box("moov", [1, 2, 3]) + Self.box("mdat", [9, 9])
        #expect(MediaIntegrity.problem(m4a, format: .m4a) == nil)
        #expect(MediaIntegrity.problem(Array(m4a.dropLast()), format: .m4a)?.description.contains("its 'mdat' box needs more than the 36 bytes the file has") == true)
        let noMovie = Self.box("ftyp", Array("M4A ".utf8)) + Self.box("mdat", [9, 9])
        #expect(MediaIntegrity.problem(noMovie, format: .m4a)?.description.hasPrefix("it has no 'moov' box") == true)

        // ADTS frames of 9 bytes: sync, layer 0, then the 13-bit frame length.
        let frame: [UInt8] = [0xFF, 0xF1, 0x50, 0x80, 0x01, 0x20, 0xFC, 0, 0]
        #expect(MediaIntegrity.problem(frame + frame, format: .aac) == nil)
        #expect(MediaIntegrity.problem(frame + frame.prefix(8), format: .aac)?.description.contains("cut short") == true)
        #expect(MediaIntegrity.problem(frame + [0x00] + frame, format: .aac)?.description.contains("stop being AAC frames at byte 9") == true)

        let gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x3B]
        #expect(MediaIntegrity.problem(gif, format: .gif) == nil)
        #expect(MediaIntegrity.problem(Array(gif.dropLast()), format: .gif)?.description.contains("GIF trailer") == true)
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 2, 0xFF, 0xD9, 0, 0]
        #expect(MediaIntegrity.problem(jpeg, format: .jpeg) == nil)
        #expect(MediaIntegrity.problem(Array(jpeg.prefix(6)), format: .jpeg)?.description.contains("end-of-image marker") == true)
    }

    /// Drawings end with their root's end tag; one cut short (a 5-byte `<svg`, a tag half
    /// written) was accepted and published (found by an author).
    @Test func aDrawingEndsWithItsRootsEndTag() {
        let whole = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\"><circle cx=\"5\" cy=\"5\" r=\"4\"/></svg>",
            "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"><g/></SVG >\r\n<!-- exported -->\n\n",
            "<s:svg xmlns:s=\"http://www.w3.org/2000/svg\"><s:rect width=\"1\" height=\"1\"/></s:svg>",
            "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
            "<svg xmlns=\"http://www.w3.org/2000/svg\"><g/></svg>\n<?xpacket end=\"w\"?>\n",
        ]
        for text in whole { #expect(MediaIntegrity.problem(Array(text.utf8), format: .svg) == nil, "\(text)") }
        let cut = [
            "<svg",
            "<svg xmlns=\"http://www.w3.org/2000/svg\"><circle cx=\"5\" cy",
            "<svg xmlns=\"http://www.w3.org/2000/svg\"><circle/>",
            "<svg xmlns=\"http://www.w3.org/2000/svg\"><circle/></svg",
            "<svg xmlns=\"http://www.w3.org/2000/svg\"><g><circle/></g>\n<!-- a comment -->",
        ]
        for text in cut {
            #expect(MediaIntegrity.problem(Array(text.utf8), format: .svg)?.description.hasPrefix("the file is cut short (it does not end with </svg>)") == true, "\(text)")
        }
    }

    /// What real files carry and players accept is not called cut short: sizes left unset by a
    /// streaming writer, trailing tags and padding, a video after a JPEG's end (a motion photo).
    @Test func whatPlayersAcceptPasses() throws {
        func read(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.root + "/" + path))) }
        var wav = try read("Tests/Fixtures/sites/minimal/content/sounds/tone.wav")
        let whole = wav
        wav.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(MediaIntegrity.problem(wav, format: .wav) == nil)
        // The data chunk's size unset (0): it runs to the end.
        let data = try #require((12..<whole.count - 4).first { Array(whole[$0..<$0 + 4]) == Array("data".utf8) })
        wav = whole
        wav.replaceSubrange(data + 4..<data + 8, with: [0, 0, 0, 0])
        #expect(MediaIntegrity.problem(wav, format: .wav) == nil)

        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 1, 2, 0xFF, 0xDA, 0, 2, 7, 0xFF, 0x00, 8, 0xFF, 0xD0, 9, 0xFF, 0xD9]
        #expect(MediaIntegrity.problem(jpeg + Self.box("ftyp", Array("mp42".utf8)) + [UInt8](repeating: 5, count: 5000), format: .jpeg) == nil)
        #expect(MediaIntegrity.problem(jpeg + [0x0A], format: .jpeg) == nil)
        #expect(MediaIntegrity.problem(Array(jpeg.prefix(15)), format: .jpeg)?.description.contains("end-of-image marker") == true)
        let gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x3B]
        #expect(MediaIntegrity.problem(gif + [0x0A], format: .gif) == nil)
        let m4a = Self.box("ftyp", Array("M4A ".utf8)) + Self.box("moov", [1])
        #expect(MediaIntegrity.problem(m4a + [0, 0, 0], format: .m4a) == nil)
        let frame: [UInt8] = [0xFF, 0xF1, 0x50, 0x80, 0x01, 0x20, 0xFC, 0, 0]
        #expect(MediaIntegrity.problem(frame + Array("APETAGEX".utf8) + [0, 0], format: .aac) == nil)
        let mp3 = try read("Tests/Fixtures/import/wildsound/sounds/Fuchs.mp3")
        #expect(MediaIntegrity.problem(mp3 + Array("TAG".utf8) + [UInt8](repeating: 0, count: 125), format: .mp3) == nil)
        #expect(MediaIntegrity.problem(Array(mp3.dropLast(100)), format: .mp3)?.description.contains("its last MPEG frame needs") == true)
    }

    /// An MP3 cut exactly between two frames ends like a whole one; the frame count its encoder
    /// wrote in the first frame (LAME's Xing header here, in a generated tone) tells it apart.
    /// A trailing ID3v1 tag does not hide the cut; one frame fewer is within the counts'
    /// difference between encoders (LAME counts the frames after its header, others all).
    @Test func anMP3CutBetweenFramesIsFoundByItsEncodersCount() throws {
        let tone = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.root + "/Tests/Fixtures/media/tone-lame-vbr.mp3")))
        #expect(tone.count == 2124)
        let tag = Array("TAG".utf8) + [UInt8](repeating: 0x20, count: 125)
        #expect(MediaIntegrity.problem(tone, format: .mp3) == nil)
        #expect(MediaIntegrity.problem(tone + tag, format: .mp3) == nil)
        let id3v2: [UInt8] = Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 4] + [0, 0, 0, 0]
        #expect(MediaIntegrity.problem(id3v2 + tone, format: .mp3) == nil)
        // Frames start at 0, 288, 648, 828, then every 36 bytes to 1764, and 2052.
        let message = "the file is cut short (it has 21 MPEG frames, its Xing header counts 30)"
        #expect(MediaIntegrity.problem(Array(tone.prefix(1476)), format: .mp3)?.description.hasPrefix(message) == true)
        #expect(MediaIntegrity.problem(Array(tone.prefix(1476)) + tag, format: .mp3)?.description.hasPrefix(message) == true)
        #expect(MediaIntegrity.problem(id3v2 + Array(tone.prefix(1476)), format: .mp3)?.description.hasPrefix(message) == true)
        #expect(MediaIntegrity.problem(Array(tone.prefix(2052)), format: .mp3) == nil)
        // Without the header's frame count (its flag cleared), such a cut is not found.
        var uncounted = tone
        uncounted[13 + 7] &= ~1
        #expect(MediaIntegrity.problem(Array(uncounted.prefix(1476)), format: .mp3) == nil)
        // Every prefix gets an answer: a header cut anywhere is read within the file.
        for n in 0..<tone.count { _ = MediaIntegrity.problem(Array(tone.prefix(n)), format: .mp3) }
    }

    /// The header's place depends on the stream: after the side information, 32 bytes in MPEG-1
    /// stereo, 17 in MPEG-1 mono and MPEG-2 stereo, 9 in MPEG-2 mono (the tone above); VBRI 32
    /// bytes after the frame header whatever the stream. Made here, frame by frame (generated:
    /// headers and a count, silence of zeros), 10 frames after the header frame, which counts 10.
    @Test(arguments: [
        ([0xFF, 0xFB, 0x90, 0x00], 417, 4 + 32, "Xing"),  // MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, stereo
        ([0xFF, 0xFB, 0x90, 0xC0], 417, 4 + 17, "Info"),  // the same, mono
        ([0xFF, 0xF3, 0x80, 0x00], 208, 4 + 17, "Xing"),  // MPEG-2 Layer III, 64 kbit/s, 22.05 kHz, stereo
        ([0xFF, 0xFB, 0x90, 0x00], 417, 4 + 32, "VBRI"),
    ] as [([UInt8], Int, Int, String)])
    func anEncodersFrameCountIsReadWhereItsStreamPutsIt(header: [UInt8], length: Int, offset: Int, name: String) {
        func bigEndian(_ n: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8(truncatingIfNeeded: n >> (8 * (bytes - 1 - $0))) } }
        var first = header + [UInt8](repeating: 0, count: length - 4)
        if name == "VBRI" {
            let tag = Array("VBRI".utf8) + bigEndian(1, 2) + bigEndian(0, 2) + bigEndian(50, 2) + bigEndian(11 * length, 4) + bigEndian(10, 4)
            first.replaceSubrange(36..<36 + tag.count, with: tag)
        } else {
            let tag = Array(name.utf8) + bigEndian(3, 4) + bigEndian(10, 4) + bigEndian(11 * length, 4)
            first.replaceSubrange(offset..<offset + tag.count, with: tag)
        }
        let frame = header + [UInt8](repeating: 0, count: length - 4)
        let whole = first + Array((0..<10).map { _ in frame }.joined())
        #expect(MediaIntegrity.problem(whole, format: .mp3) == nil)
        let ape = Array("APETAGEX".utf8) + [UInt8](repeating: 0, count: 24)
        #expect(MediaIntegrity.problem(whole + ape, format: .mp3) == nil)
        let short = Array(whole.prefix(length * 8))  // the header frame and 7 others
        let message = "the file is cut short (it has 8 MPEG frames, its \(name) header counts 10)"
        #expect(MediaIntegrity.problem(short, format: .mp3)?.description.hasPrefix(message) == true, "\(MediaIntegrity.problem(short, format: .mp3)?.description ?? "nil")")
        #expect(MediaIntegrity.problem(short + ape, format: .mp3)?.description.hasPrefix(message) == true)
    }

    /// Sizes written to overflow an addition, or to point anywhere, give an answer, never a crash:
    /// a 64-bit MP4 box size near the largest integer, and every prefix of every real file.
    @Test func hostileSizesAndEveryPrefixAreAnswered() throws {
        let huge = Self.box("ftyp", Array("M4A ".utf8)) + [0, 0, 0, 1] + Array("mdat".utf8) + [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0]
        #expect(MediaIntegrity.problem(huge, format: .m4a)?.description.contains("its 'mdat' box needs more than the 28 bytes the file has") == true)
        let top = Self.box("ftyp", Array("M4A ".utf8)) + [0, 0, 0, 1] + Array("mdat".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(MediaIntegrity.problem(top, format: .m4a) != nil)
        for format in MediaFormat.allCases { _ = MediaIntegrity.problem([UInt8](), format: format) }
        for (path, format) in Self.realFiles {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.root + "/" + path)))
            for n in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 400)) {
                for other in MediaFormat.allCases where other == format || n % 7 == 0 { _ = MediaIntegrity.problem(Array(bytes.prefix(n)), format: other) }
            }
        }
    }

    /// A photo whose EXIF data holds where it was taken (a phone's GPS block) is named, in a JPEG,
    /// a PNG and a WebP; one with EXIF data but no position (the orientation only) is not. The
    /// EXIF data is made here, byte by byte (generated, little- and big-endian).
    @Test func aPhotoThatSaysWhereItWasTakenIsNamed() {
        func tiff(gps: Bool, little: Bool) -> [UInt8] {
            func u16(_ v: Int) -> [UInt8] { little ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
            func u32(_ v: Int) -> [UInt8] { little ? u16(v & 0xFFFF) + u16(v >> 16) : u16(v >> 16) + u16(v & 0xFFFF) }
            var t: [UInt8] = (little ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8)
            // IFD0: the orientation, and with `gps` the GPS directory's offset (at 38).
            t += u16(gps ? 2 : 1) + u16(0x0112) + u16(3) + u32(1) + u16(6) + u16(0)
            if gps { t += u16(0x8825) + u16(4) + u32(1) + u32(38) }
            t += u32(0)
            if gps { t += u16(1) + u16(2) + u16(5) + u32(3) + u32(0) + u32(0) }  // GPSLatitude
            return t
        }
        func jpeg(_ exif: [UInt8]) -> Data {
            let app1 = Array("Exif".utf8) + [0, 0] + exif
            return Data([0xFF, 0xD8, 0xFF, 0xE1, UInt8((app1.count + 2) >> 8), UInt8((app1.count + 2) & 0xFF)] + app1 + [0xFF, 0xD9])
        }
        let message = "it holds the place where it was taken (GPS coordinates in its EXIF data)"
        for little in [true, false] {
            #expect(PictureLocation.problem(jpeg(tiff(gps: true, little: little)), format: .jpeg)?.hasPrefix(message) == true)
            #expect(PictureLocation.problem(jpeg(tiff(gps: false, little: little)), format: .jpeg) == nil)
        }
        let exif = tiff(gps: true, little: true)
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, UInt8(exif.count)] + Array("eXIf".utf8) + exif + [0, 0, 0, 0])
        #expect(PictureLocation.problem(png, format: .png)?.hasPrefix(message) == true)
        let chunk = Array("EXIF".utf8) + [UInt8(exif.count), 0, 0, 0] + exif
        let webp = Data(Array("RIFF".utf8) + [UInt8(chunk.count + 4), 0, 0, 0] + Array("WEBP".utf8) + chunk)
        #expect(PictureLocation.problem(webp, format: .webp)?.hasPrefix(message) == true)
        // The example site's pictures say nothing of where they were taken; cut-off EXIF data is no crash.
        let owl = (try? Data(contentsOf: URL(fileURLWithPath: Self.root + "/content/images/owl.webp"))) ?? Data()
        #expect(PictureLocation.problem(owl, format: .webp) == nil)
        let whole = jpeg(tiff(gps: true, little: true))
        for n in 0..<whole.count { _ = PictureLocation.problem(whole.prefix(n), format: .jpeg) }
    }

    /// An iPhone's HEIC photo (an ISO media file, as an m4a is) was taken for an m4a sound: it is
    /// neither, and the message says what it is; an AMR recording is named too.
    @Test func aHEICPhotoIsNoSound() {
        func ftyp(_ brand: String) -> [UInt8] { Self.box("ftyp", Array(brand.utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)) }
        #expect(MediaSniffer.sniff(ftyp("heic")) == nil)
        #expect(MediaSniffer.sniff(ftyp("mif1")) == nil)
        #expect(MediaSniffer.sniff(ftyp("M4A ")) == .m4a)
        #expect(MediaSniffer.unsupported(ftyp("heic"))?.hasPrefix("a HEIC picture (as iPhones take them)") == true)
        #expect(MediaSniffer.unsupported(ftyp("avif"))?.hasPrefix("an AVIF picture") == true)
        #expect(MediaSniffer.unsupported(Array("#!AMR\n".utf8) + [0x3C, 0x91])?.hasPrefix("an AMR voice recording") == true)
        #expect(MediaSniffer.unsupported([0x4D, 0x4D]) == nil)
    }

    /// A phone's voice recorder saves 3GP (mostly AMR speech; brand `3gp4`, `3gp5`, `3g2a`),
    /// which was taken for an m4a: no browser but Safari plays it, and the message says so.
    @Test(arguments: ["3gp4", "3gp5", "3g2a"])
    func aThreeGPRecordingIsNoM4A(brand: String) {
        let file = Self.box("ftyp", Array(brand.utf8) + [0, 0, 2, 0] + Array("isom3gp4".utf8))
        #expect(MediaSniffer.sniff(file) == nil)
        #expect(MediaSniffer.unsupported(file)?.hasPrefix("a 3GP recording") == true)
        #expect(MediaSniffer.sniff(Self.box("ftyp", Array("mp42".utf8) + [0, 0, 0, 0] + Array("isom3gp4".utf8))) == .m4a)
    }

    /// A phone's portrait photo is stored sideways with an EXIF orientation of 6 (or 5, 7, 8),
    /// which browsers apply: its size is given as shown, width and height swapped (the page said
    /// 4000 × 3000 for a photo shown 3000 × 4000; found by a teacher). Generated bytes.
    @Test(arguments: [(1, false), (3, false), (6, true), (8, true)])
    func aPhotoStoredSidewaysHasItsShownSize(orientation: Int, swapped: Bool) {
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, UInt8(orientation), 0, 0, 0, 0, 0, 0]
        let app1 = Array("Exif".utf8) + [0, 0] + tiff
        let sof: [UInt8] = [0xFF, 0xC0, 0, 17, 8, 0x0B, 0xB8, 0x0F, 0xA0, 3] + [UInt8](repeating: 1, count: 9)  // 4000 wide, 3000 high
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE1, 0, UInt8(app1.count + 2)] + app1 + sof + [0xFF, 0xD9])
        let size = ImageSize.of(jpeg, format: .jpeg)
        #expect(size?.width == (swapped ? 3000 : 4000) && size?.height == (swapped ? 4000 : 3000), "\(String(describing: size))")
    }
}

/// A phone's photo (3–5 MB) is not too large to show, but a class downloads it on every device
/// for every question: `check` names the pictures over 1 MB in one note, the heaviest first.
@Suite struct HeavyPictureTests {
    /// A JPEG of `segments` comments of 65,533 bytes each: generated, no picture in it.
    static func jpeg(segments: Int) -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8]
        for _ in 0..<segments { bytes += [0xFF, 0xFE, 0xFF, 0xFF] + [UInt8](repeating: 0x20, count: 65_533) }
        return Data(bytes + [0xFF, 0xD9])
    }

    @Test func picturesOverOneMegabyteAreNamedInOneNote() throws {
        var records: [String: String] = [:]
        var pictures: [String: Data] = [:]
        for (name, segments) in [("owl", 40), ("fox", 20), ("cat", 17), ("elk", 16), ("bee", 2)] {
            records["content/animals/\(name).md"] = "---\nname: {de: \(name)}\nimage: {file: images/\(name).jpg}\n---\n"
            pictures["content/images/\(name).jpg"] = Self.jpeg(segments: segments)
        }
        let site = try TestSite(records, binary: pictures)
        let catalog = try #require(site.load().catalog)
        let notes = MediaIntegrity.problems(of: catalog, fileSystem: LocalFileSystem()).filter { $0.severity == .note }
        #expect(notes.map(\.message) == [
            "4 pictures are over 1 MB (images/owl.jpg 2.6 MB, images/fox.jpg 1.3 MB, images/cat.jpg 1.1 MB, …; 6.1 MB in all): every question that shows one downloads all of it, on every device of a class; saved at about 2,000 pixels on the longer side, as WebP or as JPEG of quality 80, a photo is a few hundred KB"
        ])
        #expect(notes.first?.location?.path == "content/images/owl.jpg")
        // The bee's 131 KB are not named; nor is anything when no picture is over 1 MB.
        let light = try TestSite([records.first { $0.key.contains("bee") }!.key: records["content/animals/bee.md"]!], binary: pictures)
        #expect(MediaIntegrity.problems(of: try #require(light.load().catalog), fileSystem: LocalFileSystem()).isEmpty)
    }
}
