import BestiaryDiagnostics
import BestiaryStorage
import Foundation

/// What ``MediaIntegrity`` found wrong with a media file: the sentence a warning says after the
/// file's name, and whether the file is whole all the same.
public struct MediaProblem: Hashable, Sendable, CustomStringConvertible {
    public var description: String
    /// Whether the file is whole nonetheless, to be used as it is: bytes after an Ogg stream's
    /// end, which players pass over. A file cut short or damaged is not.
    public var leavesWhole: Bool

    public init(_ description: String, leavesWhole: Bool = false) {
        self.description = description
        self.leavesWhole = leavesWhole
    }
}

/// Whether a media file's bytes hold together to its end, by the structure of its format: what
/// a copy that stopped half way (an interrupted download or upload) leaves. ``MediaSniffer``
/// reads only the first bytes, so such a file passes it and the quiz plays part of the sound, or
/// nothing. `bestiary check` reads every media file through this, the build's media stage every
/// media file it reads (``MediaPlanner``), and `fetch` and the build every Wikipedia picture.
///
/// Each format is walked by its own framing, never decoded: Ogg pages, RIFF chunks (WAV,
/// WebP), MP4 boxes (and a `moov`), ADTS frames, MPEG audio frames after an ID3 tag, PNG chunks
/// up to `IEND`, JPEG segments and scans up to the end-of-image marker, GIF's trailer. Only a
/// frame, chunk or box that needs more bytes than the file has, or a missing end, counts: sizes
/// a streaming writer leaves unset (0 or 0xFFFFFFFF), trailing tags (ID3v1, APE, Lyrics3),
/// padding and anything after a JPEG's end (a phone's motion photo) do not. An MP3 file cut
/// exactly between two frames is found by the frame count its encoder wrote in a Xing, Info or
/// VBRI header; one without such a header, and an Ogg file cut between two pages, are not.
public enum MediaIntegrity {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    /// What is wrong with `data` as `format`, or nil when its structure holds to its end.
    public static func problem(_ data: Data, format: MediaFormat) -> MediaProblem? {
        data.withUnsafeBytes { raw in problem(raw.bindMemory(to: UInt8.self), format: format) }
    }

    public static func problem(_ bytes: [UInt8], format: MediaFormat) -> MediaProblem? {
        bytes.withUnsafeBufferPointer { problem($0, format: format) }
    }

    static func problem(_ b: Bytes, format: MediaFormat) -> MediaProblem? {
        switch format {
        case .ogg, .opus: return ogg(b)
        case .wav, .webp: return riff(b)
        case .m4a: return mp4(b)
        case .aac: return adts(b)
        case .mp3: return mp3(b)
        case .png: return png(b)
        case .jpeg: return jpeg(b)
        case .gif:
            let end = endIgnoringPadding(b)
            return end >= 14 && b[end - 1] == 0x3B ? nil : cut("it does not end with the GIF trailer")
        case .svg: return svg(b)
        }
    }

    /// A drawing ends with its root's end tag (`</svg>`, `</s:svg>`) or is one empty `<svg/>`;
    /// space, comments and processing instructions (`<?xpacket end="w"?>`) may follow.
    static func svg(_ b: Bytes) -> MediaProblem? {
        var end = b.count
        func trimSpace() { while end > 0, [0x20, 0x09, 0x0A, 0x0D].contains(b[end - 1]) { end -= 1 } }
        func lastIndex(of pattern: [UInt8], before limit: Int) -> Int? {
            var i = limit - pattern.count
            while i >= 0 {
                if (0..<pattern.count).allSatisfy({ b[i + $0] == pattern[$0] }) { return i }
                i -= 1
            }
            return nil
        }
        trimSpace()
        while end >= 2, b[end - 1] == UInt8(ascii: ">") {
            let opening: [UInt8]
            if end >= 3, b[end - 2] == UInt8(ascii: "-"), b[end - 3] == UInt8(ascii: "-") {
                opening = Array("<!--".utf8)
            } else if b[end - 2] == UInt8(ascii: "?") {
                opening = Array("<?".utf8)
            } else {
                break
            }
            guard let start = lastIndex(of: opening, before: end - 2) else { break }
            end = start
            trimSpace()
        }
        guard end > 0, b[end - 1] == UInt8(ascii: ">"), let lt = lastIndex(of: [UInt8(ascii: "<")], before: end) else {
            return cut("it does not end with </svg>")
        }
        let tag = String(decoding: UnsafeBufferPointer(rebasing: b[lt..<end]), as: UTF8.self).lowercased()
        func isSVG(_ name: Substring) -> Bool { name == "svg" || name.hasSuffix(":svg") }
        if tag.hasPrefix("</") {
            let name = tag.dropFirst(2).dropLast().trimmingCharacters(in: .whitespacesAndNewlines)
            if isSVG(name[...]) { return nil }
        } else if tag.hasSuffix("/>"), let name = tag.dropFirst().split(whereSeparator: { " \t\n\r/".contains($0) }).first, isSVG(name) {
            return nil
        }
        return cut("it does not end with </svg>")
    }

