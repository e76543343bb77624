/// A `Decoder` over a parsed `JSONValue`, so that `Decodable` types (manifests, case
/// files, check results, StoreKit 2 payloads) are read through the strict parser:
/// integers exactly (a whole number however written, `3` or `3.0`, that the type can
/// hold; 64-bit limits included), `true` never as `1`, a member repeated in an object
/// refused by name. Members the type does not ask for are ignored unless the type
/// checks `allKeys` itself: which members are allowed is the type's decision.
///
/// Errors are `DecodingError`s whose coding path ends at the offending value;
/// `JSONInput.decode` turns them into a `JSONInputError` naming its JSONPath
/// (`$.cases[3].expected: expected a string, found null`).
struct JSONValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let dialect: JSONDialect

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch(expected: "an object", KeyedDecodingContainer<Key>.self) }
        var values: [String: JSONValue] = [:]
        for member in members where values.updateValue(member.value, forKey: member.key) != nil {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath + [JSONKey(member.key)],
                                                    debugDescription: "the field '\(member.key)' appears twice in this object"))
        }
        return KeyedDecodingContainer(KeyedContainer(decoder: self, values: values, names: members.map(\.key)))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch(expected: "an array", [JSONValue].self) }
        return UnkeyedContainer(decoder: self, elements: elements)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// The decoder of `child`, found at `key` below this value.
    func child(_ child: JSONValue, at key: any CodingKey) -> JSONValueDecoder {
        JSONValueDecoder(value: child, codingPath: codingPath + [key], dialect: dialect)
    }

    /// `expected` (a string, an object …) was needed and this value is something else:
    /// `valueNotFound` for null, as `Optional` and `decodeIfPresent` expect, else `typeMismatch`.
    func mismatch(expected: String, _ type: Any.Type) -> DecodingError {
        let context = DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.kindDescription)")
        return value == .null ? .valueNotFound(type, context) : .typeMismatch(type, context)
    }

    /// The JSONPath of `codingPath` below `base`: `JSONKey` indices as `[n]`, every other key by name.
    static func path(_ codingPath: [any CodingKey], below base: JSONPath) -> JSONPath {
        codingPath.reduce(base) { path, key in
            if let key = key as? JSONKey, let index = key.index { return path.appending(index: index) }
            return path.appending(key: key.stringValue)
        }
    }
}

/// A member name, or an array index (`index`), in a coding path this decoder builds.
struct JSONKey: CodingKey {
    let stringValue: String
    let index: Int?

    init(_ name: String) {
        stringValue = name
        index = nil
    }

    init(index: Int) {
        stringValue = "Index \(index)"
        self.index = index
    }

    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(index: intValue) }
    var intValue: Int? { index }
}

// MARK: Single values

extension JSONValueDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(expected: "true or false", type) }
        return flag
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let text) = value else { throw mismatch(expected: "a string", type) }
        return text
    }

    func decode(_ type: Double.Type) throws -> Double { try floatingPoint(type) }
    func decode(_ type: Float.Type) throws -> Float { try floatingPoint(type) }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }

    /// A whole number `T` holds, read exactly from the number's text.
    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let expected = "an integer from \(T.min) to \(T.max)"
        guard case .number(let text) = value else { throw mismatch(expected: expected, type) }
        switch JSONInput.integer(number: text, in: T.min...T.max, expected: expected) {
        case .success(let integer): return integer
        case .failure(let refusal): throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: refusal.reason))
        }
    }

    /// The nearest `T` to the number. RFC 8259 numbers too large for `T` are refused;
    /// in the `python` dialect they are infinite, and `NaN` and `Infinity` are read, as Python reads them.
    private func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type) throws -> T {
        guard case .number(let text) = value else { throw mismatch(expected: "a number", type) }
        guard let number = T(text), number.isFinite || dialect == .python else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "\(text) is too large for a \(T.self)"))
        }
        return number
    }
}

// MARK: Objects

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: JSONValueDecoder
    let values: [String: JSONValue]
    /// The member names in document order.
    let names: [String]

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { names.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { values[key.stringValue] != nil }

    private func member(_ key: Key) throws -> JSONValueDecoder {
        guard let value = values[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "required field '\(key.stringValue)' is missing"))
        }
        return decoder.child(value, at: key)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try member(key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try member(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try member(key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try member(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try member(key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try member(key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try member(key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try member(key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try member(key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try member(key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try member(key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try member(key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try member(key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try member(key).decode(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try member(key).decode(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey> {
        try member(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try member(key).unkeyedContainer()
    }

    /// The member `super`, or null when there is none (as `JSONDecoder` does).
    func superDecoder() throws -> any Decoder {
        decoder.child(values["super"] ?? .null, at: JSONKey("super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.child(values[key.stringValue] ?? .null, at: key)
    }
}

// MARK: Arrays

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: JSONValueDecoder
    let elements: [JSONValue]
    private(set) var currentIndex = 0

    init(decoder: JSONValueDecoder, elements: [JSONValue]) {
        self.decoder = decoder
        self.elements = elements
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The decoder of the current element; the index moves on only once it has decoded.
    private func current(_ type: Any.Type) throws -> JSONValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(
                codingPath: codingPath + [JSONKey(index: currentIndex)],
                debugDescription: "expected another element, the array has only \(elements.count)"))
        }
        return decoder.child(elements[currentIndex], at: JSONKey(index: currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard try current(Never.self).decodeNil() else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try element(type) }

    /// The current element as a `T` (through `T(from:)`, which reads primitives from the
    /// single-value container).
    private mutating func element<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try T(from: current(type))
        currentIndex += 1
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try element(type) }
    mutating func decode(_ type: String.Type) throws -> String { try element(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try element(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try element(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try element(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try element(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try element(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try element(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try element(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try element(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try element(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try element(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try element(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try element(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try current(type).container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try current([JSONValue].self).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = try current(JSONValue.self)
        currentIndex += 1
        return decoder
    }
}
