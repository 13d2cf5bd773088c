import BestiaryTestSupport
import Foundation
import Testing

@testable import BestiaryStorage

/// `read` and `readShared` (mapped) give a file's bytes whatever its size (empty, within and beyond one
/// 64 KiB chunk); a missing file or a folder is an error; an unordered listing holds the same
/// entries as the ordered one.
@Suite struct LocalReadTests {
    @Test(arguments: [0, 1, 65_535, 65_536, 65_537, 300_001])
    func readsEveryByte(size: Int) throws {
        let folder = TemporaryDirectory()
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        try folder.write(Data(bytes), to: "f")
        let fs = LocalFileSystem()
        #expect(try fs.readShared(folder.appending("f")).array == bytes)
        #expect(try fs.read(folder.appending("f")) == Data(bytes))
    }

    /// A file whose size says 0 (as `/proc` files do) is read to its end all the same.
    @Test func aFileLongerThanItsSizeIsReadToItsEnd() throws {
        let fs = LocalFileSystem()
        #expect(fs.info("/proc/self/status")?.size == 0)
        let text = String(decoding: try fs.readShared("/proc/self/status").array, as: UTF8.self)
        #expect(text.hasPrefix("Name:"))
        #expect(String(decoding: try fs.read("/proc/self/status"), as: UTF8.self).hasPrefix("Name:"))
    }

    /// A file's shared bytes stay what they were when it was read while a new file replaces it
    /// (kept files and the output are only ever replaced whole), and a reader over them keeps
    /// them alive after everyone else let go.
    @Test func sharedBytesOutliveTheFileAndTheirHolder() throws {
        let folder = TemporaryDirectory()
        var writer = ByteWriter()
        writer.string("kept")
        writer.int(42)
        try folder.write(Data(writer.bytes), to: "kept")
        let fs = LocalFileSystem()
        var shared: FileBytes? = try fs.readShared(folder.appending("kept"))
        var reader = ByteReader(shared!)
        shared = nil
        try fs.writeAtomically(Data("replaced".utf8), to: folder.appending("kept"))
        #expect(reader.string() == "kept")
        #expect(reader.int() == 42)
        #expect(reader.atEnd)
    }

    /// Mapped bytes given out as `Data` may be changed like any `Data`: the change is that
    /// value's own, never another's nor the file's.
    @Test func changingMappedDataChangesNothingElse() throws {
        let folder = TemporaryDirectory()
        let bytes = [UInt8](repeating: 7, count: 200_000)
        try folder.write(Data(bytes), to: "f")
        let fs = LocalFileSystem()
        var data = try fs.readMapped(folder.appending("f"))
        let other = try fs.readMapped(folder.appending("f"))
        let copy = data
        var slice = data[100..<200]
        slice[150] = 1
        data[0] = 3
        data[199_999] = 4
        #expect(data[0] == 3 && data[199_999] == 4 && data[150] == 7 && slice[150] == 1)
        #expect(copy == Data(bytes) && other == Data(bytes))
        #expect(try fs.read(folder.appending("f")) == Data(bytes))
        #expect(try fs.readMapped("/proc/self/status").starts(with: Array("Name:".utf8)))
    }

    @Test func missingFilesAndFoldersAreErrors() throws {
        let folder = TemporaryDirectory()
        let fs = LocalFileSystem()
        #expect(throws: FileSystemError.self) { try fs.readShared(folder.appending("missing")) }
        #expect(throws: FileSystemError.self) { try fs.readShared(folder.path) }
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
