import APIMessage
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

extension APIResponse {
    /// Apple's error answer: the code's HTTP status, `{"errorCode","errorMessage"}`, and
    /// for 4290000 `Retry-After` = `retryAt`, the UNIX time in milliseconds when a request
    /// will be accepted again (Apple's unit; go-iap reads seconds, wrongly).
    public static func error(_ error: StoreAPIError, retryAt: Int64? = nil, logDetail: String? = nil) -> APIResponse {
        json(error.httpStatus, error.body, headers: retryAt.map { [Header("Retry-After", String($0))] } ?? [], logDetail: logDetail)
    }
}
