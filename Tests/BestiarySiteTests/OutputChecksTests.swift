import BestiaryStorage
import Testing

@testable import BestiarySite

/// `OutputChecks.identity(_:links:)` reads a recorded media identity number by number: it must
/// say yes exactly when the string `OutputWriter.identity(linking:)` makes is the recorded one.
@Suite struct OutputChecksTests {
    static let infos: [FileInfo] = [
        FileInfo(kind: .file, size: 0, modificationTime: 0, inode: 0, device: 0),
        FileInfo(kind: .file, size: 8_242, modificationTime: 1_795_647_452_974_440_293, inode: 5_547_721, device: 65_024),
        FileInfo(kind: .file, size: Int.max, modificationTime: -1, inode: UInt64.max, device: UInt64.max),
        FileInfo(kind: .file, size: 1, modificationTime: Int64.min, inode: 1, device: 1),
        FileInfo(kind: .file, size: 10, modificationTime: Int64.max, inode: 10, device: 2),
    ]

    @Test func agreesWithTheStringItReplaces() {
        for recorded in Self.infos {
            let text = OutputWriter.identity(linking: recorded)
            for info in Self.infos {
                #expect(OutputChecks.identity(text, links: info) == (OutputWriter.identity(linking: info) == text), "\(text) against \(info)")
            }
            // Each field changed on its own.
            var other = recorded
            other.size = recorded.size == 0 ? 1 : recorded.size - 1
            #expect(!OutputChecks.identity(text, links: other))
            other = recorded
            other.modificationTime = recorded.modificationTime == 0 ? 1 : recorded.modificationTime / 2
            #expect(!OutputChecks.identity(text, links: other))
            other = recorded
            other.inode = recorded.inode &+ 1
            #expect(!OutputChecks.identity(text, links: other))
            other = recorded
            other.device = recorded.device &+ 1
            #expect(!OutputChecks.identity(text, links: other))
        }
    }

    @Test func refusesWhatItDoesNotWrite() {
        let info = FileInfo(kind: .file, size: 3, modificationTime: 4, inode: 2, device: 1)
        #expect(OutputChecks.identity("file 1 2 3 4", links: info))
        for bad in [
            "", "file", "file ", "file 1 2 3", "file 1 2 3 4 ", "file 1 2 3 4 5", "file 1  2 3 4", " file 1 2 3 4", "File 1 2 3 4",
            "file 1 2 3 +4", "file -1 2 3 4", "file 1 2 -3 4", "file 1 2 3 4x", "file 1 2 3 --4", "file 1 2 3 -",
            "file 18446744073709551617 2 3 4", "2f0c7a (a digest)",
        ] {
            #expect(!OutputChecks.identity(bad, links: info), "\(bad)")
        }
        let negative = FileInfo(kind: .file, size: 3, modificationTime: -4, inode: 2, device: 1)
        #expect(OutputChecks.identity("file 1 2 3 -4", links: negative))
        #expect(!OutputChecks.identity("file 1 2 3 4", links: negative))
        #expect(!OutputChecks.identity("file 1 2 3 -0", links: info.with(time: 0)))
    }
}

extension FileInfo {
    fileprivate func with(time: Int64) -> FileInfo {
        var copy = self
        copy.modificationTime = time
        return copy
    }
}
