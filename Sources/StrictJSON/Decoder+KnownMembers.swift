extension Decoder {
    /// Refuses any member of this object that `Keys` does not name, for `Decodable`
    /// types that are strict about their members (request bodies), as
    /// `JSONInput.object(knownKeys:)` is for formats read by hand. Call it first in
    /// `init(from:)`; the refusal is a `DecodingError` at the unknown member's path,
    /// which `JSONInput.decode` reports as `$.offer.kind: unknown field 'kind' (did you
    /// mean 'type'? known fields: …)`.
    package func refuseUnknownMembers<Keys: CodingKey & CaseIterable>(_ keys: Keys.Type) throws {
        let known = Set(Keys.allCases.map(\.stringValue))
        let members = try container(keyedBy: JSONKey.self)
        if let unknown = members.allKeys.first(where: { !known.contains($0.stringValue) }) {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath + [unknown],
                                                    debugDescription: JSONObject.unknownFieldReason(unknown.stringValue, knownKeys: known)))
        }
    }
}
