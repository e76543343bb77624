import Foundation
import StrictJSON

/// The one JSON encoding and decoding of StoreKit 2 values: keys sorted and slashes
/// unescaped, so minted JWS parts are byte-for-byte deterministic; read in the
/// `python` dialect of the strict parser, so that every header and payload Apple's
/// Python library decodes is decoded here too, and the same way (`JSONDialect.python`:
/// a repeated name takes its last value, `NaN` is a number, UTF-16 is read …).
public enum StoreKit2JSON {
    /// `value` as JSON with sorted keys and unescaped slashes: the same value always gives the same bytes.
    public static func encode<Value: Encodable>(_ value: Value) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every value here is plain Codable data: encoding cannot fail.
        return Array(try! encoder.encode(value))
    }

    /// The JSON object in `bytes` (a JWS header or payload) as Python's `json.loads`
    /// reads it; anything else is a `JWSError(.invalidJSON)` at `location`, as PyJWT
    /// refuses a header or payload that is not an object.
    package static func object(_ bytes: [UInt8], at location: String) throws(JWSError) -> JSONInput {
        let input: JSONInput
        do throws(JSONInputError) {
            input = try JSONInput.parse(bytes, file: location, dialect: .python)
        } catch {
            throw JWSError(.invalidJSON, at: location, "is not JSON: \(error.reason)")
        }
        guard case .object = input.value else {
            throw JWSError(.invalidJSON, at: location, "is not a JSON object but \(input.value.kindDescription)")
        }
        return input
    }

    /// Decodes `bytes` as `Value`; a failure is a `JWSError(.invalidJSON)` at `location`
    /// followed by the JSON path of the offending field (`payload.data.bundleId`).
    public static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8], at location: String) throws(JWSError) -> Value {
        try decode(type, from: object(bytes, at: location))
    }

    /// Decodes an object `object(_:at:)` returned; errors name its location and the JSON path.
    package static func decode<Value: Decodable>(_ type: Value.Type, from object: JSONInput) throws(JWSError) -> Value {
        do throws(JSONInputError) {
            return try object.decode(type)
        } catch {
            // "$.data.bundleId" below "payload" is "payload.data.bundleId".
            throw JWSError(.invalidJSON, at: object.file + error.location.dropFirst(), error.reason)
        }
    }
}
