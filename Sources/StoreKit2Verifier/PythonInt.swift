import StrictJSON

/// Python's `int(value)` on a value `json.loads` returned, which Apple's library applies
/// to `signedDate` (or `receiptCreationDate`) and PyJWT to the claims `iat`, `nbf` and
/// `exp`: an integer as is, a float truncated toward zero, `true` and `false` as 1 and
/// 0, a string of decimal digits (Unicode `Nd`, single `_` between digits, a sign,
/// Unicode white space around); nil where Python raises (null, arrays, objects, `NaN`,
/// infinities, other strings, more than 4,300 digits).
///
/// The result saturates at the limits of `Int64`: it is only compared with a time in
/// seconds or divided by 1000, and a saturated value orders as Python's exact one does.
enum PythonInt {
    static func of(_ value: JSONValue) -> Int64? {
        switch value {
        case .bool(let flag):
            return flag ? 1 : 0
        case .number(let text):
            if text.allSatisfy({ $0 == "-" || $0.isASCII && $0.isNumber }) {
                return saturated(negative: text.hasPrefix("-"), digits: text.drop { $0 == "-" }.utf8.map { $0 - UInt8(ascii: "0") })
            }
            // A fraction or exponent: Python's float, truncated toward zero.
            guard let double = Double(text), double.isFinite else { return nil }
            let truncated = double.rounded(.towardZero)
            if truncated >= 0x1p63 { return .max }
            if truncated < -0x1p63 { return .min }
            return Int64(truncated)
        case .string(let text):
            return parse(text)
        case .null, .array, .object:
            return nil
        }
    }

    /// `int(text)` in base 10.
    private static func parse(_ text: String) -> Int64? {
        var scalars = Substring(text).unicodeScalars.drop { $0.properties.isWhitespace }
        while let last = scalars.last, last.properties.isWhitespace { scalars = scalars.dropLast() }
        var negative = false
        if let sign = scalars.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            scalars = scalars.dropFirst()
        }
        var digits: [UInt8] = []
        var afterDigit = false
        for scalar in scalars {
            if scalar == "_" {
                guard afterDigit else { return nil }
                afterDigit = false
            } else if scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue {
                digits.append(UInt8(value))
                afterDigit = true
            } else {
                return nil
            }
        }
        guard afterDigit, digits.count <= JSONParser.pythonIntegerDigitLimit else { return nil }
        return saturated(negative: negative, digits: digits)
    }

    /// The decimal `digits` (values 0…9) with their sign, saturated to `Int64`.
    private static func saturated(negative: Bool, digits: [UInt8]) -> Int64 {
        var magnitude: UInt64 = 0
        for digit in digits {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2 else { return negative ? .min : .max }
            magnitude = sum
        }
        if negative { return magnitude > UInt64(Int64.max) ? .min : -Int64(magnitude) }
        return magnitude > UInt64(Int64.max) ? .max : Int64(magnitude)
    }
}
