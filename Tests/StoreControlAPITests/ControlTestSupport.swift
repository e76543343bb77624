import APIMessage
import AppInput
import Foundation
import LocalAppStore
import StoreControlAPI
import StrictJSON
import TestSupport
import XCTest

let monthly = "com.example.receiptforge.subscription.monthly"
let yearly = "com.example.receiptforge.subscription.yearly"
let weekly = "com.example.receiptforge.subscription.weekly"
let coins = "com.example.receiptforge.coins100"
let pro = "com.example.receiptforge.pro"

/// A 200 answer: what the action created.
struct ActionAnswer: Decodable {
    struct Event: Decodable {
        var type: String
        var customerId: String
        var transactionId: String?
    }

    var transactionIds: [String]
    var originalTransactionId: String?
    var orderId: String?
    var events: [Event]
}

/// A refusal's body.
struct ErrorAnswer: Decodable {
    struct Detail: Decodable {
        var code: String
        var field: String
        var message: String
        var verbs: [String]?
    }

    var error: Detail
}

/// One request and its answer, kept for the schema tests.
struct Exchange: Sendable {
    var verb: String
    var requestBody: String
    var response: APIResponse
}

/// Exchanges, in order, from any number of harnesses and tasks.
final class ExchangeRecorder: @unchecked Sendable {
    // @unchecked: `log` is only touched with `lock` held.
    private let lock = NSLock()
    private var log: [Exchange] = []

    func record(_ exchange: Exchange) {
        lock.lock()
        log.append(exchange)
        lock.unlock()
    }

    var exchanges: [Exchange] {
        lock.lock()
        defer { lock.unlock() }
        return log
    }
}

/// Empty production and sandbox stores of the example app behind one handler, and a
/// recorder of every exchange made through it.
final class ControlHarness: Sendable {
    let production = LocalAppStore(StoreConfiguration(environment: .production, customers: 0))
    let sandbox = LocalAppStore(StoreConfiguration(environment: .sandbox, customers: 0))
    let recorder: ExchangeRecorder

    init(recorder: ExchangeRecorder = ExchangeRecorder()) {
        self.recorder = recorder
    }

    var handler: StoreControlHandler { StoreControlHandler(stores: [.production: production, .sandbox: sandbox]) }

    func send(_ method: String, _ path: String, _ body: String = "") -> APIResponse {
        let response = handler.respond(method: method, path: path, body: Array(body.utf8))
        recorder.record(Exchange(verb: ControlPath(path)?.verbName ?? path, requestBody: body, response: response))
        return response
    }

    /// `POST /forge/v1/VERB` (or the sandbox's), which must succeed.
    @discardableResult
    func ok(_ verb: String, _ body: String, environment: AppEnvironment = .production,
            file: StaticString = #filePath, line: UInt = #line) throws -> ActionAnswer {
        let response = send("POST", ControlPath.prefixes.prefix(of: environment) + verb, body)
        XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self), file: file, line: line)
        XCTAssertEqual(response.header("Content-Type"), "application/json", file: file, line: line)
        return try decodeJSON(ActionAnswer.self, from: response.body)
    }

    /// A request that must be refused with `status` and `code` naming `field`, leaving
    /// both stores' state JSON byte for byte as it was.
    @discardableResult
    func refused(_ verb: String, _ body: String, method: String = "POST", status: Int = 400, code: String, field: String,
                 file: StaticString = #filePath, line: UInt = #line) throws -> ErrorAnswer {
        let before = (production.read { $0.stateJSON() }, sandbox.read { $0.stateJSON() })
        let response = send(method, ControlPath.prefixes.production + verb, body)
        XCTAssertEqual(response.status, status, "\(verb) \(body)", file: file, line: line)
        XCTAssertEqual(response.header("Content-Type"), "application/json", file: file, line: line)
        let answer = try decodeJSON(ErrorAnswer.self, from: response.body)
        XCTAssertEqual(answer.error.code, code, "\(verb) \(body): \(answer.error.message)", file: file, line: line)
        XCTAssertEqual(answer.error.field, field, "\(verb) \(body): \(answer.error.message)", file: file, line: line)
        XCTAssertFalse(answer.error.message.isEmpty, file: file, line: line)
        XCTAssertEqual(production.read { $0.stateJSON() }, before.0, "\(verb) \(body) changed the production state", file: file, line: line)
        XCTAssertEqual(sandbox.read { $0.stateJSON() }, before.1, "\(verb) \(body) changed the sandbox state", file: file, line: line)
        return answer
    }

    func subscription(_ originalTransactionId: String, in store: LocalAppStore? = nil) -> StoreSubscription? {
        (store ?? production).read { state in state.subscriptions.first { String($0.originalTransactionId) == originalTransactionId } }
    }

    func transaction(_ id: String, in store: LocalAppStore? = nil) -> StoreTransaction? {
        (store ?? production).read { state in state.transactions.first { String($0.transactionId) == id } }
    }

    /// A subscription bought for `customer`: its original transaction id.
    func subscribe(_ customer: String, to product: String = monthly) throws -> String {
        try XCTUnwrap(try ok("buyProduct", #"{"customer": "\#(customer)", "productId": "\#(product)"}"#).originalTransactionId)
    }
}