    static func cut(_ detail: String) -> MediaProblem {
        MediaProblem(
            "the file is cut short (\(detail)): a copy that stopped half way, which plays or shows only in part, if at all; copy it again from its source")
    }

    static func damaged(_ detail: String) -> MediaProblem {
        MediaProblem("the file is damaged (\(detail)); copy it again from its source")
    }

    static func uint32LE(_ b: Bytes, _ i: Int) -> Int {
        Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 | Int(b[i + 3]) << 24
    }

    static func uint32BE(_ b: Bytes, _ i: Int) -> Int {
        Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
    }

    /// The end of `b` without the NUL, CR and LF padding some encoders add.
    static func endIgnoringPadding(_ b: Bytes) -> Int {
        var end = b.count
        while end > 0, b[end - 1] == 0x00 || b[end - 1] == 0x0A || b[end - 1] == 0x0D { end -= 1 }
        return end
    }

    static func starts(_ b: Bytes, at offset: Int, with prefix: String) -> Bool {
        let p = Array(prefix.utf8)
        return offset + p.count <= b.count && (0..<p.count).allSatisfy { b[offset + $0] == p[$0] }
    }

    /// A tag some tools append after the frames: ID3v1, ID3v2, APEv2, Lyrics3.
    static func isTrailingTag(_ b: Bytes, at offset: Int) -> Bool {
        ["TAG", "ID3", "APETAGEX", "LYRICSBEGIN"].contains { starts(b, at: offset, with: $0) }
    }

    /// Ogg: pages follow each other to the end.
    static func ogg(_ b: Bytes) -> MediaProblem? {
        var at = 0
        // Whether the last whole page ended the stream (`header_type` bit 4): only then are
        // bytes after it something added, rather than pages damaged (found by a reviewer).
        var ended = false
        while at < b.count {
            // After at least one whole page, bytes that do not begin another are not a page cut
            // short: the file is whole, with something after it (found by a volunteer: one stray
            // byte read as "cut short").
            let left = b.count - at
            let magic = Array("OggS".utf8)
            if at > 0, ended, !(0..<min(left, 4)).allSatisfy({ b[at + $0] == magic[$0] }) {
                return MediaProblem(
                    "the file has \(left) byte\(left == 1 ? "" : "s") after its last Ogg page that \(left == 1 ? "is" : "are") no Ogg page: its sound is whole, and players pass over the rest; to drop them, copy the file again from its source",
                    leavesWhole: true)
            }
            guard at + 27 <= b.count else { return cut("its last Ogg page stops at byte \(b.count)") }
            guard starts(b, at: at, with: "OggS") else { return damaged("its bytes stop being Ogg pages at byte \(at)") }
            let segments = Int(b[at + 26])
            guard at + 27 + segments <= b.count else { return cut("its last Ogg page stops at byte \(b.count)") }
            var body = 0
            for i in 0..<segments { body += Int(b[at + 27 + i]) }
            ended = b[at + 5] & 4 != 0
            at += 27 + segments + body
            if at > b.count { return cut("its last Ogg page needs \(at) bytes, the file has \(b.count)") }
        }
        return nil
    }

