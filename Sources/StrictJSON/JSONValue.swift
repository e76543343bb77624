/// A parsed JSON value (RFC 8259). Objects keep their members in document order,
/// duplicates included, so the reader can refuse a repeated key by name; numbers keep
/// their text, so a 64-bit integer is read exactly rather than through a `Double`.
package indirect enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// The number as written (`-12`, `3.5e2`), already checked against the grammar.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    /// How an error names what it found instead: "a string", "null" …
    package var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

package struct JSONMember: Sendable, Hashable {
    package let key: String
    package let value: JSONValue

    package init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}

/// Where a value sits in a document, written as a JSONPath (RFC 9535):
/// `$`, `$.products[1].type`, `$['odd key']`.
package struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    package enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    package let components: [Component]

    package static let root = JSONPath(components: [])

    package func appending(key: String) -> JSONPath { JSONPath(components: components + [.key(key)]) }
    package func appending(index: Int) -> JSONPath { JSONPath(components: components + [.index(index)]) }

    package var description: String {
        var text = "$"
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key) where JSONPath.isShorthandName(key):
                text += "." + key
            case .key(let key):
                let escaped = key.unicodeScalars.map { scalar -> String in
                    switch scalar {
                    case "'": return "\\'"
                    case "\\": return "\\\\"
                    case _ where scalar.value < 0x20: return "\\u" + hex4(scalar.value)
                    default: return String(scalar)
                    }
                }.joined()
                text += "['\(escaped)']"
            }
        }
        return text
    }

    /// Names written `.name`: ASCII letters, digits and `_`, not starting with a digit
    /// (RFC 9535 allows more, but these read unambiguously everywhere). `$schema` is
    /// written `['$schema']`.
    private static func isShorthandName(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return key.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"): return true
            default: return false
            }
        }
    }
}

/// At least four hex digits of `value`, zero-padded: a `\u` escape or a `U+` code point.
package func hex4(_ value: UInt32, uppercase: Bool = false) -> String {
    let digits = String(value, radix: 16, uppercase: uppercase)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
