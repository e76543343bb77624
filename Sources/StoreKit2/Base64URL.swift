/// base64url without padding (RFC 7515 §2, RFC 4648 §5): how every JWS part is written.
/// Decoding is strict: only the URL-safe alphabet, no whitespace, a length that is not
/// 1 mod 4, and zero bits where a final partial group leaves some over (so each byte
/// string has exactly one unpadded encoding). `=` padding is refused unless the caller
/// reads as PyJWT does (`Padding.pyJWT`).
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static let values: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = Int8(index) }
        return table
    }()

    /// The unpadded base64url text of `bytes`.
    public static func encode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        let input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity((input.count * 4 + 2) / 3)
        var index = 0
        while index < input.count {
            let remaining = input.count - index
            let b0 = UInt32(input[index])
            let b1 = remaining > 1 ? UInt32(input[index + 1]) : 0
            let b2 = remaining > 2 ? UInt32(input[index + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            output.append(alphabet[Int(group >> 18 & 63)])
            output.append(alphabet[Int(group >> 12 & 63)])
            if remaining > 1 { output.append(alphabet[Int(group >> 6 & 63)]) }
            if remaining > 2 { output.append(alphabet[Int(group & 63)]) }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Why a string is not base64url; `offset` counts UTF-8 bytes into it.
    public struct DecodingError: Error, Equatable, Sendable, CustomStringConvertible {
        /// Where the problem is, in UTF-8 bytes from the start.
        public let offset: Int
        /// What is wrong, in words.
        public let reason: String
        /// `reason at byte offset`.
        public var description: String { "\(reason) at byte \(offset)" }
    }

    /// Whether trailing `=` may end a part.
    public enum Padding: Sendable {
        /// RFC 7515 §2: none.
        case forbidden
        /// As PyJWT 2.15 decodes a JWS segment (`PyJWS._decode_base64url_segment`, the
        /// decoder under Apple's Python library): one or two trailing `=` when the whole
        /// part, padding included, is a multiple of 4 long; the rest as `forbidden`.
        case pyJWT
    }

    /// The bytes `text` encodes, under the strict rules above and the given padding rule.
    public static func decode<Text: StringProtocol>(_ text: Text, padding: Padding = .forbidden) throws(DecodingError) -> [UInt8] {
        // One copy of contiguous UTF-8 (a String or Substring), not byte by byte.
        var input = text.utf8.withContiguousStorageIfAvailable { Array($0) } ?? Array(text.utf8)
        if padding == .pyJWT, input.last == UInt8(ascii: "=") {
            let length = input.count
            let unpadded = input.lastIndex(where: { $0 != UInt8(ascii: "=") }).map { $0 + 1 } ?? 0
            guard length - unpadded <= 2 else {
                throw DecodingError(offset: unpadded + 2, reason: "more than two '=' padding characters")
            }
            guard length % 4 == 0 else {
                throw DecodingError(offset: unpadded, reason: "padded, but the length \(length) is not a multiple of 4")
            }
            input.removeLast(length - unpadded)
        }
        if input.count % 4 == 1 {
            throw DecodingError(offset: input.count, reason: "length \(input.count) is 1 more than a multiple of 4")
        }
        var output: [UInt8] = []
        output.reserveCapacity(input.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for (offset, character) in input.enumerated() {
            let value = values[Int(character)]
            guard value >= 0 else {
                let shown = character >= 0x21 && character < 0x7F ? "'\(Character(Unicode.Scalar(character)))'" : "byte 0x" + String(character, radix: 16)
                throw DecodingError(offset: offset, reason: "\(shown) is not in the base64url alphabet")
            }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        guard accumulator == 0 else {
            throw DecodingError(offset: input.count - 1, reason: "the last character leaves non-zero padding bits")
        }
        return output
    }
}
