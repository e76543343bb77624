import StrictJSON

/// Python's `str(value)` on what `json.loads` returned, which cattrs applies to every
/// `str` field of Apple's models: a string as it is, `True`/`False`, `None`, an integer
/// in decimal, a float as `repr` writes it (shortest round trip; fixed notation for
/// decimal exponents from -4 to 15, `1e+16` beyond; `nan`, `inf`), an array or object
/// as `repr` writes it.
///
/// Exact for every scalar. For an array or object it follows `repr` (`['a', 1]`,
/// `{'k': None}`) but quotes strings more simply than CPython where they hold quotes,
/// backslashes or non-printable characters; such a value starts with `[` or `{`, so no
/// bundle id or environment it is compared with can equal it either way.
package enum PythonStr {
    package static func of(_ value: JSONValue) -> String {
        switch value {
        case .null: return "None"
        case .bool(let flag): return flag ? "True" : "False"
        case .string(let text): return text
        case .number(let text): return number(text)
        case .array(let elements): return "[" + elements.map(repr).joined(separator: ", ") + "]"
        case .object(let members): return "{" + members.map { quoted($0.key) + ": " + repr($0.value) }.joined(separator: ", ") + "}"
        }
    }

    private static func repr(_ value: JSONValue) -> String {
        if case .string(let text) = value { return quoted(text) }
        return of(value)
    }

    private static func quoted(_ text: String) -> String {
        let quote: Character = text.contains("'") && !text.contains("\"") ? "\"" : "'"
        var result = String(quote)
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case quote: result += "\\" + String(quote)
            default: result.append(character)
            }
        }
        result.append(quote)
        return result
    }

    /// A JSON number: an integer literal is a Python `int`, anything else a `float`.
    private static func number(_ text: String) -> String {
        let isInteger = !text.isEmpty && text.allSatisfy { $0 == "-" || ("0"..."9").contains($0) }
        if isInteger { return text.allSatisfy({ $0 == "-" || $0 == "0" }) ? "0" : text }
        return floatRepr(Double(text) ?? .nan)
    }

    /// `repr(x)` for a float.
    package static func floatRepr(_ x: Double) -> String {
        if x.isNaN { return "nan" }
        if x.isInfinite { return x < 0 ? "-inf" : "inf" }
        let sign = x.sign == .minus ? "-" : ""
        // Swift's description holds the shortest digits that round-trip, as Python's repr.
        let text = "\(x.magnitude)"
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...]) ?? 0
        }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        var digits = Array(parts[0] + (parts.count > 1 ? parts[1] : ""))
        var point = parts[0].count + exponent  // where the decimal point falls in `digits`
        while digits.count > 1, digits.first == "0" {
            digits.removeFirst()
            point -= 1
        }
        while digits.count > 1, digits.last == "0" { digits.removeLast() }
        if digits == ["0"] { return sign + "0.0" }
        let scientific = point - 1
        if (-4..<16).contains(scientific) {
            if point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + String(digits) }
            if point >= digits.count { return sign + String(digits) + String(repeating: "0", count: point - digits.count) + ".0" }
            return sign + String(digits[..<point]) + "." + String(digits[point...])
        }
        let fraction = digits.count > 1 ? "." + String(digits[1...]) : ""
        let magnitude = String(abs(scientific))
        return sign + String(digits[0]) + fraction + "e" + (scientific < 0 ? "-" : "+")
            + (magnitude.count < 2 ? "0" + magnitude : magnitude)
    }
}
