import Foundation
import StrictJSON

/// JSON as the tests read and write it: parsed by the product's strict parser
/// (`StrictJSON`), never a second one, and looked at through `JSONValue`'s typed
/// accessors (`value["receipt"]?["bundle_id"]?.stringValue`) or decoded into a
/// `Decodable` type by `JSONInput.decode`. Written back with `JSONEncoder`.
extension JSONValue {
    /// The document `text` holds.
    package init(json text: String) throws {
        self = try JSONParser.parse(Array(text.utf8))
    }

    /// The document `data` holds.
    package init(json data: Data) throws {
        self = try JSONParser.parse(Array(data))
    }

    /// The document in the file at `url`.
    package init(contentsOf url: URL) throws {
        self = try JSONParser.parse(Array(try Data(contentsOf: url)))
    }

    /// This value as compact JSON, keys sorted.
    package var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every value the parser returns is finite in the default dialect, so it encodes.
        return String(decoding: try! encoder.encode(self), as: UTF8.self)
    }
}

/// `bytes` (a file's or a process's output) decoded as `T` by the strict path; errors
/// name the JSONPath (`test input: $.cases[3].expected: …`).
package func decodeJSON<T: Decodable>(_ type: T.Type, from bytes: some Sequence<UInt8>) throws -> T {
    try JSONInput.parse(Array(bytes), file: "test input").decode(type)
}

extension JSONValue {
    /// An array of strings; nil for any other value, or an array holding something else.
    package var strings: [String]? {
        guard let elements = arrayValue else { return nil }
        let strings = elements.compactMap(\.stringValue)
        return strings.count == elements.count ? strings : nil
    }
}
