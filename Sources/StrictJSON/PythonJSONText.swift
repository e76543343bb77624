/// The text Python's `json.loads` reads from bytes, as UTF-8 for the parser:
/// `bytes.decode(json.detect_encoding(b), "surrogatepass")` (`JSONDialect.python`).
/// Every surrogate the decoding lets through unpaired becomes U+FFFD; a byte order
/// mark the codec consumes (`utf-8-sig`, `utf-16`, `utf-32`) is dropped, as Python drops it.
enum PythonJSONText {
    enum Encoding: Equatable {
        case utf8, utf8WithSignature
        case utf16(bigEndian: Bool, byteOrderMark: Bool)
        case utf32(bigEndian: Bool, byteOrderMark: Bool)
    }

    /// `json.detect_encoding`: a byte order mark, else the zero bytes among the first four.
    static func detectEncoding(_ bytes: [UInt8]) -> Encoding {
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return .utf32(bigEndian: true, byteOrderMark: true) }
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return .utf32(bigEndian: false, byteOrderMark: true) }
        if bytes.starts(with: [0xFE, 0xFF]) { return .utf16(bigEndian: true, byteOrderMark: true) }
        if bytes.starts(with: [0xFF, 0xFE]) { return .utf16(bigEndian: false, byteOrderMark: true) }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return .utf8WithSignature }
        if bytes.count >= 4 {
            if bytes[0] == 0 { return bytes[1] != 0 ? .utf16(bigEndian: true, byteOrderMark: false) : .utf32(bigEndian: true, byteOrderMark: false) }
            if bytes[1] == 0 {
                return bytes[2] != 0 || bytes[3] != 0 ? .utf16(bigEndian: false, byteOrderMark: false)
                    : .utf32(bigEndian: false, byteOrderMark: false)
            }
        } else if bytes.count == 2 {
            if bytes[0] == 0 { return .utf16(bigEndian: true, byteOrderMark: false) }
            if bytes[1] == 0 { return .utf16(bigEndian: false, byteOrderMark: false) }
        }
        return .utf8
    }

    /// `bytes` decoded as Python decodes them and encoded as UTF-8; an error's offset
    /// counts bytes of `bytes`.
    static func utf8(_ bytes: [UInt8]) throws(JSONParser.SyntaxError) -> [UInt8] {
        switch detectEncoding(bytes) {
        case .utf8: return try utf8PassingSurrogates(bytes, from: 0)
        case .utf8WithSignature: return try utf8PassingSurrogates(bytes, from: 3)
        case .utf16(let bigEndian, let byteOrderMark): return try utf16(bytes, bigEndian: bigEndian, from: byteOrderMark ? 2 : 0)
        case .utf32(let bigEndian, let byteOrderMark): return try utf32(bytes, bigEndian: bigEndian, from: byteOrderMark ? 4 : 0)
        }
    }

    /// UTF-8 as Python's `surrogatepass` reads it: well-formed, except that a surrogate's
    /// three-byte form (ED A0 80 … ED BF BF) is read (here as U+FFFD, also three bytes).
    private static func utf8PassingSurrogates(_ bytes: [UInt8], from start: Int) throws(JSONParser.SyntaxError) -> [UInt8] {
        var text = Array(bytes[start...])
        var offset = 0
        while let invalid = JSONParser.firstInvalidUTF8(text, from: offset) {
            guard text.count - invalid >= 3, text[invalid] == 0xED, (0xA0...0xBF).contains(text[invalid + 1]),
                  text[invalid + 2] & 0xC0 == 0x80 else {
                throw JSONParser.SyntaxError(offset: start + invalid, reason: "invalid UTF-8")
            }
            text.replaceSubrange(invalid..<(invalid + 3), with: replacement)
            offset = invalid + 3
        }
        return text
    }

    private static func utf16(_ bytes: [UInt8], bigEndian: Bool, from start: Int) throws(JSONParser.SyntaxError) -> [UInt8] {
        guard (bytes.count - start) % 2 == 0 else {
            throw JSONParser.SyntaxError(offset: bytes.count - 1, reason: "invalid UTF-16: an odd number of bytes")
        }
        func unit(_ offset: Int) -> UInt32 {
            let (high, low) = bigEndian ? (bytes[offset], bytes[offset + 1]) : (bytes[offset + 1], bytes[offset])
            return UInt32(high) << 8 | UInt32(low)
        }
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count)
        var offset = start
        while offset < bytes.count {
            let first = unit(offset)
            offset += 2
            if (0xD800...0xDBFF).contains(first), offset < bytes.count, (0xDC00...0xDFFF).contains(unit(offset)) {
                append(0x10000 + ((first - 0xD800) << 10) + (unit(offset) - 0xDC00), to: &text)
                offset += 2
            } else {
                append(first, to: &text)
            }
        }
        return text
    }

    private static func utf32(_ bytes: [UInt8], bigEndian: Bool, from start: Int) throws(JSONParser.SyntaxError) -> [UInt8] {
        guard (bytes.count - start) % 4 == 0 else {
            throw JSONParser.SyntaxError(offset: bytes.count - (bytes.count - start) % 4,
                                         reason: "invalid UTF-32: the length is not a multiple of 4 bytes")
        }
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count / 2)
        for offset in stride(from: start, to: bytes.count, by: 4) {
            let group = bytes[offset..<(offset + 4)]
            let mostSignificantFirst = bigEndian ? Array(group) : group.reversed()
            let value = mostSignificantFirst.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            guard value <= 0x10FFFF else {
                throw JSONParser.SyntaxError(offset: offset, reason: "invalid UTF-32: code point 0x\(String(value, radix: 16, uppercase: true)) is above U+10FFFF")
            }
            append(value, to: &text)
        }
        return text
    }

    /// `JSONParser.unpairedSurrogate` (U+FFFD) in UTF-8.
    private static let replacement = Array(String(JSONParser.unpairedSurrogate).utf8)

    /// `value` (at most 0x10FFFF) as UTF-8, a surrogate as U+FFFD.
    private static func append(_ value: UInt32, to text: inout [UInt8]) {
        let scalar = Unicode.Scalar(value) ?? JSONParser.unpairedSurrogate
        UTF8.encode(scalar) { text.append($0) }
    }
}