    /// RIFF (WAV, WebP): the bytes the header announces are there, and each chunk within them.
    static func riff(_ b: Bytes) -> MediaProblem? {
        guard b.count >= 12 else { return cut("it is \(b.count) bytes long") }
        let size = uint32LE(b, 4)
        let unset = size == 0 || size == 0xFFFF_FFFF  // left so by a streaming writer
        if !unset, size + 8 > b.count { return cut("its header announces \(size + 8) bytes, the file has \(b.count)") }
        let end = unset ? b.count : size + 8
        var at = 12
        while at + 8 <= end {
            let chunk = uint32LE(b, at + 4)
            if chunk == 0 || chunk == 0xFFFF_FFFF { return nil }  // unset: runs to the end
            guard chunk <= b.count - at - 8 else {
                let id = String(decoding: UnsafeBufferPointer(rebasing: b[at..<at + 4]), as: UTF8.self)
                return cut("its '\(id)' chunk needs \(at + 8 + chunk) bytes, the file has \(b.count)")
            }
            at += 8 + chunk + (chunk & 1)
        }
        return nil
    }

    /// MP4/M4A: boxes follow each other to the end, one of them the `moov` players need.
    static func mp4(_ b: Bytes) -> MediaProblem? {
        var at = 0
        var hasMovie = false
        while at + 8 <= b.count {
            var size = uint32BE(b, at)
            let type = String(decoding: UnsafeBufferPointer(rebasing: b[at + 4..<at + 8]), as: UTF8.self)
            if type == "moov" { hasMovie = true }
            if size == 1 {
                guard at + 16 <= b.count else { return cut("its last box stops at byte \(b.count)") }
                // A 64-bit size; one above what any file here can hold is too long, not a number to add.
                let high = uint32BE(b, at + 8), low = uint32BE(b, at + 12)
                size = high >= 0x8000_0000 ? Int.max : high << 32 | low
            } else if size == 0 {
                size = b.count - at  // to the end of the file
            }
            guard size >= 8 else { return damaged("its MP4 box '\(type)' at byte \(at) has the size \(size)") }
            guard size <= b.count - at else { return cut("its '\(type)' box needs more than the \(b.count) bytes the file has") }
            at += size
        }
        // Fewer than 8 bytes left can hold no box: padding.
        return hasMovie ? nil : MediaProblem("it has no 'moov' box, which players need to read it: it is damaged or was still being written; copy it again from its source")
    }

    /// AAC in ADTS: frames follow each other to the end (or to a tag).
    static func adts(_ b: Bytes) -> MediaProblem? {
        var at = 0
        while at < b.count {
            if isTrailingTag(b, at: at) { return nil }
            guard at + 7 <= b.count else { return cut("its last frame stops at byte \(b.count)") }
            guard b[at] == 0xFF, b[at + 1] & 0xF6 == 0xF0 else { return damaged("its bytes stop being AAC frames at byte \(at)") }
            let length = Int(b[at + 3] & 0x03) << 11 | Int(b[at + 4]) << 3 | Int(b[at + 5]) >> 5
            guard length >= 7 else { return damaged("its AAC frame at byte \(at) has the length \(length)") }
            at += length
            if at > b.count { return cut("its last frame needs \(at) bytes, the file has \(b.count)") }
        }
        return nil
    }

