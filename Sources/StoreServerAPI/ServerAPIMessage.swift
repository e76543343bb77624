import Foundation
import StoreAPIAuthentication

/// One App Store Server API request as any transport hands it over: the method, the
/// path as received (percent-encoded, `/inApps/…` or `/sandbox/inApps/…`), the query
/// items in order (a name may repeat: `productId=a&productId=b`), the `Authorization`
/// header and the body.
public struct ServerAPIRequest: Sendable, Hashable {
    public var method: String
    public var path: String
    public var query: [QueryItem]
    public var authorization: String?
    public var body: [UInt8]

    public struct QueryItem: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public init(method: String, path: String, query: [QueryItem] = [], authorization: String? = nil, body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.authorization = authorization
        self.body = body
    }

    /// The items of a raw query string (`a=1&b=x%20y`): percent-decoded, `+` as a space
    /// (HTML forms, and Python's `requests`, write spaces so); an item without `=` has
    /// an empty value.
    public static func queryItems(_ query: String) -> [QueryItem] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return QueryItem(decoded(parts[0]), parts.count > 1 ? decoded(parts[1]) : "")
        }
    }

    /// The values of every item named `name`, in order.
    public func values(_ name: String) -> [String] { query.filter { $0.name == name }.map(\.value) }
}

/// The answer: an HTTP status, the headers Apple sends with it, the body.
public struct ServerAPIResponse: Sendable, Hashable {
    public var status: Int
    /// In order; `Content-Type` among them when there is a body.
    public var headers: [Header]
    public var body: [UInt8]
    /// For the server's log line, never sent: what was refused and why.
    public var logDetail: String?

    public struct Header: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public init(status: Int, headers: [Header] = [], body: [UInt8] = [], logDetail: String? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.logDetail = logDetail
    }

    /// The value of the first header named `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// `Content-Type: application/json` exactly: Apple's Python client reads an error's
    /// code only when the header is exactly that (no `charset`).
    public static let jsonContentType = "application/json"

    static func json(_ status: Int, _ body: [UInt8]) -> ServerAPIResponse {
        ServerAPIResponse(status: status, headers: [Header("Content-Type", jsonContentType)], body: body)
    }

    /// Apple's error answer: the code's HTTP status, `{"errorCode","errorMessage"}`, and
    /// for 4290000 `Retry-After` = `retryAt`, the UNIX time in milliseconds when a request
    /// will be accepted again (Apple's unit; go-iap reads seconds, wrongly).
    public static func error(_ error: StoreAPIError, retryAt: Int64? = nil, logDetail: String? = nil) -> ServerAPIResponse {
        var response = json(error.httpStatus, error.body)
        if let retryAt { response.headers.append(Header("Retry-After", String(retryAt))) }
        response.logDetail = logDetail
        return response
    }

    static func text(_ status: Int, _ text: String, headers: [Header] = []) -> ServerAPIResponse {
        ServerAPIResponse(status: status, headers: [Header("Content-Type", "text/plain")] + headers, body: Array(text.utf8))
    }
}
