import BER
import Foundation
import Receipt

/// A date as verifyReceipt writes it, three times: `purchase_date` =
/// `2026-05-02 09:36:07 Etc/GMT`, `purchase_date_ms` = `"1777714567000"` (a string),
/// `purchase_date_pst` = `2026-05-02 02:36:07 America/Los_Angeles` (Pacific time, daylight
/// saving included, by the US rules coded in `pacificOffset`, not the machine's time zone data).
package struct AppleDate: Sendable, Hashable {
    /// Milliseconds since 1970 (fraction below a millisecond dropped).
    package let milliseconds: Int64

    package init(milliseconds: Int64) { self.milliseconds = milliseconds }

    package init(_ date: ReceiptDate) {
        milliseconds = date.secondsSince1970 * 1000 + Int64(date.nanoseconds / 1_000_000)
    }

    package init(_ date: Date) {
        milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// Whole seconds (floor, also before 1970).
    var seconds: Int64 { milliseconds >= 0 ? milliseconds / 1000 : -((-milliseconds + 999) / 1000) }

    /// `yyyy-MM-dd HH:mm:ss Etc/GMT`.
    package var gmt: String { Self.text(seconds) + " Etc/GMT" }

    /// The milliseconds as a decimal string.
    package var ms: String { String(milliseconds) }

    /// `yyyy-MM-dd HH:mm:ss America/Los_Angeles`, in Pacific standard or daylight time.
    package var pst: String { Self.text(seconds + Self.pacificOffset(seconds)) + " America/Los_Angeles" }

    /// The three members `NAME`, `NAME_ms` and `NAME_pst`, in that order.
    func members(_ name: String) -> [(String, ResponseJSON)] {
        [(name, .string(gmt)), (name + "_ms", .string(ms)), (name + "_pst", .string(pst))]
    }

    /// Pacific time's offset from UTC at `seconds`, in seconds: -7 h in daylight saving
    /// time, else -8 h. US rules since 2007: from the second Sunday of March, 02:00 PST, to
    /// the first Sunday of November, 02:00 PDT; 1987–2006: first Sunday of April to the
    /// last Sunday of October; standard time before 1987. Hand-coded so the answer does
    /// not depend on the machine's time zone data; tested against Foundation's `TimeZone`.
    static func pacificOffset(_ seconds: Int64) -> Int64 {
        let standard: Int64 = -8 * 3600
        let year = ASN1Time(secondsSince1970: seconds + standard).year
        guard year >= 1987 else { return standard }
        let (start, end): (Int64, Int64)
        if year >= 2007 {
            start = sunday(year: year, month: 3, nth: 2)
            end = sunday(year: year, month: 11, nth: 1)
        } else {
            start = sunday(year: year, month: 4, nth: 1)
            end = sunday(year: year, month: 11, nth: 1) - 7 * 86_400  // the last Sunday of October
        }
        // 02:00 local: 10:00 UTC in standard time, 09:00 UTC in daylight time.
        return (start + 10 * 3600..<end + 9 * 3600).contains(seconds) ? -7 * 3600 : standard
    }

    /// Midnight UTC of the `nth` Sunday of `month`.
    private static func sunday(year: Int, month: Int, nth: Int) -> Int64 {
        let first = ASN1Time(year: year, month: month, day: 1).secondsSince1970
        let weekday = Int((first / 86_400 + 4) % 7)  // 1970-01-01 was a Thursday (4); Sunday is 0
        return first + Int64((7 - weekday) % 7 + 7 * (nth - 1)) * 86_400
    }

    private static func text(_ seconds: Int64) -> String {
        let time = ASN1Time(secondsSince1970: seconds)
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(time.year, 4))-\(pad(time.month, 2))-\(pad(time.day, 2)) "
            + "\(pad(time.hour, 2)):\(pad(time.minute, 2)):\(pad(time.second, 2))"
    }
}
