import Foundation

/// A UTC instant with whole seconds, written `2026-01-31T12:00:00Z` (RFC 3339, always `Z`,
/// never fractions or offsets) so that every reader parses it the same way.
///
/// Formatting and parsing are done by hand: no locale, time zone or calendar settings of the
/// machine can change the bytes.
public struct PackTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var seconds: Int64

    public init(seconds: Int64) { self.seconds = seconds }

    /// `date`, with any fraction of a second dropped (rounded down).
    public init(_ date: Date) {
        self.seconds = Int64(date.timeIntervalSince1970.rounded(.down))
    }

    public var date: Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }

    public func adding(days: Int) -> PackTime { PackTime(seconds: seconds + Int64(days) * 86_400) }

    public static func < (a: PackTime, b: PackTime) -> Bool { a.seconds < b.seconds }

    /// Parses exactly `YYYY-MM-DDTHH:MM:SSZ` (years 1970–9999).
    public init?(_ text: String) {
        let b = Array(text.utf8)
        guard b.count == 20, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54, b[13] == 0x3A, b[16] == 0x3A, b[19] == 0x5A else {
            return nil
        }
        func num(_ r: Range<Int>) -> Int64? {
            var v: Int64 = 0
            for k in r {
                guard (0x30...0x39).contains(b[k]) else { return nil }
                v = v * 10 + Int64(b[k] - 0x30)
            }
            return v
        }
        guard let y = num(0..<4), let mo = num(5..<7), let d = num(8..<10), let h = num(11..<13), let mi = num(14..<16),
            let s = num(17..<19), y >= 1970, (1...12).contains(mo), (1...Self.daysIn(month: mo, year: y)).contains(d),
            h < 24, mi < 60, s < 60
        else { return nil }
        seconds = Self.days(year: y, month: mo, day: d) * 86_400 + h * 3600 + mi * 60 + s
    }

    public var description: String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - days * 86_400
        let (y, m, d) = Self.civil(days: days)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let year = String(y)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year
            + "-\(two(m))-\(two(d))T\(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60))Z"
    }

    private static func isLeap(_ y: Int64) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civil(days z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
