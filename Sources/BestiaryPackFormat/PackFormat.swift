/// Constants and lexical rules of pack format 1 (docs/packs.md).
public enum PackFormat {
    /// The format this code reads and writes. A client refuses any other value: a breaking
    /// change gets a new number (and old clients stop rather than misread).
    public static let version: Int64 = 1

    /// The pointer's file name inside a pack folder.
    public static let pointerPath = "latest.json"
    /// Detached signatures sit next to the file they sign, with this suffix.
    public static let signatureSuffix = ".sig"

    public static func manifestPath(version: Int) -> String { "v/\(version).json" }
    public static func deltaPath(from: Int, to: Int) -> String { "d/\(from)-\(to).json" }
    public static func mediaPath(sha256: String, ext: String) -> String { "media/\(sha256).\(ext)" }

    /// Pack and record ids: 1–64 of `a-z 0-9 _ -` (a record id is the key clients sync by).
    public static func isValidID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count)
            && id.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 95 || $0 == 45 }
    }

    /// 64 lower-case hex digits.
    public static func isSHA256(_ s: String) -> Bool {
        s.utf8.count == 64 && s.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Media file extensions: 1–10 of `a-z 0-9`.
    public static func isValidExtension(_ ext: String) -> Bool {
        (1...10).contains(ext.utf8.count) && ext.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) }
    }

    /// Paths inside a pack that a pointer may name: relative, `/`-separated segments of
    /// `A-Z a-z 0-9 . _ -`, no empty, `.` or `..` segment, at most 255 bytes. A client resolves
    /// them against the pack's folder, so they can never point outside it.
    public static func isSafePath(_ path: String) -> Bool {
        guard (1...255).contains(path.utf8.count) else { return false }
        for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
            if segment.isEmpty || segment == "." || segment == ".." { return false }
            let ok = segment.utf8.allSatisfy {
                (97...122).contains($0) || (65...90).contains($0) || (48...57).contains($0) || $0 == 46 || $0 == 95 || $0 == 45
            }
            if !ok { return false }
        }
        return true
    }

    /// The largest integer JSON readers in every language represent exactly (2^53 − 1).
    public static let maxInteger: Int64 = 9_007_199_254_740_991
}
