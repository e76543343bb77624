/// What an API handler answers, for any transport to send as it is: the Server API's
/// (`ServerAPIHandler`) and the control API's (`StoreControlHandler`) alike. An HTTP
/// status, the headers in order, the body, and for the server's log line what was
/// refused and why.
public struct APIResponse: Sendable, Hashable {
    public var status: Int
    /// In order; `Content-Type` among them when there is a body.
    public var headers: [Header]
    public var body: [UInt8]
    /// For the server's log line, never sent: what was refused and why (nil: answered).
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

    /// A JSON body with `Content-Type: application/json`, then `headers`.
    public static func json(_ status: Int, _ body: [UInt8], headers: [Header] = [], logDetail: String? = nil) -> APIResponse {
        APIResponse(status: status, headers: [Header("Content-Type", jsonContentType)] + headers, body: body, logDetail: logDetail)
    }

    /// A plain-text body with `Content-Type: text/plain`, then `headers`.
    public static func text(_ status: Int, _ text: String, headers: [Header] = []) -> APIResponse {
        APIResponse(status: status, headers: [Header("Content-Type", "text/plain")] + headers, body: Array(text.utf8))
    }
}
