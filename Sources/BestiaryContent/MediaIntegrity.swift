import BestiaryDiagnostics
import BestiaryStorage
import Foundation

/// Whether a media file's bytes hold together to its end, by the structure of its format: what
/// a copy that stopped half way (an interrupted download or upload) leaves. ``MediaSniffer``
/// reads only the first bytes, so such a file passes it and the quiz plays part of the sound, or
/// nothing. `bestiary check` reads every media file through this.
///
/// Each format is walked by its own framing, never decoded: Ogg pages (and the end-of-stream
/// mark on the last), RIFF chunks (WAV, WebP), MP4 boxes (and a `moov`), ADTS frames, the ID3
/// tag before MP3 frames, PNG chunks up to `IEND`, JPEG's end marker, GIF's trailer. Sizes a
/// streaming writer leaves unset (RIFF's 0 or 0xFFFFFFFF) are not held against a file.
public enum MediaIntegrity {
    /// What is wrong with `bytes` as `format`, or nil when its structure holds to its end.
    public static func problem(_ bytes: [UInt8], format: MediaFormat) -> String? {
        switch format {
        case .ogg, .opus: return ogg(bytes)
        case .wav, .webp: return riff(bytes)
        case .m4a: return mp4(bytes)
        case .aac: return adts(bytes)
        case .mp3: return id3(bytes)
        case .png: return png(bytes)
        case .jpeg:
            // The end-of-image marker, possibly followed by padding some cameras add.
            let tail = bytes.suffix(4096)
            return zip(tail, tail.dropFirst()).contains { $0 == 0xFF && $1 == 0xD9 } ? nil : cut("it has no end-of-image marker")
        case .gif: return bytes.last == 0x3B ? nil : cut("it does not end with the GIF trailer")
        case .svg: return nil
        }
    }

    static func cut(_ detail: String) -> String {
        "the file is cut short (\(detail)): a copy that stopped half way, which plays or shows only in part, if at all; copy it again from its source"
    }

    static func uint32LE(_ b: [UInt8], _ i: Int) -> Int {
        Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 | Int(b[i + 3]) << 24
    }

    static func uint32BE(_ b: [UInt8], _ i: Int) -> Int {
        Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
    }

    /// Ogg: pages follow each other to the end, the last marked as the end of the stream.
    static func ogg(_ b: [UInt8]) -> String? {
        var at = 0
        var last = 0
        while at < b.count {
            guard at + 27 <= b.count else { return cut("its last Ogg page stops at byte \(b.count)") }
            guard b[at] == 0x4F, b[at + 1] == 0x67, b[at + 2] == 0x67, b[at + 3] == 0x53 else {
                return "its bytes stop being Ogg pages at byte \(at): the file is damaged; copy it again from its source"
            }
            let segments = Int(b[at + 26])
            guard at + 27 + segments <= b.count else { return cut("its last Ogg page stops at byte \(b.count)") }
            var body = 0
            for i in 0..<segments { body += Int(b[at + 27 + i]) }
            last = at
            at += 27 + segments + body
            if at > b.count { return cut("its last Ogg page needs \(at) bytes, the file has \(b.count)") }
        }
        return b[last + 5] & 0x04 != 0 ? nil : cut("its last Ogg page is not the end of the stream")
    }

    /// RIFF (WAV, WebP): the size the header announces is there, and so is each chunk's.
    static func riff(_ b: [UInt8]) -> String? {
        guard b.count >= 12 else { return cut("it is \(b.count) bytes long") }
        let size = uint32LE(b, 4)
        if size == 0 || size == 0xFFFF_FFFF { return nil }  // left unset by a streaming writer
        if size + 8 > b.count { return cut("its header announces \(size + 8) bytes, the file has \(b.count)") }
        var at = 12
        while at + 8 <= size + 8 {
            let chunk = uint32LE(b, at + 4)
            if chunk == 0xFFFF_FFFF { return nil }
            at += 8 + chunk + (chunk & 1)
        }
        return at > size + 8 + 1 ? cut("its last chunk needs \(at) bytes, the file announces \(size + 8)") : nil
    }

