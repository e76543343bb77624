import APIMessage
import AppInput
import Foundation
import LocalAppStore
import ReceiptForge
import StoreKit2
import StrictJSON

/// The control API with no HTTP in it: a test drives the local App Store through
/// `POST /forge/v1/VERB` (production) or `POST /sandbox/forge/v1/VERB` (sandbox) with a
/// JSON body, and reads it with `GET /forge/v1/state`. Any HTTP layer hands it the
/// method, path and body and sends back what it answers.
///
/// - Success: 200 with the action's `StoreActionResult` (the ids it created and the
///   events it added); the state verb answers `StoreState.stateJSON(_:)` of a snapshot,
///   narrowed by its query (`StateQueryParameters`), with a `Link` to its schema.
/// - Refusal: `{"error": {"code", "field", "message"}}`, 400 for a body that does not
///   decode or an action the store refuses, 404 for a path that names no verb (the
///   error lists them) or an environment with no store, 405 for the wrong method.
///
/// A request is decoded in full before the store is touched, and applied in one
/// `LocalAppStore.write` (`advanceClock`: one move in parts, `LocalAppStore.advanceClock`),
/// in which the store's action validates everything before it changes anything: a
/// refused request leaves the store as it was, and concurrent requests are applied one
/// after another.
///
/// Bodies and answers: `Schemas/store-control.schema.json`.
public struct StoreControlHandler: Sendable {
    /// The store of an environment, or nil when the caller serves none for it.
    public typealias StoreLookup = @Sendable (AppEnvironment) -> LocalAppStore?

    private let stores: StoreLookup

    public init(stores: @escaping StoreLookup) {
        self.stores = stores
    }

    public init(stores: [AppEnvironment: LocalAppStore]) {
        self.init { stores[$0] }
    }

    /// Where the state document's schema is named (`Link: <…>; rel="describedby"`).
    public static let stateSchemaIdentifier = "urn:receipt-forge:schema:store-state"

    /// Answers one request. `path` is the request target: its path, and for the state
    /// verb a query (`StateQueryParameters`; other verbs ignore one); an empty body
    /// counts as `{}`.
    public func respond(method: String, path: String, body: [UInt8]) -> APIResponse {
        guard let route = ControlPath(path) else {
            return ControlError(.notFound, field: "path",
                                "\(path) is not under \(ControlPath.prefixes.production) or \(ControlPath.prefixes.sandbox)").response()
        }
        guard let verb = ControlVerb(rawValue: route.verbName) else {
            return ControlError(.unknownVerb, field: "path",
                                "no verb '\(route.verbName)' (verbs: \(ControlVerb.allCases.map(\.rawValue).joined(separator: ", ")))").response()
        }
        guard method == verb.method else {
            return ControlError(.methodNotAllowed, field: "method", "\(verb.rawValue) takes \(verb.method), not \(method)")
                .response(headers: [.init("Allow", verb.method)])
        }
        guard let store = stores(route.environment) else {
            return ControlError(.environmentNotServed, field: "path", "no \(route.environment.rawValue) store is served here").response()
        }
        do throws(ControlError) {
            if verb == .state {
                _ = try decode(EmptyRequest.self, from: body)
                let query = try StateQueryParameters.parse(path)
                // Encoded from a copy-on-write snapshot, outside the store's lock: a large
                // store takes long to encode, and requests must not wait for it.
                let document: [UInt8]
                do throws(StoreError) {
                    document = try store.snapshot().stateJSON(query)
                } catch {
                    throw ControlError(error)
                }
                return .json(200, document, headers: [.init("Link", "<\(Self.stateSchemaIdentifier)>; rel=\"describedby\"")])
            }
            if verb == .receipt {
                return try receipt(body: body, from: store)
            }
            let result = try perform(verb, body: body, on: store)
            return .json(200, StoreKit2JSON.encode(result))
        } catch {
            return error.response()
        }
    }

    /// Decodes the verb's body, then applies it in one write.
    private func perform(_ verb: ControlVerb, body: [UInt8], on store: LocalAppStore) throws(ControlError) -> StoreActionResult {
        try ControlAction(verb, body: body).perform(on: store)
    }

    /// Mints the customer's receipt at the store's instant (`LocalAppStore.receipt`).
    private func receipt(body: [UInt8], from store: LocalAppStore) throws(ControlError) -> APIResponse {
        let request = try decode(CustomerRequest.self, from: body)
        do throws(StoreError) {
            let minted = try store.receipt(customer: request.customer)
            guard let receipt = minted.receipt else {
                preconditionFailure("the valid case always has a receipt")
            }
            return .json(200, StoreKit2JSON.encode(ReceiptResponse(
                customer: request.customer, creationDate: Int64(minted.creationDate.timeIntervalSince1970) * 1_000,
                receiptData: receipt)))
        } catch {
            throw ControlError(error)
        }
    }

    private func decode<Request: Decodable>(_ type: Request.Type, from body: [UInt8]) throws(ControlError) -> Request {
        try ControlAction.decode(type, from: body)
    }
}
