/// A value written back through any `Encoder` (with `JSONEncoder`: the forge's one JSON
/// writer). Objects keep their member order unless the encoder sorts keys; a name
/// repeated in an object is written once, with its last value. Numbers keep their value:
/// an integer written without fraction or exponent as `Int64` or `UInt64` when it
/// fits, any other number as the nearest `Double` (`NaN` and `Infinity`, read in the
/// `python` dialect, are non-finite doubles: the encoder's strategy decides how to
/// write them).
extension JSONValue: Encodable {
    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case .string(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .number(let text):
            var container = encoder.singleValueContainer()
            if let integer = Int64(text) {
                try container.encode(integer)
            } else if let integer = UInt64(text) {
                try container.encode(integer)
            } else {
                // Every number the parser returns reads as a Double; a hand-made one must too.
                guard let number = Double(text) else { preconditionFailure("'\(text)' is not a JSON number") }
                try container.encode(number)
            }
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let members):
            var container = encoder.container(keyedBy: JSONKey.self)
            for member in members { try container.encode(member.value, forKey: JSONKey(member.key)) }
        }
    }
}
