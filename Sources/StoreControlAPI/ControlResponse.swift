/// What the handler answers, for any HTTP layer to send as it is.
public struct ControlResponse: Sendable, Hashable {
    public var status: Int
    /// Every response has `Content-Type: application/json`; a 405 adds `Allow`, the
    /// state adds `Link` to its schema.
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String] = [:], body: [UInt8]) {
        self.status = status
        self.headers = headers.merging(["Content-Type": "application/json"]) { own, _ in own }
        self.body = body
    }
}
