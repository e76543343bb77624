/// A UTCTime or GeneralizedTime value, in UTC. Only the forms certificates and
/// receipts use are accepted: a `Z` suffix (no local times, no offsets) and, for
/// GeneralizedTime, optional fractional seconds. Seconds are required in DER and
/// may be omitted in BER UTCTime.
public struct ASN1Time: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The year, four digits in practice (UTCTime's two are widened to 1950-2049).
    public var year: Int
    /// The month, 1-12.
    public var month: Int
    /// The day of the month, 1-31.
    public var day: Int
    /// The hour, 0-23.
    public var hour: Int
    /// The minute, 0-59.
    public var minute: Int
    /// The second, 0-59 (0 when a BER UTCTime leaves it out).
    public var second: Int
    /// Fraction of a second in nanoseconds (GeneralizedTime only).
    public var nanoseconds: Int

    /// A time from its fields, in UTC. The fields are taken as given, not checked.
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0,
                nanoseconds: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.nanoseconds = nanoseconds
    }

    /// The time for a count of seconds since 1970-01-01T00:00:00Z.
    public init(secondsSince1970 seconds: Int64) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let (y, m, d) = ASN1Time.civil(fromDays: days)
        self.init(year: y, month: m, day: d, hour: secondOfDay / 3600,
                  minute: secondOfDay / 60 % 60, second: secondOfDay % 60)
    }

    /// Seconds since 1970-01-01T00:00:00Z (fraction dropped).
    public var secondsSince1970: Int64 {
        ASN1Time.days(year: year, month: month, day: day) * 86_400
            + Int64(hour * 3600 + minute * 60 + second)
    }

    /// Earlier first, to the nanosecond.
    public static func < (lhs: ASN1Time, rhs: ASN1Time) -> Bool {
        (lhs.secondsSince1970, lhs.nanoseconds) < (rhs.secondsSince1970, rhs.nanoseconds)
    }

    /// RFC 3339, e.g. `2024-05-01T12:00:00Z`.
    public var description: String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var year = String(self.year)
        while year.count < 4 { year = "0" + year }
        var text = "\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))"
        if nanoseconds > 0 {
            var fraction = String(nanoseconds)
            while fraction.count < 9 { fraction = "0" + fraction }
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "Z"
    }

    // MARK: Parsing

    /// Parses UTCTime contents `YYMMDDhhmm[ss]Z` (years 50–99 are 19xx, RFC 5280).
    public init<C: Collection<UInt8>>(utcTime contents: C, rules: BERRules, offset: Int) throws(BERError) {
        let text = Array(contents)
        let withSeconds = text.count == 13
        guard withSeconds || (text.count == 11 && rules.mode == .ber), text.last == UInt8(ascii: "Z") else {
            try BERError.fail(.invalidTime, at: offset, "UTCTime must be YYMMDDhhmmssZ")
        }
        var cursor = DigitCursor(text: text, offset: offset)
        let yy = try cursor.number(2)
        self.init(year: yy >= 50 ? 1900 + yy : 2000 + yy, month: try cursor.number(2), day: try cursor.number(2),
                  hour: try cursor.number(2), minute: try cursor.number(2),
                  second: withSeconds ? try cursor.number(2) : 0)
        try validate(offset: offset)
    }

    /// Parses GeneralizedTime contents `YYYYMMDDhhmmss[.f+]Z`. DER forbids a
    /// trailing zero in the fraction and an empty fraction.
    public init<C: Collection<UInt8>>(generalizedTime contents: C, rules: BERRules, offset: Int) throws(BERError) {
        let text = Array(contents)
        guard text.count >= 15, text.last == UInt8(ascii: "Z") else {
            try BERError.fail(.invalidTime, at: offset, "GeneralizedTime must be YYYYMMDDhhmmss[.fff]Z")
        }
        var cursor = DigitCursor(text: text, offset: offset)
        self.init(year: try cursor.number(4), month: try cursor.number(2), day: try cursor.number(2),
                  hour: try cursor.number(2), minute: try cursor.number(2), second: try cursor.number(2))
        if cursor.index < text.count - 1 {
            guard text[cursor.index] == UInt8(ascii: ".") else {
                try BERError.fail(.invalidTime, at: offset, "unexpected character in GeneralizedTime")
            }
            cursor.index += 1
            let digits = text.count - 1 - cursor.index
            guard digits >= 1, digits <= 9 else {
                try BERError.fail(.invalidTime, at: offset, "fraction must have 1 to 9 digits")
            }
            if rules.mode == .der && text[text.count - 2] == UInt8(ascii: "0") {
                try BERError.fail(.invalidTime, at: offset, "DER forbids trailing zeros in the fraction")
            }
            var fraction = try cursor.number(digits)
            for _ in digits..<9 { fraction *= 10 }
            nanoseconds = fraction
        }
        try validate(offset: offset)
    }

    private func validate(offset: Int) throws(BERError) {
        let daysInMonth = [31, ASN1Time.isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...12).contains(month), (1...daysInMonth[month - 1]).contains(day),
              hour < 24, minute < 60, second < 60 else {
            try BERError.fail(.invalidTime, at: offset, "date or time field out of range in \(self)")
        }
    }

    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int64) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0)), Int(month), Int(day))
    }

    /// The UTCTime (`YYMMDDhhmmssZ`) encoding; precondition: year 1950...2049.
    public var utcTimeBytes: [UInt8] {
        precondition((1950...2049).contains(year), "UTCTime covers 1950-2049 only")
        let text = ASN1Time.digits(year % 100, 2) + ASN1Time.digits(month, 2) + ASN1Time.digits(day, 2)
            + ASN1Time.digits(hour, 2) + ASN1Time.digits(minute, 2) + ASN1Time.digits(second, 2) + "Z"
        return Array(text.utf8)
    }

    /// The DER GeneralizedTime encoding (`YYYYMMDDhhmmss[.f]Z`).
    public var generalizedTimeBytes: [UInt8] {
        var text = ASN1Time.digits(year, 4) + ASN1Time.digits(month, 2) + ASN1Time.digits(day, 2)
            + ASN1Time.digits(hour, 2) + ASN1Time.digits(minute, 2) + ASN1Time.digits(second, 2)
        if nanoseconds > 0 {
            var fraction = ASN1Time.digits(nanoseconds, 9)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return Array((text + "Z").utf8)
    }

    private static func digits(_ value: Int, _ count: Int) -> String {
        var text = String(value)
        while text.count < count { text = "0" + text }
        return text
    }
}

/// Reads fixed-width decimal fields.
private struct DigitCursor {
    let text: [UInt8]
    let offset: Int
    var index = 0

    mutating func number(_ count: Int) throws(BERError) -> Int {
        guard index + count <= text.count else {
            try BERError.fail(.invalidTime, at: offset, "time is too short")
        }
        var value = 0
        for octet in text[index..<index + count] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(octet) else {
                try BERError.fail(.invalidTime, at: offset, "non-digit in time")
            }
            value = value * 10 + Int(octet - UInt8(ascii: "0"))
        }
        index += count
        return value
    }
}