    /// MP3: the ID3 tag is whole, and MPEG audio frames follow it; the walk stops at the first
    /// bytes that are no frame header (a trailing tag, or anything it cannot judge).
    static func mp3(_ b: Bytes) -> MediaProblem? {
        var at = 0
        if starts(b, at: 0, with: "ID3") {
            guard b.count >= 10 else { return cut("it is \(b.count) bytes long") }
            let size = Int(b[6] & 0x7F) << 21 | Int(b[7] & 0x7F) << 14 | Int(b[8] & 0x7F) << 7 | Int(b[9] & 0x7F)
            at = 10 + size + (b[5] & 0x10 != 0 ? 10 : 0)
            if at >= b.count { return cut("its ID3 tag announces \(at) bytes, the file has \(b.count), and no sound after it") }
            while at < b.count, b[at] == 0 { at += 1 }  // padding after the tag
        }
        // kbit/s by [MPEG-1: 0, MPEG-2 and 2.5: 1][layer I, II, III][index].
        let rates: [[[Int]]] = [
            [
                [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
                [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
                [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
            ],
            [
                [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
                [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
                [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
            ],
        ]
        // The frames an encoder counted in its first frame's Xing, Info or VBRI header (LAME,
        // FFmpeg and Fraunhofer write one): a file cut between two frames has fewer.
        var counted: (frames: Int, header: String)?
        var frames = 0
        func short() -> MediaProblem? {
            guard let counted, frames < counted.frames else { return nil }
            return cut("it has \(frames) MPEG frames, its \(counted.header) header counts \(counted.frames)")
        }
        while at + 4 <= b.count {
            guard b[at] == 0xFF, b[at + 1] & 0xE0 == 0xE0 else {
                // A tag after the frames (ID3v1, APE) ends the sound; other bytes are not judged.
                return starts(b, at: at, with: "TAG") || starts(b, at: at, with: "APETAGEX") ? short() : nil
            }
            let version = Int(b[at + 1] >> 3) & 3, layerBits = Int(b[at + 1] >> 1) & 3
            let rateIndex = Int(b[at + 2] >> 4), sampleIndex = Int(b[at + 2] >> 2) & 3, padding = Int(b[at + 2] >> 1) & 1
            guard version != 1, layerBits != 0, rateIndex != 0, rateIndex != 15, sampleIndex != 3 else { return nil }
            let layer = 4 - layerBits  // 1, 2 or 3
            if frames == 0, layer == 3 {
                // Xing/Info after the side information (its length by version and mono or not),
                // VBRI 32 bytes after the header; both big-endian.
                let mono = b[at + 3] >> 6 == 3
                let xing = at + 4 + (version == 3 ? (mono ? 17 : 32) : (mono ? 9 : 17))
                if (starts(b, at: xing, with: "Xing") || starts(b, at: xing, with: "Info")), xing + 12 <= b.count, b[xing + 7] & 1 != 0 {
                    counted = (uint32BE(b, xing + 8), String(decoding: UnsafeBufferPointer(rebasing: b[xing..<xing + 4]), as: UTF8.self))
                } else if starts(b, at: at + 36, with: "VBRI"), at + 54 <= b.count {
                    counted = (uint32BE(b, at + 50), "VBRI")
                }
            }
            let samples = [[11025, 12000, 8000], [], [22050, 24000, 16000], [44100, 48000, 32000]][version][sampleIndex]
            let bitrate = rates[version == 3 ? 0 : 1][layer - 1][rateIndex] * 1000
            let length: Int
            switch layer {
            case 1: length = (12 * bitrate / samples + padding) * 4
            case 3 where version != 3: length = 72 * bitrate / samples + padding
            default: length = 144 * bitrate / samples + padding
            }
            at += length
            frames += 1
            if at > b.count { return cut("its last MPEG frame needs \(at) bytes, the file has \(b.count)") }
        }
        return short()
    }

    /// PNG: chunks follow each other up to `IEND` (at once when the file ends with it).
    static func png(_ b: Bytes) -> MediaProblem? {
        if b.count >= 20, starts(b, at: b.count - 8, with: "IEND") { return nil }
        var at = 8
        while at + 8 <= b.count {
            let length = uint32BE(b, at)
            let type = String(decoding: UnsafeBufferPointer(rebasing: b[at + 4..<at + 8]), as: UTF8.self)
            guard length <= b.count - at - 12 else { return cut("its '\(type)' chunk needs \(at + 12 + length) bytes, the file has \(b.count)") }
            at += 12 + length
            if type == "IEND" { return nil }
        }
        return cut("it has no IEND chunk")
    }

    /// JPEG: segments and the scans' coded data up to the end-of-image marker (at once when the
    /// file ends with it); what follows it is not looked at.
    static func jpeg(_ b: Bytes) -> MediaProblem? {
        let end = endIgnoringPadding(b)
        if end >= 4, b[end - 2] == 0xFF, b[end - 1] == 0xD9 { return nil }
        var at = 2
        while at + 1 < b.count {
            guard b[at] == 0xFF else { break }  // no marker where one belongs, and the file does not end with one
            let marker = b[at + 1]
            if marker == 0xFF { at += 1; continue }  // fill byte
            if marker == 0xD9 { return nil }
            if (0xD0...0xD7).contains(marker) || marker == 0x01 || marker == 0xD8 { at += 2; continue }
            guard at + 4 <= b.count else { break }
            let length = Int(b[at + 2]) << 8 | Int(b[at + 3])
            guard length >= 2 else { break }
            at += 2 + length
            if at > b.count { return cut("its last segment needs \(at) bytes, the file has \(b.count)") }
            if marker == 0xDA {
                // Coded data: up to a marker that is neither a stuffed 0xFF00 nor a restart.
                while at + 1 < b.count {
                    if b[at] == 0xFF, b[at + 1] != 0x00, b[at + 1] != 0xFF, !(0xD0...0xD7).contains(b[at + 1]) { break }
                    at += 1
                }
            }
        }
        return cut("it has no end-of-image marker")
    }

    /// A warning for each media file of `catalog` whose bytes do not hold together (read whole,
    /// on both cores); a file that cannot be read is the build's error, not this check's. And one
    /// note naming the pictures over ``heavyPictureBytes``.
    public static func problems(of catalog: Catalog, fileSystem: any FileSystem) -> [Diagnostic] {
        let files = catalog.mediaFiles.values.sorted { $0.path < $1.path }
        // Each file read once: its structure, and a picture's size (as the build's media stage says too).
        let found = Parallel.map(files, chunk: 4) { file -> [Diagnostic] in
            guard let data = try? fileSystem.read(catalog.contentDirectory + "/" + file.path) else { return [] }
            let kind = file.format.kind == .sound ? "sound" : "picture"
            let size = file.format.kind == .image ? ImageSize.of(data, format: file.format) : nil
            // Published by a hard link, as it is: a file only its owner may read (`chmod 600`,
            // a umask of 077) is one a web server running as another user answers 403 for.
            let unreadable = fileSystem.permissions(catalog.contentDirectory + "/" + file.path).flatMap { unreadableByOthers(mode: $0, path: file.path) }
            return [
                problem(data, format: file.format)?.description, size.flatMap { ImageSize.problem(width: $0.width, height: $0.height, format: file.format) }, unreadable,
                PictureLocation.problem(data, format: file.format),
            ]
                .compactMap { $0 }
                .map { .warning("\(kind) '\(file.path)': \($0)", at: SourceLocation(path: "content/" + file.path), stage: "validate") }
        }
        return found.flatMap { $0 } + [heavyPictures(files)].compactMap { $0 }
    }

    /// What is wrong with a media file of `mode` at `path` (under `content/`) that others may not
    /// read, or nil: the output links it as it is, so a web server running as another user answers
    /// 403 for it (a checkout made under a umask of 077: a CI's green build published no picture).
    public static func unreadableByOthers(mode: UInt16, path: String) -> String? {
        mode & 0o004 != 0 ? nil
            : "others may not read it (mode \(String(mode, radix: 8))), and the output links the file as it is, so a web server running as another user cannot serve it; make it readable: chmod a+r content/\(path)"
    }

    /// Pictures over this many bytes are named in one note: a phone's photo (3–5 MB, 12
    /// megapixels) is not too large to show, but every question that shows it downloads all of it
    /// on every device of a class, where one saved at about 2,000 pixels is a few hundred KB.
    public static let heavyPictureBytes = 1_000_000

    /// One note naming the site's pictures over ``heavyPictureBytes``, the heaviest first, or nil.
    static func heavyPictures(_ files: [MediaFile]) -> Diagnostic? {
        let heavy = files.filter { $0.format.kind == .image && $0.format != .svg && $0.size > heavyPictureBytes }.map { ($0.path, $0.size) }
            .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        guard let heaviest = heavy.first else { return nil }
        func mb(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }
        let named = heavy.prefix(3).map { "\($0.0) \(mb($0.1))" }.joined(separator: ", ") + (heavy.count > 3 ? ", …" : "")
        let count = heavy.count == 1 ? "1 picture is" : "\(heavy.count) pictures are"
        return .note(
            "\(count) over 1 MB (\(named); \(mb(heavy.reduce(0) { $0 + $1.1 })) in all): every question that shows one downloads all of it, on every device of a class; "
                + "saved at about 2,000 pixels on the longer side, as WebP or as JPEG of quality 80, a photo is a few hundred KB",
            at: SourceLocation(path: "content/" + heaviest.0), stage: "validate")
    }
}
