import BestiaryTestSupport
import Foundation
import Testing

@testable import BestiaryStorage

/// `read` and `readBytes` give a file's bytes whatever its size (empty, within and beyond one
/// 64 KiB chunk); a missing file or a folder is an error; an unordered listing holds the same
/// entries as the ordered one.
@Suite struct LocalReadTests {
    @Test(arguments: [0, 1, 65_535, 65_536, 65_537, 300_001])
    func readsEveryByte(size: Int) throws {
        let folder = TemporaryDirectory()
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        try folder.write(Data(bytes), to: "f")
        let fs = LocalFileSystem()
        #expect(try fs.readBytes(folder.appending("f")) == bytes)
        #expect(try fs.read(folder.appending("f")) == Data(bytes))
    }

    /// A file whose size says 0 (as `/proc` files do) is read to its end all the same.
    @Test func aFileLongerThanItsSizeIsReadToItsEnd() throws {
        let fs = LocalFileSystem()
        #expect(fs.info("/proc/self/status")?.size == 0)
        let text = String(decoding: try fs.readBytes("/proc/self/status"), as: UTF8.self)
        #expect(text.hasPrefix("Name:"))
        #expect(String(decoding: try fs.read("/proc/self/status"), as: UTF8.self).hasPrefix("Name:"))
    }

    @Test func missingFilesAndFoldersAreErrors() throws {
        let folder = TemporaryDirectory()
        let fs = LocalFileSystem()
        #expect(throws: FileSystemError.self) { try fs.readBytes(folder.appending("missing")) }
        #expect(throws: FileSystemError.self) { try fs.readBytes(folder.path) }
    }

    @Test func anUnorderedListingHoldsTheSameEntries() throws {
        let folder = TemporaryDirectory()
        for name in ["b", "a", "é", "c/d"] { try folder.write("x", to: name) }
        let fs = LocalFileSystem()
        let ordered = try fs.entries(in: folder.path)
        let unordered = try fs.unorderedEntries(in: folder.path)
        #expect(ordered.count == 4)
        #expect(unordered.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) } == ordered)
    }
}
