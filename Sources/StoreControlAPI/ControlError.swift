import APIMessage
import LocalAppStore
import StoreKit2
import StrictJSON

/// A refused control request, sent as `{"error": {"code", "field", "message"}}`: the
/// code (the control API's own, or the store's `StoreError.Code`), the field at fault
/// and a sentence. `field` is a JSONPath into the body for a body that does not decode
/// (`$.offer.id`), the store's field name for a refusal by the store (`productId`), and
/// `path` or `method` for a request that names no verb or the wrong method.
public struct ControlError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: Sendable, Hashable {
        /// The body is not JSON (RFC 8259).
        case malformedJSON
        /// JSON, but not the verb's request: a wrong type, a missing or unknown member.
        case invalidRequest
        /// The path is under the control API but names no verb (404; `verbs` lists them).
        case unknownVerb
        /// The path is not under `/forge/v1/` or `/sandbox/forge/v1/` (404).
        case notFound
        /// The handler has no store for the path's environment (404).
        case environmentNotServed
        /// The verb exists but not with this method (405, with `Allow`).
        case methodNotAllowed
        /// The store refused the action; nothing changed.
        case store(StoreError.Code)

        public var name: String {
            switch self {
            case .malformedJSON: return "malformedJSON"
            case .invalidRequest: return "invalidRequest"
            case .unknownVerb: return "unknownVerb"
            case .notFound: return "notFound"
            case .environmentNotServed: return "environmentNotServed"
            case .methodNotAllowed: return "methodNotAllowed"
            case .store(let code): return code.rawValue
            }
        }

        /// Every code's name, the control API's own first (the schema enumerates these).
        public static var allNames: [String] {
            [Code.malformedJSON, .invalidRequest, .unknownVerb, .notFound, .environmentNotServed, .methodNotAllowed].map(\.name)
                + StoreError.Code.allCases.map(\.rawValue)
        }

        public var status: Int {
            switch self {
            case .unknownVerb, .notFound, .environmentNotServed: return 404
            case .methodNotAllowed: return 405
            case .malformedJSON, .invalidRequest, .store: return 400
            }
        }
    }

    public var code: Code
    public var field: String
    public var message: String

    public init(_ code: Code, field: String, _ message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    init(_ error: StoreError) {
        self.init(.store(error.code), field: error.field, error.reason)
    }

    init(_ error: JSONInputError) {
        self.init(error.kind == .malformedJSON ? .malformedJSON : .invalidRequest, field: error.location, error.reason)
    }

    public var description: String { "\(field): \(message) (\(code.name))" }

    /// The response: the error's status, its JSON body, and `extraHeaders`.
    func response(headers extraHeaders: [APIResponse.Header] = []) -> APIResponse {
        let verbs = code == .unknownVerb ? ControlVerb.allCases.map(\.rawValue) : nil
        let body = Body(error: .init(code: code.name, field: field, message: message, verbs: verbs))
        return .json(code.status, StoreKit2JSON.encode(body), headers: extraHeaders, logDetail: "refused: \(description)")
    }

    private struct Body: Encodable {
        struct Detail: Encodable {
            var code: String
            var field: String
            var message: String
            var verbs: [String]?
        }
        var error: Detail
    }
}
