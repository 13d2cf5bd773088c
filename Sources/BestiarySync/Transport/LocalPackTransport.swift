import Foundation

/// Reads a pack tree from a folder (a mounted drive, a build's `output/packs/`, an app bundle).
public struct LocalPackTransport: PackTransport {
    public let directory: String
    /// Bytes per chunk handed to the reader.
    public var chunkSize = 256 * 1024

    public init(directory: String) {
        var d = directory
        while d.count > 1 && d.hasSuffix("/") { d.removeLast() }
        self.directory = d
    }

    public var location: String { directory }

    public func listFiles() async -> [String]? {
        guard let walk = FileManager.default.enumerator(atPath: directory) else { return nil }
        var files: [String] = []
        while let path = walk.nextObject() as? String {
            if (walk.fileAttributes?[.type] as? FileAttributeType) == .typeRegular { files.append(path) }
        }
        return files.sorted()
    }

    public func open(_ path: String, from offset: Int) async throws -> PackResponse {
        let full = directory + "/" + path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return .empty(.notFound)
        }
        guard let handle = FileHandle(forReadingAtPath: full) else {
            throw PackTransportError("cannot open \(full)", transient: false)
        }
        let size = Int(try handle.seekToEnd())
        if offset > 0 && offset >= size {
            try? handle.close()
            return .empty(.rangeNotSatisfiable)
        }
        let start = max(0, offset)
        try handle.seek(toOffset: UInt64(start))
        let chunk = chunkSize
        // Pulled chunk by chunk, so a large media file is never held in memory whole.
        let body = AsyncThrowingStream<Data, any Error>(unfolding: {
            do {
                guard let data = try handle.read(upToCount: chunk), !data.isEmpty else {
                    try? handle.close()
                    return nil
                }
                return data
            } catch {
                try? handle.close()
                throw PackTransportError("cannot read \(full): \(error.localizedDescription)")
            }
        })
        return PackResponse(status: start > 0 ? .partial(start: start) : .full, length: size - start, body: body)
    }
}
