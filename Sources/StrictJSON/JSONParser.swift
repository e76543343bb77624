/// A strict RFC 8259 parser over UTF-8 bytes. Written here rather than taken from
/// Foundation so that it behaves the same on Linux and Apple platforms, reads 64-bit
/// integers exactly, tells `true` from `1`, keeps duplicate keys for the reader to
/// refuse by name, and reports every syntax error at a byte offset. The `python`
/// dialect relaxes it exactly where Python's `json.loads` does (`JSONDialect`), for
/// the StoreKit 2 verifier.
///
/// One cursor (`index`) over the bytes. Nesting is capped at the dialect's
/// `maximumDepth` and kept on a stack of the parser's own, not the call stack.
package struct JSONParser {
    /// Arrays and objects nested deeper than this are refused in the `rfc8259` dialect.
    /// Xcode's `.storekit` files nest six levels.
    package static let maximumDepth = JSONDialect.rfc8259.maximumDepth

    package struct SyntaxError: Error, Sendable, Hashable {
        /// Where in the input the problem was found.
        package let offset: Int
        package let reason: String
    }

    private let bytes: [UInt8]
    private let dialect: JSONDialect
    private var index = 0

    private init(bytes: [UInt8], dialect: JSONDialect) {
        self.bytes = bytes
        self.dialect = dialect
    }

    /// The one JSON value `bytes` holds (a leading UTF-8 byte order mark is skipped).
    package static func parse(_ bytes: [UInt8], dialect: JSONDialect = .rfc8259) throws(SyntaxError) -> JSONValue {
        var parser: JSONParser
        switch dialect {
        case .rfc8259:
            if let offset = firstInvalidUTF8(bytes) {
                throw SyntaxError(offset: offset, reason: "invalid UTF-8")
            }
            parser = JSONParser(bytes: bytes, dialect: dialect)
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        case .python:
            parser = JSONParser(bytes: try PythonJSONText.utf8(bytes), dialect: dialect)
        }
        parser.skipWhitespace()
        guard parser.index < parser.bytes.count else {
            throw SyntaxError(offset: parser.index, reason: "the file holds no JSON value (it is empty)")
        }
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else {
            throw parser.failure("unexpected \(parser.found) after the JSON value")
        }
        return value
    }

    // MARK: Values

    /// An array or object still open, innermost last: its elements or members so far.
    private enum OpenContainer {
        case array([JSONValue])
        /// `key` names the member whose value is being read; `positions` (python
        /// dialect) is where each name first appeared.
        case object([JSONMember], positions: [String: Int], key: String)
    }

    /// The value at the cursor (whitespace before it already skipped). Nested arrays
    /// and objects are kept on a stack of their own rather than the call stack, so the
    /// depth a thread can parse is the dialect's limit, whatever its stack size.
    private mutating func parseValue() throws(SyntaxError) -> JSONValue {
        var open: [OpenContainer] = []
        while true {
            // A value starts here: a scalar, or a container that is empty or opens.
            var value: JSONValue
            switch peek {
            case UInt8(ascii: "{"):
                try checkDepth(open.count + 1)
                index += 1
                skipWhitespace()
                if peek == UInt8(ascii: "}") {
                    index += 1
                    value = .object([])
                } else {
                    open.append(.object([], positions: [:], key: try parseMemberName()))
                    continue
                }
            case UInt8(ascii: "["):
                try checkDepth(open.count + 1)
                index += 1
                skipWhitespace()
                if peek == UInt8(ascii: "]") {
                    index += 1
                    value = .array([])
                } else {
                    open.append(.array([]))
                    continue
                }
            default:
                value = try parseScalar()
            }
            // The value is complete: it joins the innermost open container, which then
            // expects another value (continue) or closes and is complete in turn.
            closing: while let container = open.popLast() {
                skipWhitespace()
                switch container {
                case .array(var elements):
                    elements.append(value)
                    switch peek {
                    case UInt8(ascii: ","):
                        index += 1
                        skipWhitespace()
                        if peek == UInt8(ascii: "]") { throw failure("expected a JSON value, found ']' (a trailing comma is not JSON)") }
                        open.append(.array(elements))
                        break closing
                    case UInt8(ascii: "]"):
                        index += 1
                        value = .array(elements)
                    default:
                        throw failure("expected ',' or ']' after an array element, found \(found)")
                    }
                case .object(var members, var positions, let key):
                    if dialect == .python, let first = positions[key] {
                        // Python's dict: a repeated name keeps its first position and takes the last value.
                        members[first] = JSONMember(key: key, value: value)
                    } else {
                        if dialect == .python { positions[key] = members.count }
                        members.append(JSONMember(key: key, value: value))
                    }
                    switch peek {
                    case UInt8(ascii: ","):
                        index += 1
                        skipWhitespace()
                        open.append(.object(members, positions: positions, key: try parseMemberName()))
                        break closing
                    case UInt8(ascii: "}"):
                        index += 1
                        value = .object(members)
                    default:
                        throw failure("expected ',' or '}' after an object member, found \(found)")
                    }
                }
            }
            if open.isEmpty { return value }
        }
    }

    /// A member's name and the colon after it, leaving the cursor at its value.
    private mutating func parseMemberName() throws(SyntaxError) -> String {
        guard peek == UInt8(ascii: "\"") else {
            let hint = peek == UInt8(ascii: "}") ? " (a trailing comma is not JSON)" : ""
            throw failure("expected a quoted member name, found \(found)\(hint)")
        }
        let key = try parseString()
        skipWhitespace()
        guard peek == UInt8(ascii: ":") else { throw failure("expected ':' after the member name, found \(found)") }
        index += 1
        skipWhitespace()
        return key
    }

    /// A string, number or literal at the cursor.
    private mutating func parseScalar() throws(SyntaxError) -> JSONValue {
        switch peek {
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "N") where dialect == .python: try expectLiteral("NaN"); return .number("NaN")
        case UInt8(ascii: "I") where dialect == .python: try expectLiteral("Infinity"); return .number("Infinity")
        case UInt8(ascii: "-") where dialect == .python && bytes[(index + 1)...].starts(with: "Infinity".utf8):
            index += 9
            return .number("-Infinity")
        case UInt8(ascii: "-"), .some(UInt8(ascii: "0")...UInt8(ascii: "9")): return .number(try parseNumber())
        default: throw failure("expected a JSON value, found \(found)")
        }
    }

    private func checkDepth(_ depth: Int) throws(SyntaxError) {
        guard depth <= dialect.maximumDepth else {
            throw failure("arrays and objects nested more than \(dialect.maximumDepth) levels deep")
        }
    }

    // MARK: Strings

    /// The string starting at the opening quote. Raw bytes are copied as they are (the
    /// whole input was checked to be UTF-8); escapes are decoded, surrogate pairs joined.
    private mutating func parseString() throws(SyntaxError) -> String {
        let start = index
        index += 1  // "
        var text: [UInt8] = []
        while true {
            guard let byte = peek else {
                throw SyntaxError(offset: start, reason: "unterminated string (no closing quote before the end of the file)")
            }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                let scalar = try parseEscape()
                UTF8.encode(scalar) { text.append($0) }
            case 0x00..<0x20:
                throw failure("control character \(found) inside a string (write it as an escape such as \\n or \\u00XX)")
            default:
                text.append(byte)
                index += 1
            }
        }
    }

    /// The escape after a backslash.
    private mutating func parseEscape() throws(SyntaxError) -> Unicode.Scalar {
        guard let byte = peek else { throw failure("unterminated escape at the end of the file") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let escapeStart = index - 2
            let unit = try parseHex4()
            switch unit {
            case 0xD800...0xDBFF:
                let next = index
                if bytes[index...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) {
                    index += 2
                    let low = try parseHex4()
                    if (0xDC00...0xDFFF).contains(low) {
                        return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
                    }
                    guard dialect == .python else {
                        throw SyntaxError(offset: escapeStart, reason: "high surrogate \\u\(hex4(unit, uppercase: true)) followed by \\u\(hex4(low, uppercase: true)), not a low surrogate")
                    }
                } else if dialect != .python {
                    throw SyntaxError(offset: escapeStart, reason: "high surrogate \\u\(hex4(unit, uppercase: true)) not followed by a low surrogate")
                }
                // python: the high surrogate stands alone; what follows it is read on its own.
                index = next
                return Self.unpairedSurrogate
            case 0xDC00...0xDFFF:
                guard dialect == .python else {
                    throw SyntaxError(offset: escapeStart, reason: "low surrogate \\u\(hex4(unit, uppercase: true)) without a high surrogate before it")
                }
                return Self.unpairedSurrogate
            default:
                return Unicode.Scalar(unit)!
            }
        default:
            index -= 1
            throw failure("unknown escape '\\\(Character(Unicode.Scalar(byte)))' (JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
        }
    }

    /// What the `python` dialect reads for an unpaired surrogate, which Python keeps and a
    /// Swift string cannot hold (`JSONDialect.python`).
    package static let unpairedSurrogate: Unicode.Scalar = "\u{FFFD}"

    private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek, let digit = hexDigitValue(byte) else {
                throw failure("expected four hex digits after \\u, found \(found)")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }


    // MARK: Numbers and literals

    /// Python refuses to convert an integer literal longer than this
    /// (`sys.int_info.default_max_str_digits`), so `json.loads` refuses the document.
    package static let pythonIntegerDigitLimit = 4300

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, returned as written.
    private mutating func parseNumber() throws(SyntaxError) -> String {
        let start = index
        if peek == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        if peek == UInt8(ascii: "0") {
            index += 1
            if let next = peek, isDigit(next) { throw failure("a number must not start with 0 followed by digits") }
        } else {
            try digits(after: "'-'")
        }
        if dialect == .python, index - integerStart > JSONParser.pythonIntegerDigitLimit,
           peek != UInt8(ascii: "."), peek != UInt8(ascii: "e"), peek != UInt8(ascii: "E") {
            throw SyntaxError(offset: start, reason: "an integer of \(index - integerStart) digits, more than the "
                                  + "\(JSONParser.pythonIntegerDigitLimit) Python converts")
        }
        if peek == UInt8(ascii: ".") {
            index += 1
            try digits(after: "the decimal point")
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            try digits(after: "the exponent")
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func digits(after what: String) throws(SyntaxError) {
        guard let first = peek, isDigit(first) else { throw failure("expected a digit after \(what), found \(found)") }
        while let next = peek, isDigit(next) { index += 1 }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(SyntaxError) {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        guard bytes[index...].starts(with: expected) else {
            throw failure("expected a JSON value, found \(found) (literals are true, false and null, in lowercase)")
        }
        index += expected.count
    }

    // MARK: Cursor

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private func failure(_ reason: String) -> SyntaxError {
        SyntaxError(offset: index, reason: reason)
    }

    /// What stands at the cursor, for messages: `'x'`, `the end of the file`, `byte 0x07`.
    private var found: String {
        guard let byte = peek else { return "the end of the file" }
        switch byte {
        case UInt8(ascii: "'"): return "\"'\""
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        case 0x00..<0x80: return "byte 0x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        default:
            let character = String(decoding: bytes[index..<min(index + 4, bytes.count)], as: UTF8.self).first!
            return "'\(character)'"
        }
    }

    private func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private func hexDigitValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// The offset of the first byte from `start` on that does not start a well-formed
    /// UTF-8 sequence (overlong forms, surrogates and values above U+10FFFF included), or nil.
    package static func firstInvalidUTF8(_ bytes: [UInt8], from start: Int = 0) -> Int? {
        var offset = start
        while offset < bytes.count {
            let lead = bytes[offset]
            if lead < 0x80 {
                offset += 1
                continue
            }
            let length: Int
            var scalar: UInt32
            let minimum: UInt32
            switch lead {
            case 0xC2...0xDF: (length, scalar, minimum) = (2, UInt32(lead & 0x1F), 0x80)
            case 0xE0...0xEF: (length, scalar, minimum) = (3, UInt32(lead & 0x0F), 0x800)
            case 0xF0...0xF4: (length, scalar, minimum) = (4, UInt32(lead & 0x07), 0x10000)
            default: return offset
            }
            guard bytes.count - offset >= length else { return offset }
            for continuation in bytes[(offset + 1)..<(offset + length)] {
                guard continuation & 0xC0 == 0x80 else { return offset }
                scalar = scalar << 6 | UInt32(continuation & 0x3F)
            }
            guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { return offset }
            offset += length
        }
        return nil
    }
}
