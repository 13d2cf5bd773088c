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

    /// The inputs taken again after a build are compared with those before but for what the build
    /// itself wrote (the lock, and `content/`'s own line), which either snapshot may lack.
    @Test func snapshotsAreComparedButForTheBuildsOwnWrites() {
        let own: Set<String> = ["content", "content/packs.lock"]
        let before = ["tool\tx", "content\td 1", "content/animals\td 2", "content/animals/fox.md\tf 3", "templates\t-"]
        var after = before
        after[1] = "content\td 9"
        after.insert("content/packs.lock\tf 4", at: 4)
        #expect(BuildState.same(before, after, except: own))
        #expect(BuildState.same(after, before, except: own))
        var edited = after
        edited[3] = "content/animals/fox.md\tf 5"
        #expect(!BuildState.same(before, edited, except: own), "a record changed")
        #expect(!BuildState.same(before, Array(after.dropLast()), except: own), "a line is missing")
        #expect(!BuildState.same(before, after + ["content/sounds\td 6"], except: own), "a line more")
        #expect(!BuildState.same(["content/packs.lockx\tf 1"], [], except: own), "only whole keys are excepted")
    }
}
