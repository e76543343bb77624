/// A JSON answer as verifyReceipt writes it: members in a fixed order, integers exact
/// (64-bit ids stay numbers where Apple sends numbers), strings escaped per RFC 8259.
package indirect enum ResponseJSON: Sendable, Hashable {
    case string(String)
    case int(Int64)
    case bool(Bool)
    case array([ResponseJSON])
    case object([Member])

    package struct Member: Sendable, Hashable {
        package let key: String
        package let value: ResponseJSON
    }

    /// An object from (key, value) pairs, in order.
    static func object(_ members: [(String, ResponseJSON)]) -> ResponseJSON {
        .object(members.map { Member(key: $0.0, value: $0.1) })
    }

    /// The member named `key` of an object, or nil.
    package subscript(key: String) -> ResponseJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// Compact UTF-8 JSON text.
    package var bytes: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(4096)
        write(to: &output)
        return output
    }

    func write(to output: inout [UInt8]) {
        switch self {
        case .string(let text):
            Self.write(string: text, to: &output)
        case .int(let value):
            output += String(value).utf8
        case .bool(let value):
            output += (value ? "true" : "false").utf8
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.write(string: member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                member.value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func write(string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): output += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: output += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: output += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: output += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20:
                output += Array("\\u00".utf8) + [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
