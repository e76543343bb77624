import Foundation

/// The one JSON encoding and decoding of StoreKit 2 values: keys sorted and slashes
/// unescaped, so minted JWS parts are byte-for-byte deterministic.
public enum StoreKit2JSON {
    public static func encode<Value: Encodable>(_ value: Value) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every value here is plain Codable data: encoding cannot fail.
        return Array(try! encoder.encode(value))
    }

    /// Decodes `bytes` as `Value`; a failure is a `JWSError(.invalidJSON)` at `location`
    /// naming the JSON path of the offending field.
    public static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8], at location: String) throws(JWSError) -> Value {
        guard let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), first == UInt8(ascii: "{") else {
            throw JWSError(.invalidJSON, at: location, "is not a JSON object")
        }
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch let DecodingError.typeMismatch(_, context) {
            throw JWSError(.invalidJSON, at: location + path(context), "wrong type: \(context.debugDescription)")
        } catch let DecodingError.valueNotFound(_, context) {
            throw JWSError(.invalidJSON, at: location + path(context), "null where a value is needed")
        } catch let DecodingError.keyNotFound(key, context) {
            throw JWSError(.invalidJSON, at: location + path(context), "missing \(key.stringValue)")
        } catch {
            throw JWSError(.invalidJSON, at: location, "is not valid JSON")
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
    }
}