    /// MP4/M4A: boxes follow each other to the end, one of them the `moov` players need.
    static func mp4(_ b: [UInt8]) -> String? {
        var at = 0
        var hasMovie = false
        while at + 8 <= b.count {
            var size = uint32BE(b, at)
            let type = String(decoding: b[at + 4..<at + 8], as: UTF8.self)
            if type == "moov" { hasMovie = true }
            if size == 1 {
                guard at + 16 <= b.count else { return cut("its last box stops at byte \(b.count)") }
                size = uint32BE(b, at + 8) << 32 | uint32BE(b, at + 12)
            } else if size == 0 {
                size = b.count - at  // to the end of the file
            }
            guard size >= 8 else { return "its MP4 box '\(type)' at byte \(at) is damaged; copy it again from its source" }
            at += size
            if at > b.count { return cut("its '\(type)' box needs \(at) bytes, the file has \(b.count)") }
        }
        if at != b.count { return cut("its last box stops at byte \(b.count)") }
        return hasMovie ? nil : "it has no 'moov' box, which players need to read it: it is damaged or still being written; copy it again from its source"
    }

    /// AAC in ADTS: frames follow each other to the end.
    static func adts(_ b: [UInt8]) -> String? {
        var at = 0
        while at < b.count {
            guard at + 7 <= b.count else { return cut("its last frame stops at byte \(b.count)") }
            guard b[at] == 0xFF, b[at + 1] & 0xF6 == 0xF0 else {
                // An ID3 tag some tools append at the end.
                if b[at...].starts(with: [0x49, 0x44, 0x33]) || b[at...].starts(with: [0x54, 0x41, 0x47]) { return nil }
                return "its bytes stop being AAC frames at byte \(at): the file is damaged; copy it again from its source"
            }
            let length = Int(b[at + 3] & 0x03) << 11 | Int(b[at + 4]) << 3 | Int(b[at + 5]) >> 5
            guard length >= 7 else { return "its AAC frame at byte \(at) is damaged; copy it again from its source" }
            at += length
            if at > b.count { return cut("its last frame needs \(at) bytes, the file has \(b.count)") }
        }
        return nil
    }

    /// MP3: the ID3 tag before the frames is whole, and frames follow it.
    static func id3(_ b: [UInt8]) -> String? {
        guard b.starts(with: [0x49, 0x44, 0x33]) else { return nil }  // frames from the first byte
        guard b.count >= 10 else { return cut("it is \(b.count) bytes long") }
        let size = Int(b[6] & 0x7F) << 21 | Int(b[7] & 0x7F) << 14 | Int(b[8] & 0x7F) << 7 | Int(b[9] & 0x7F)
        let end = 10 + size + (b[5] & 0x10 != 0 ? 10 : 0)
        if end >= b.count { return cut("its ID3 tag announces \(end) bytes, the file has \(b.count), and no sound after it") }
        return nil
    }

    /// PNG: chunks follow each other up to `IEND`.
    static func png(_ b: [UInt8]) -> String? {
        var at = 8
        while at + 8 <= b.count {
            let length = uint32BE(b, at)
            let type = String(decoding: b[at + 4..<at + 8], as: UTF8.self)
            at += 12 + length
            if at > b.count { return cut("its '\(type)' chunk needs \(at) bytes, the file has \(b.count)") }
            if type == "IEND" { return nil }
        }
        return cut("it has no IEND chunk")
    }

    /// A warning for each media file of `catalog` whose bytes do not hold together (read whole,
    /// on both cores); a file that cannot be read is the build's error, not this check's.
    public static func problems(of catalog: Catalog, fileSystem: any FileSystem) -> [Diagnostic] {
        let files = catalog.mediaFiles.values.sorted { $0.path < $1.path }
        let found = Parallel.map(files, chunk: 4) { file -> Diagnostic? in
            guard let data = try? fileSystem.read(catalog.contentDirectory + "/" + file.path),
                let problem = problem([UInt8](data), format: file.format)
            else { return nil }
            return .warning("\(file.format.kind == .sound ? "sound" : "picture") '\(file.path)': \(problem)", at: SourceLocation(path: "content/" + file.path), stage: "validate")
        }
        return found.compactMap { $0 }
    }
}
