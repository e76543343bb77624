import StrictJSON

// What the request types share: members that may be absent but not null (the schema
// says the same), and closed sets of values refused with the list of the allowed ones.

extension KeyedDecodingContainer {
    /// The member, or nil when absent; `null` is refused as the wrong type.
    func optional<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        contains(key) ? try decode(type, forKey: key) : nil
    }

    /// One of `Value`'s raw values, by name: "expected one of now, atNextRenewal, found 'later'".
    func choice<Value: RawRepresentable & CaseIterable>(_ type: Value.Type, forKey key: Key) throws -> Value
        where Value.RawValue: Decodable & CustomStringConvertible {
        let raw = try decode(Value.RawValue.self, forKey: key)
        guard let value = Value(rawValue: raw) else {
            let allowed = Value.allCases.map { "\($0.rawValue)" }.joined(separator: ", ")
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath + [key],
                                                    debugDescription: "expected one of \(allowed), found \(raw)"))
        }
        return value
    }

    func optionalChoice<Value: RawRepresentable & CaseIterable>(_ type: Value.Type, forKey key: Key) throws -> Value?
        where Value.RawValue: Decodable & CustomStringConvertible {
        contains(key) ? try choice(type, forKey: key) : nil
    }
}
