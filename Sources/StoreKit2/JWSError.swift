/// Why a string is not a compact JWS or its parts do not decode: what and where.
public struct JWSError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, as a stable code.
    public enum Code: String, Sendable {
        /// Not three parts separated by two dots.
        case notCompact
        /// A part is not base64url.
        case invalidBase64URL
        /// The header or payload is not a JSON object, or a field has the wrong type.
        case invalidJSON
    }

    /// What is wrong.
    public let code: Code
    /// Which part or field: `header`, `payload`, `signature`, `header.x5c[1]` …
    public let location: String
    /// What was found, in words.
    public let detail: String

    /// An error with its code, location and detail.
    public init(_ code: Code, at location: String, _ detail: String) {
        self.code = code
        self.location = location
        self.detail = detail
    }

    /// Equal when code and location are equal; the wording is not compared.
    public static func == (lhs: JWSError, rhs: JWSError) -> Bool { lhs.code == rhs.code && lhs.location == rhs.location }

    /// `location: detail`.
    public var description: String { "\(location): \(detail)" }
}
