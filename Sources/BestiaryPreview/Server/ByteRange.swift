/// A single byte range of a `Range: bytes=…` request header (RFC 9110 §14), resolved against the
/// size of the file: what audio and video elements send when the listener seeks.
public enum ByteRange: Equatable, Sendable {
    /// Serve these bytes (inclusive) with 206 Partial Content.
    case satisfiable(ClosedRange<Int>)
    /// No byte of the file is in the range: 416 Range Not Satisfiable.
    case unsatisfiable
    /// Not a range this server serves (another unit, several ranges, malformed): serve the whole
    /// file with 200, as RFC 9110 allows.
    case ignored

    /// Parses `header` for a file of `size` bytes.
    public static func parse(_ header: String, size: Int) -> ByteRange {
        let trimmed = header.trimmingSpaces
        guard trimmed.lowercased().hasPrefix("bytes=") else { return .ignored }
        let spec = trimmed.dropFirst("bytes=".count).trimmingSpaces
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .ignored }
        let first = spec[..<dash].trimmingSpaces
        let last = spec[spec.index(after: dash)...].trimmingSpaces
        guard first.allSatisfy(\.isASCIIDigit), last.allSatisfy(\.isASCIIDigit) else { return .ignored }
        if first.isEmpty {
            // Suffix range: the last N bytes.
            guard let count = Int(last) else { return .ignored }
            guard count > 0, size > 0 else { return .unsatisfiable }
            return .satisfiable(max(0, size - count)...(size - 1))
        }
        guard let start = Int(first) else { return .unsatisfiable }  // too large to be in the file
        let end: Int
        if last.isEmpty {
            end = size - 1
        } else {
            guard let e = Int(last) else { return start < size ? .satisfiable(start...(size - 1)) : .unsatisfiable }
            guard e >= start else { return .ignored }  // invalid: ignore the header
            end = min(e, size - 1)
        }
        guard start < size else { return .unsatisfiable }
        return .satisfiable(start...end)
    }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
