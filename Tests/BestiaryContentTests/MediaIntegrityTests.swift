import BestiaryContent
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
        #expect(problem?.contains("the file is cut short") == true, "\(problem ?? "nil")")
    }

    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + body.count)
        return withUnsafeBytes(of: size.bigEndian, Array.init) + Array(type.utf8) + body
    }

    @Test func generatedFilesOfTheOtherFormats() {
        let m4a = Self.box("ftyp", Array("M4A ".utf8) + [0, 0, 0, 0]) + Self.box("moov", [1, 2, 3]) + Self.box("mdat", [9, 9])
        #expect(MediaIntegrity.problem(m4a, format: .m4a) == nil)
        #expect(MediaIntegrity.problem(Array(m4a.dropLast()), format: .m4a)?.contains("its 'mdat' box needs 37 bytes, the file has 36") == true)
        let noMovie = Self.box("ftyp", Array("M4A ".utf8)) + Self.box("mdat", [9, 9])
        #expect(MediaIntegrity.problem(noMovie, format: .m4a)?.hasPrefix("it has no 'moov' box") == true)

        // ADTS frames of 9 bytes: sync, layer 0, then the 13-bit frame length.
        let frame: [UInt8] = [0xFF, 0xF1, 0x50, 0x80, 0x01, 0x20, 0xFC, 0, 0]
        #expect(MediaIntegrity.problem(frame + frame, format: .aac) == nil)
        #expect(MediaIntegrity.problem(frame + frame.prefix(8), format: .aac)?.contains("cut short") == true)
        #expect(MediaIntegrity.problem(frame + [0x00] + frame, format: .aac)?.contains("stop being AAC frames at byte 9") == true)

        let gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x3B]
        #expect(MediaIntegrity.problem(gif, format: .gif) == nil)
        #expect(MediaIntegrity.problem(Array(gif.dropLast()), format: .gif)?.contains("GIF trailer") == true)
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 2, 0xFF, 0xD9, 0, 0]
        #expect(MediaIntegrity.problem(jpeg, format: .jpeg) == nil)
        #expect(MediaIntegrity.problem(Array(jpeg.prefix(6)), format: .jpeg)?.contains("end-of-image marker") == true)
    }

    /// A RIFF file a streaming writer left without its size, and an Ogg stream whose pages are
    /// whole but whose last page is not marked as its end (a copy cut at a page boundary).
    @Test func unsetSizesPassAndAnOggCutBetweenPagesDoesNot() throws {
        var wav = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.root + "/Tests/Fixtures/sites/minimal/content/sounds/tone.wav")))
        wav.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(MediaIntegrity.problem(wav, format: .wav) == nil)
        let ogg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.root + "/content/sounds/owl.ogg")))
        // The first page ends where its segment table says.
        let firstPage = 27 + Int(ogg[26]) + ogg[27..<27 + Int(ogg[26])].reduce(0) { $0 + Int($1) }
        #expect(MediaIntegrity.problem(Array(ogg.prefix(firstPage)), format: .ogg)?.contains("its last Ogg page is not the end of the stream") == true)
    }
}
