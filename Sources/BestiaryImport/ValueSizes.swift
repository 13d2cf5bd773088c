import BestiaryContent

/// The sizes of imported values against what a record's front matter may hold
/// (``YAMLGuard/maxBytes``), as the reader (a row alone) and the planner (a row with what its
/// record held) say them.
enum ValueSizes {
    /// "a record's values may hold 256 KiB in all".
    static let limit = "a record's values may hold \(YAMLGuard.maxBytes / 1024) KiB in all"

    /// Bytes in KiB, rounded up (a value of 1 byte over the limit must not read as the limit).
    static func kib(_ bytes: Int) -> String { "\((bytes + 1023) / 1024) KiB" }

    /// The values' bytes in all, and the longest value with its bytes.
    static func measure(_ fields: [FieldValue]) -> (total: Int, longest: (field: FieldValue, bytes: Int)?) {
        var total = 0
        var longest: (field: FieldValue, bytes: Int)?
        for field in fields {
            let bytes = field.value.utf8.count
            total += bytes
            if bytes > (longest?.bytes ?? -1) { longest = (field, bytes) }
        }
        return (total, longest)
    }
}
