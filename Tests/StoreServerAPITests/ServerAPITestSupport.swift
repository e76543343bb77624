import APIMessage
import AppInput
import Crypto
import ForgeCA
import Foundation
import LocalAppStore
import StoreAPIAuthentication
import StoreKit2
import StoreKit2Verifier
import StoreServerAPI
import StrictJSON
import TestSupport
import XCTest

let monthly = "com.example.receiptforge.subscription.monthly"
let coins = "com.example.receiptforge.coins100"
let pro = "com.example.receiptforge.pro"
let season = "com.example.receiptforge.season"
let bundleId = AppDescription.example.bundleIdentifier

/// A handler over empty stores (or `customers` each), accepting the test key of seed 1,
/// its wall clock fixed at `wallNow`.
struct Fixture {
    static let seed: UInt64 = 1
    static let key = TestAPIKey(seed: seed)
    static let wallNow = Date(timeIntervalSince1970: 1_790_000_000)

    let stores: LocalAppStores
    let handler: ServerAPIHandler

    init(customers: Int = 0, authentication: ServerAPIAuthentication? = nil) {
        stores = LocalAppStores(StoreConfiguration(seed: Self.seed, customers: customers))
        handler = ServerAPIHandler(stores: stores,
                                   authentication: authentication ?? .testKey(seed: Self.seed, bundleIdentifier: bundleId),
                                   wallClock: { Fixture.wallNow })
    }

    /// A bearer token as Apple's Python client makes it (no `iat`, exp in five minutes),
    /// with `claims` overriding or adding members.
    static func authorization(claims extra: [String: JSONValue] = [:], signer: P256.Signing.PrivateKey = key.privateKey) throws -> String {
        var claims: [JSONMember] = [.init(key: "iss", value: .string(key.issuerIdentifier)), .init(key: "aud", value: "appstoreconnect-v1"),
                                    .init(key: "bid", value: .string(bundleId)),
                                    .init(key: "exp", value: .number(String(Int(wallNow.timeIntervalSince1970) + 300)))]
        for (name, value) in extra.sorted(by: { $0.key < $1.key }) {
            claims.removeAll { $0.key == name }
            claims.append(.init(key: name, value: value))
        }
        let header = Array(#"{"alg":"ES256","kid":"\#(key.keyIdentifier)","typ":"JWT"}"#.utf8)
        let input = CompactJWS.signingInput(header: header, payload: Array(JSONValue.object(claims).jsonText.utf8))
        let signature = try signer.signature(for: input).rawRepresentation
        return "Bearer " + String(decoding: input, as: UTF8.self) + "." + Base64URL.encode(Array(signature))
    }

    func send(_ method: String, _ path: String, query: [(String, String)] = [], body: String? = nil,
              authorization: String?? = .none) throws -> APIResponse {
        let header: String?
        switch authorization {
        case .none: header = try Self.authorization()
        case .some(let given): header = given
        }
        return handler.respond(to: ServerAPIRequest(method: method, path: path, query: query.map { .init($0.0, $0.1) },
                                                    authorization: header, body: Array((body ?? "").utf8)))
    }

    /// A 200 answer's JSON object.
    func json(_ method: String, _ path: String, query: [(String, String)] = [], body: String? = nil,
              file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        let response = try send(method, path, query: query, body: body)
        XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self), file: file, line: line)
        XCTAssertEqual(response.header("Content-Type"), "application/json", file: file, line: line)
        return try JSONValue(json: Data(response.body))
    }

    /// The payload of a JWS the handler signed, after the forge's verifier accepted it
    /// (root: the committed JWS CA; environment and bundle id of the store).
    static func verified(_ jws: JSONValue?, kind: JWSKind, environment: JWSEnvironment,
                         file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        let text = try XCTUnwrap(jws?.stringValue, "no JWS", file: file, line: line)
        let verifier = JWSVerifier(rootCertificates: [JWSAuthority.committed.root.certificate], bundleId: bundleId,
                                   appAppleId: environment == .production ? 1_234_567_890 : nil, environment: environment)
        let verification = verifier.verify(text, kind: kind, currentTime: Int64(wallNow.timeIntervalSince1970))
        XCTAssertEqual(verification.status, .ok, verification.detail, file: file, line: line)
        let compact = try CompactJWS(text)
        XCTAssertEqual(try JSONValue(json: Data(compact.header))["x5c"]?.arrayValue?.count, 3, "a chain of three", file: file, line: line)
        return try JSONValue(json: Data(compact.payload))
    }

    /// Asserts Apple's error: its status, `application/json` exactly, and the table's body.
    static func assertError(_ response: APIResponse, _ error: StoreAPIError, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(response.status, error.httpStatus, response.logDetail ?? "", file: file, line: line)
        XCTAssertEqual(response.header("Content-Type"), "application/json", file: file, line: line)
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), String(decoding: error.body, as: UTF8.self),
                       response.logDetail ?? "", file: file, line: line)
    }
}
