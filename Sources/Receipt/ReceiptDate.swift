import BER

/// A receipt date: an RFC 3339 IA5String such as `2024-02-23T17:27:16Z`,
/// `2020-08-21T07:54:47.123Z` or `2020-10-16T14:29:30+0300` (also `+03:00`). The
/// text is kept exactly as received so re-encoding is lossless; comparisons use the
/// instant. Parsed by hand: no locale-dependent formatter is involved.
public struct ReceiptDate: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The text as found in (or written to) the receipt.
    public let text: String
    /// The instant, in seconds since 1970-01-01T00:00:00Z (fraction in `nanoseconds`).
    public let secondsSince1970: Int64
    /// The fraction of the second, in nanoseconds.
    public let nanoseconds: Int
    /// The offset the text was written in, in minutes east of UTC (0 for `Z`).
    public let utcOffsetMinutes: Int

    /// Parses RFC 3339 text; `offset` is where the value lies in the input, for errors.
    public init<C: Collection<UInt8>>(rfc3339 bytes: C, offset: Int = 0) throws(BERError) {
        var cursor = DateCursor(bytes: Array(bytes), offset: offset)
        let year = try cursor.number(4)
        try cursor.expect("-")
        let month = try cursor.number(2)
        try cursor.expect("-")
        let day = try cursor.number(2)
        try cursor.expect("T")
        let hour = try cursor.number(2)
        try cursor.expect(":")
        let minute = try cursor.number(2)
        try cursor.expect(":")
        let second = try cursor.number(2)
        var nanoseconds = 0
        if cursor.peek == UInt8(ascii: ".") {
            cursor.index += 1
            var digits = 0
            while let next = cursor.peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) {
                guard digits < 9 else { throw cursor.failure("more than 9 fraction digits") }
                nanoseconds = nanoseconds * 10 + Int(next - UInt8(ascii: "0"))
                digits += 1
                cursor.index += 1
            }
            guard digits > 0 else { throw cursor.failure("empty fraction") }
            for _ in digits..<9 { nanoseconds *= 10 }
        }
        var offsetMinutes = 0
        switch cursor.peek {
        case UInt8(ascii: "Z"):
            cursor.index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = cursor.peek == UInt8(ascii: "-") ? -1 : 1
            cursor.index += 1
            let hours = try cursor.number(2)
            if cursor.peek == UInt8(ascii: ":") { cursor.index += 1 }
            let minutes = try cursor.number(2)
            guard hours < 24, minutes < 60 else { throw cursor.failure("UTC offset out of range") }
            offsetMinutes = sign * (hours * 60 + minutes)
        default:
            throw cursor.failure("expected Z or a +hhmm/-hhmm offset")
        }
        guard cursor.index == cursor.bytes.count else { throw cursor.failure("unexpected characters after the date") }
        guard (1...12).contains(month), (1...ReceiptDate.daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 60 else {
            throw cursor.failure("date or time field out of range")
        }
        let local = ASN1Time(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        let instant = local.secondsSince1970 - Int64(offsetMinutes * 60)
        // 0000-01-01T13:59:59+1400 is an instant in year -1: no RFC 3339 text in UTC
        // (`utcText`) could name it. Every date kept here can be written back in UTC.
        guard ReceiptDate.representableSeconds.contains(instant) else {
            throw cursor.failure("the instant lies outside 0000-01-01T00:00:00Z…9999-12-31T23:59:59Z")
        }
        self.text = String(decoding: cursor.bytes, as: UTF8.self)
        self.secondsSince1970 = instant
        self.nanoseconds = nanoseconds
        self.utcOffsetMinutes = offsetMinutes
    }

    /// Parses RFC 3339 text, or returns nil.
    public init?(_ text: String) {
        guard let date = try? ReceiptDate(rfc3339: Array(text.utf8)) else { return nil }
        self = date
    }

    /// The instants RFC 3339 can write in UTC: years 0000 to 9999.
    public static let representableSeconds: ClosedRange<Int64> =
        ASN1Time(year: 0, month: 1, day: 1).secondsSince1970
            ... ASN1Time(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59).secondsSince1970

    /// Formats an instant as `YYYY-MM-DDThh:mm:ss[.fff]Z`, or with a `±hhmm` offset
    /// (as Xcode receipts write it) when `utcOffsetMinutes` is not nil.
    /// `fractionDigits` (0...9) digits of `nanoseconds` are written. An instant whose
    /// year in that offset lies outside 0000–9999 gives text that the parser refuses
    /// (the mutator writes such dates on purpose).
    public init(secondsSince1970: Int64, nanoseconds: Int = 0, fractionDigits: Int = 0, utcOffsetMinutes: Int? = nil) {
        precondition((0...9).contains(fractionDigits) && (0..<1_000_000_000).contains(nanoseconds))
        let offset = utcOffsetMinutes ?? 0
        let local = ASN1Time(secondsSince1970: secondsSince1970 + Int64(offset * 60))
        func digits(_ value: Int, _ count: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        var text = "\(digits(local.year, 4))-\(digits(local.month, 2))-\(digits(local.day, 2))T"
            + "\(digits(local.hour, 2)):\(digits(local.minute, 2)):\(digits(local.second, 2))"
        var kept = 0
        if fractionDigits > 0 {
            let fraction = String(digits(nanoseconds, 9).prefix(fractionDigits))
            text += "." + fraction
            var scale = 1
            for _ in fractionDigits..<9 { scale *= 10 }
            kept = Int(fraction)! * scale
        }
        if let utcOffsetMinutes {
            let magnitude = abs(utcOffsetMinutes)
            text += (utcOffsetMinutes < 0 ? "-" : "+") + digits(magnitude / 60, 2) + digits(magnitude % 60, 2)
        } else {
            text += "Z"
        }
        self.text = text
        self.secondsSince1970 = secondsSince1970
        self.nanoseconds = kept
        self.utcOffsetMinutes = offset
    }

    /// The same instant written as `YYYY-MM-DDThh:mm:ssZ` (fraction dropped).
    public var utcText: String { ReceiptDate(secondsSince1970: secondsSince1970).text }

    /// The text exactly as received.
    public var description: String { text }

    /// Dates are equal when they denote the same instant, whatever their text.
    public static func == (lhs: ReceiptDate, rhs: ReceiptDate) -> Bool {
        lhs.secondsSince1970 == rhs.secondsSince1970 && lhs.nanoseconds == rhs.nanoseconds
    }

    /// Hashes the instant, as equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(secondsSince1970)
        hasher.combine(nanoseconds)
    }

    /// Earlier instant first, whatever the texts' offsets.
    public static func < (lhs: ReceiptDate, rhs: ReceiptDate) -> Bool {
        (lhs.secondsSince1970, lhs.nanoseconds) < (rhs.secondsSince1970, rhs.nanoseconds)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// Reads the fixed-width fields of an RFC 3339 date.
private struct DateCursor {
    let bytes: [UInt8]
    let offset: Int
    var index = 0

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    func failure(_ reason: String) -> BERError {
        BERError(.invalidTime, at: offset, "\(reason) in receipt date \"\(String(decoding: bytes, as: UTF8.self))\"")
    }

    mutating func number(_ count: Int) throws(BERError) -> Int {
        guard index + count <= bytes.count else { throw failure("date is too short") }
        var value = 0
        for octet in bytes[index..<index + count] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(octet) else { throw failure("non-digit") }
            value = value * 10 + Int(octet - UInt8(ascii: "0"))
        }
        index += count
        return value
    }

    mutating func expect(_ character: Unicode.Scalar) throws(BERError) {
        guard peek == UInt8(ascii: character) else { throw failure("expected '\(character)'") }
        index += 1
    }
}
