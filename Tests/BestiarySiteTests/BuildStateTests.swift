import BestiaryStorage
@testable import BestiarySite
import Testing

/// The byte-level writer of file metadata agrees with the text form the build state and the
/// output record have always used, and the record reads back what it wrote.
struct BuildStateTests {
    static func text(_ info: FileInfo) -> String {
        let kind = ["f", "d", "l", "o"][[FileKind.file, .directory, .symlink, .other].firstIndex(of: info.kind)!]
        return kind + " " + String(info.size) + " " + String(info.modificationTime) + " " + String(info.inode) + " " + String(info.device)
    }

    @Test(arguments: [
        FileInfo(kind: .file, size: 0, modificationTime: 0, inode: 0, device: 0),
        FileInfo(kind: .directory, size: 4096, modificationTime: 1_767_225_600_123_456_789, inode: 1_234_567, device: 2049),
        FileInfo(kind: .symlink, size: 9, modificationTime: -1, inode: UInt64.max, device: UInt64.max),
        FileInfo(kind: .other, size: Int.max, modificationTime: Int64.min, inode: 10, device: 9),
    ])
    func describeWritesTheDecimalText(_ info: FileInfo) {
        #expect(BuildState.describe(info) == Self.text(info))
        var bytes: [UInt8] = Array("x".utf8)
        BuildState.describe(info, into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "x" + Self.text(info))
        #expect(BuildState.describe(nil) == "-")
    }
}
