import ForgeServer
import Foundation
import ReceiptForge
import StoreAPIAuthentication
import StrictJSON
import TestSupport
import XCTest

/// Schemas/forge-serve.openapi.json against what `forge serve` really answers: every
/// operation of the document called over HTTP (successes and refusals, both
/// environments), each answer judged by `scripts/openapi-check` (openapi-core, the exact
/// Content-Type, no undeclared body), after the document itself passes the OpenAPI 3.1
/// metaschema (openapi-spec-validator).
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
final class OpenAPIDocumentTests: XCTestCase {
    /// One request and its answer as the checker reads them.
    struct Exchange {
        let method: String
        let url: String
        let reply: ServerHarness.Reply

        var json: JSONValue {
            var headers: [JSONValue] = []
            for (name, value) in reply.headers { headers.append([.string(name), .string(value)]) }
            return ["method": .string(method), "url": .string(url), "status": .number(String(reply.http)),
                    "headers": .array(headers), "body": .string(Data(reply.body).base64EncodedString())]
        }
    }

    struct Judgement: Decodable {
        let verdicts: [[String]]
        let untested: [String]
    }

    /// scripts/openapi-check's judgement of `exchanges`.
    static func judge(_ exchanges: [Exchange]) throws -> Judgement {
        try PythonOracle.require(module: "openapi_core")
        let input = Data(JSONValue.array(exchanges.map(\.json)).jsonText.utf8)
        let script = ChildProcess.packageRoot.appendingPathComponent("scripts/openapi-check")
        let run = try ChildProcess.run(PythonOracle.executable, PythonOracle.arguments([script.path]), input: input,
                                       deadline: .seconds(300))
        guard run.status == 0 else { throw HarnessError("scripts/openapi-check exited with \(run.status): \(run.standardError)") }
        let judgement = try decodeJSON(Judgement.self, from: Data(run.standardOutput.utf8))
        guard judgement.verdicts.count == exchanges.count else { throw HarnessError("\(judgement.verdicts.count) verdicts for \(exchanges.count) exchanges") }
        return judgement
    }

    /// `Authorization: Bearer` for the forge's default test key, made by PyJWT (an
    /// independent implementation of ES256 JWTs) as Apple's clients make them.
    static func bearer(bundleId: String) throws -> String {
        try PythonOracle.require(module: "jwt")
        let key = TestAPIKey(seed: ForgeSettings.defaultSeed)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appendingPathComponent(key.fileName)
        try Data(key.p8.utf8).write(to: keyFile)
        let script = """
            import sys, time, jwt
            now = int(time.time())
            print(jwt.encode({"iss": sys.argv[3], "iat": now, "exp": now + 600, "aud": "appstoreconnect-v1", "bid": sys.argv[4]},
                             open(sys.argv[1], "rb").read(), algorithm="ES256", headers={"kid": sys.argv[2], "typ": "JWT"}))
            """
        let run = try ChildProcess.run(PythonOracle.executable, PythonOracle.arguments(
            ["-c", script, keyFile.path, key.keyIdentifier, key.issuerIdentifier, bundleId]))
        guard run.status == 0 else { throw HarnessError("PyJWT: \(run.standardError)") }
        return "Bearer " + run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testEveryOperationAnswersAsTheDocumentSays() async throws {
        try PythonOracle.require(module: "openapi_core")
        var options = ServeOptions()
        options.maximumBodySize = 65_536
        let exchanges: [Exchange] = try await ServerHarness.with(options) { server in
            var exchanges: [Exchange] = []
            @discardableResult
            func call(_ method: String, _ path: String, _ body: String? = nil, headers: [(String, String)] = [],
                      expect status: Int? = nil, file: StaticString = #filePath, line: UInt = #line) async throws -> ServerHarness.Reply {
                let reply = try await server.send(path, method: method, body: body.map { Array($0.utf8) }, headers: headers)
                if let status { XCTAssertEqual(reply.http, status, "\(method) \(path): \(reply.text.prefix(300))", file: file, line: line) }
                exchanges.append(Exchange(method: method, url: server.base + path, reply: reply))
                return reply
            }

            // verifyReceipt, /health.
            try await call("GET", "/health", expect: 200)
            for prefix in ["", "/sandbox"] {
                let receipt = Data(Minted.receipt("valid")).base64EncodedString()
                try await call("POST", prefix + "/verifyReceipt", #"{"receipt-data":"\#(receipt)"}"#, expect: 200)
                try await call("POST", prefix + "/verifyReceipt", "not json", expect: 200)
                try await call("GET", prefix + "/verifyReceipt", expect: 200)
            }
            for fault in ["21005", "21100", "21150-final", "http-500", "http-503", "garbage", "delay-5"] {
                try await call("POST", "/verifyReceipt", #"{"receipt-data":"AAAA"}"#, headers: [("X-Forge-Fault", fault)])
            }
            try await call("POST", "/verifyReceipt", "{}", headers: [("X-Forge-Fault", "no-such-fault")], expect: 400)
            try await call("POST", "/verifyReceipt", String(repeating: "x", count: 100_000), expect: 413)

            // The control API: a customer with a subscription, a consumable and a non-consumable.
            let monthly = "com.example.receiptforge.subscription.monthly"
            let customer = "openapi-customer"
            let bought = try await call("POST", "/forge/v1/buyProduct", #"{"customer":"\#(customer)","productId":"\#(monthly)"}"#, expect: 200)
            let original = try XCTUnwrap(try bought.json()["originalTransactionId"]?.stringValue, bought.text)
            let orderId = try XCTUnwrap(try bought.json()["orderId"]?.stringValue, bought.text)
            let coins = try await call("POST", "/forge/v1/buyProduct", #"{"customer":"\#(customer)","productId":"com.example.receiptforge.coins100"}"#, expect: 200)
            let coinsId = try XCTUnwrap(try coins.json()["transactionIds"]?[0]?.stringValue, coins.text)
            let pro = try await call("POST", "/forge/v1/buyProduct", #"{"customer":"\#(customer)","productId":"com.example.receiptforge.pro"}"#, expect: 200)
            let proId = try XCTUnwrap(try pro.json()["transactionIds"]?[0]?.stringValue, pro.text)
            try await call("POST", "/forge/v1/buyProduct", #"{"customer":"\#(customer)","productId":"no.such.product"}"#, expect: 400)
            try await call("POST", "/forge/v1/buyProduct", "{", expect: 400)
            try await call("POST", "/sandbox/forge/v1/buyProduct", #"{"customer":"\#(customer)","productId":"\#(monthly)","extra":1}"#, expect: 400)
            let subscription = #"{"originalTransactionId":"\#(original)"}"#
            try await call("POST", "/forge/v1/forceRenewalOfSubscription", subscription, expect: 200)
            try await call("POST", "/forge/v1/failRenewal", #"{"originalTransactionId":"\#(original)","gracePeriod":true}"#, expect: 200)
            try await call("POST", "/forge/v1/recoverBilling", subscription, expect: 200)
            try await call("POST", "/forge/v1/disableAutoRenewForTransaction", subscription, expect: 200)
            try await call("POST", "/forge/v1/enableAutoRenewForTransaction", subscription, expect: 200)
            try await call("POST", "/forge/v1/changeRenewalProduct",
                           #"{"originalTransactionId":"\#(original)","productId":"com.example.receiptforge.subscription.yearly"}"#)
            try await call("POST", "/forge/v1/priceIncrease", #"{"originalTransactionId":"\#(original)","renewalPrice":12990,"requiresConsent":true}"#)
            try await call("POST", "/forge/v1/acceptPriceIncrease", subscription)
            try await call("POST", "/forge/v1/requestConsumptionInformation", #"{"transactionId":"\#(coinsId)","reason":"UNINTENDED_PURCHASE"}"#, expect: 200)
            try await call("POST", "/forge/v1/declineRefund", #"{"transactionId":"\#(coinsId)"}"#)
            try await call("POST", "/forge/v1/refundTransaction", #"{"transactionId":"\#(proId)","reason":0}"#, expect: 200)
            try await call("POST", "/forge/v1/reverseRefund", #"{"transactionId":"\#(proId)"}"#)
            try await call("POST", "/forge/v1/revokeTransaction", #"{"transactionId":"\#(proId)"}"#)
            try await call("POST", "/forge/v1/revokeTransaction", #"{"transactionId":"999999999999"}"#, expect: 400)
            try await call("POST", "/forge/v1/advanceClock", #"{"seconds":60}"#, expect: 200)
            try await call("POST", "/forge/v1/advanceClock", #"{"seconds":-60}"#, expect: 400)
            try await call("POST", "/forge/v1/receipt", #"{"customer":"\#(customer)"}"#, expect: 200)
            try await call("POST", "/forge/v1/receipt", #"{"customer":"nobody-at-all"}"#, expect: 400)
            try await call("GET", "/forge/v1/state", expect: 200)
            try await call("GET", "/sandbox/forge/v1/state", expect: 200)
            try await call("GET", "/forge/v1/requests", expect: 200)
            try await call("GET", "/sandbox/forge/v1/requests?limit=2", expect: 200)
            try await call("GET", "/forge/v1/requests?limit=0", expect: 400)
            try await call("GET", "/forge/console?environment=sandbox", expect: 200)
            try await call("GET", "/forge/console?environment=staging", expect: 400)

            // The App Store Server API, with the test key's token and without.
            let state = try await server.send("/forge/v1/state", method: "GET")
            let bundleId = try XCTUnwrap(try state.json()["bundleId"]?.stringValue, state.text)
            let token = [("Authorization", try Self.bearer(bundleId: bundleId))]
            func api(_ method: String, _ path: String, _ body: String? = nil, expect status: Int? = nil,
                     file: StaticString = #filePath, line: UInt = #line) async throws {
                try await call(method, path, body, headers: token, expect: status, file: file, line: line)
            }
            try await call("GET", "/inApps/v1/transactions/\(coinsId)", expect: 401)
            try await call("GET", "/inApps/v1/transactions/\(coinsId)", headers: [("Authorization", "Bearer x.y.z")], expect: 401)
            try await api("GET", "/inApps/v1/transactions/\(coinsId)", expect: 200)
            try await api("GET", "/sandbox/inApps/v1/transactions/\(coinsId)", expect: 404)
            try await api("GET", "/inApps/v1/transactions/appTransactions/\(coinsId)", expect: 200)
            try await api("GET", "/inApps/v1/transactions/appTransactions/999999999999", expect: 404)
            for version in ["v1", "v2"] {
                try await api("GET", "/inApps/\(version)/history/\(coinsId)", expect: 200)
                try await api("GET", "/inApps/\(version)/history/\(coinsId)?productId=\(monthly)&productId=com.example.receiptforge.pro"
                              + "&productType=AUTO_RENEWABLE&productType=NON_CONSUMABLE&revoked=False&sort=DESCENDING"
                              + "&inAppOwnershipType=PURCHASED&startDate=0&endDate=4102444800000", expect: 200)
                try await api("GET", "/inApps/\(version)/history/\(coinsId)?revoked=True&subscriptionGroupIdentifier=x", expect: 200)
                try await api("GET", "/inApps/\(version)/history/\(coinsId)?startDate=yesterday", expect: 400)
                try await api("GET", "/sandbox/inApps/\(version)/history/\(coinsId)", expect: 404)
            }
            try await api("GET", "/inApps/v1/subscriptions/\(original)", expect: 200)
            try await api("GET", "/inApps/v1/subscriptions/\(original)?status=1&status=2", expect: 200)
            try await api("GET", "/inApps/v1/subscriptions/\(original)?status=9", expect: 400)
            try await api("GET", "/inApps/v1/lookup/\(orderId)", expect: 200)
            try await api("GET", "/inApps/v1/lookup/NOSUCHORDER", expect: 200)
            try await api("GET", "/inApps/v2/refund/lookup/\(coinsId)", expect: 200)
            try await api("GET", "/inApps/v2/refund/lookup/999999999999", expect: 404)
            let consumption = #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED"}"#
            try await api("PUT", "/inApps/v2/transactions/consumption/\(coinsId)", consumption, expect: 202)
            try await api("PUT", "/inApps/v2/transactions/consumption/\(coinsId)", #"{"customerConsented":false}"#, expect: 400)
            try await api("PUT", "/inApps/v1/transactions/consumption/\(coinsId)",
                          #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":0}"#, expect: 202)
            try await api("PUT", "/inApps/v1/transactions/consumption/\(coinsId)", "[]", expect: 400)
            let extend = #"{"extendByDays":3,"extendReasonCode":1,"requestIdentifier":"openapi-1"}"#
            try await api("PUT", "/inApps/v1/subscriptions/extend/\(original)", extend, expect: 200)
            try await api("PUT", "/inApps/v1/subscriptions/extend/\(original)", #"{"extendReasonCode":1}"#, expect: 400)
            try await api("PUT", "/inApps/v1/subscriptions/extend/\(coinsId)", extend)
            try await api("POST", "/inApps/v1/subscriptions/extend/mass",
                          #"{"extendByDays":2,"extendReasonCode":0,"requestIdentifier":"openapi-mass","productId":"\#(monthly)"}"#, expect: 200)
            try await api("POST", "/inApps/v1/subscriptions/extend/mass", #"{"extendByDays":2}"#, expect: 400)
            try await api("GET", "/inApps/v1/subscriptions/extend/mass/\(monthly)/openapi-mass", expect: 200)
            try await api("GET", "/inApps/v1/subscriptions/extend/mass/\(monthly)/never-asked", expect: 404)
            try await api("PUT", "/inApps/v1/transactions/\(original)/appAccountToken",
                          #"{"appAccountToken":"7e3fb20b-4cdb-47cc-936d-99d65f608138"}"#, expect: 200)
            try await api("PUT", "/inApps/v1/transactions/\(original)/appAccountToken", #"{"appAccountToken":"not-a-uuid"}"#, expect: 400)
            try await api("POST", "/inApps/v1/transactions/\(coinsId)/finish", expect: 200)
            try await api("POST", "/sandbox/inApps/v1/transactions/999999999999/finish", expect: 404)
            // Notifications (no --notify-url here: a test notification is 4040007, history lists them unsent).
            try await api("POST", "/inApps/v1/notifications/test", expect: 404)
            try await api("GET", "/inApps/v1/notifications/test/7e3fb20b-4cdb-47cc-936d-99d65f608138", expect: 404)
            try await api("GET", "/inApps/v1/notifications/test/not-a-token", expect: 400)
            let now = try XCTUnwrap(try state.json()["now"]?.intValue, state.text)
            let span = #""startDate":\#(now - 86_400_000),"endDate":\#(now + 86_400_000)"#
            try await api("POST", "/inApps/v1/notifications/history", "{\(span)}", expect: 200)
            try await api("POST", "/inApps/v1/notifications/history?paginationToken=nope", "{\(span)}", expect: 400)
            try await api("POST", "/inApps/v1/notifications/history",
                          #"{\#(span),"transactionId":"\#(coinsId)","notificationType":"REFUND"}"#, expect: 400)
            try await api("POST", "/inApps/v1/notifications/history", #"{"startDate":0,"endDate":1}"#, expect: 400)

            // Last: they empty the customer and the store.
            try await call("POST", "/sandbox/forge/v1/expireSubscription", #"{"originalTransactionId":"1"}"#, expect: 400)
            try await call("POST", "/forge/v1/expireSubscription", subscription, expect: 200)
            try await call("POST", "/forge/v1/clearTransactions", #"{"customer":"\#(customer)"}"#, expect: 200)
            try await call("POST", "/forge/v1/resetToDefaultState", expect: 200)
            return exchanges
        }
        let judgement = try Self.judge(exchanges)
        for (exchange, problems) in zip(exchanges, judgement.verdicts) where !problems.isEmpty {
            XCTFail("\(exchange.method) \(exchange.url) → \(exchange.reply.http): \(problems)")
        }
        // Every operation of the document for one environment at least (the sandbox's
        // paths are the same path items).
        let untested = judgement.untested.filter { !$0.contains(" /sandbox/") }
        XCTAssertEqual(untested, [], "operations of the document no request called")
    }

    /// The document states what the server enforces, and the server does it: Get Notification
    /// History's `startDate` and `endDate` are required (Apple's NotificationHistoryRequest page:
    /// both "Required", https://developer.apple.com/documentation/appstoreserverapi/notificationhistoryrequest),
    /// ids are digits (a twenty-digit id above 2^64 − 1 is refused saying so), tokens UUIDs,
    /// `advanceClock` moves forward only, an empty `storefrontCountryCodes` is refused; another
    /// method on a known path is 405 with `Allow`, an unknown path 404 naming what the server
    /// answers; the refusals of schema-valid requests are listed per operation.
    func testTheDocumentStatesWhatTheServerEnforces() async throws {
        let url = ChildProcess.packageRoot.appendingPathComponent("Schemas/forge-serve.openapi.json")
        let document = try JSONValue(json: Data(contentsOf: url))
        let components = try XCTUnwrap(document["components"])
        let history = try XCTUnwrap(components["schemas"]?["NotificationHistoryRequest"])
        XCTAssertEqual(history["required"]?.arrayValue?.compactMap(\.stringValue), ["startDate", "endDate"])
        XCTAssertEqual(history["properties"]?["startDate"]?["minimum"]?.intValue, 0)
        XCTAssertEqual(components["parameters"]?["transactionId"]?["schema"]?["pattern"]?.stringValue, "^[0-9]{1,19}$")
        XCTAssertEqual(components["parameters"]?["anyTransactionId"]?["schema"]?["pattern"]?.stringValue, "^[0-9]{1,19}$")
        XCTAssertNotNil(components["parameters"]?["testNotificationToken"]?["schema"]?["pattern"]?.stringValue)
        XCTAssertEqual(components["schemas"]?["MassExtendRenewalDateRequest"]?["properties"]?["storefrontCountryCodes"]?["minItems"]?.intValue, 1)
        let control = try JSONValue(json: Data(contentsOf: ChildProcess.packageRoot.appendingPathComponent("Schemas/store-control.schema.json")))
        let advance = try XCTUnwrap(control["$defs"]?["request"]?["$defs"]?["advanceClock"]?["properties"])
        XCTAssertEqual(advance["seconds"]?["minimum"]?.intValue, 0)
        XCTAssertEqual(advance["milliseconds"]?["minimum"]?.intValue, 0)
        let historyItem = try XCTUnwrap(components["pathItems"]?["inApps.v2.history.transactionId"]?["get"])
        XCTAssertTrue(historyItem["x-forge-refusals-of-valid-requests"]?.arrayValue?.contains { $0["when"]?.stringValue?.hasPrefix("4000013") == true } == true)

        try await ServerHarness.with(ServeOptions()) { server in
            let state = try await server.send("/forge/v1/state", method: "GET")
            let token = [("Authorization", try Self.bearer(bundleId: try XCTUnwrap(try state.json()["bundleId"]?.stringValue)))]
            let huge = try await server.send("/inApps/v1/transactions/99999999999999999999", method: "GET", headers: token)
            XCTAssertEqual(huge.http, 400)
            XCTAssertEqual(try huge.json()["errorCode"]?.intValue, 4_000_006)
            let history = try await server.send("/inApps/v1/notifications/history", method: "POST", body: Array(#"{"endDate":1}"#.utf8), headers: token)
            XCTAssertEqual(try history.json()["errorCode"]?.intValue, 4_000_015, "startDate required")
            let backwards = try await server.send("/forge/v1/advanceClock", body: Array(#"{"seconds":-1}"#.utf8))
            XCTAssertEqual(backwards.http, 400)
            for method in ["POST", "DELETE", "TRACE"] {
                let health = try await server.send("/health", method: method)
                XCTAssertEqual(health.http, 405, method)
                XCTAssertEqual(health.header("Allow"), "GET, HEAD", method)
            }
            let wrongMethod = try await server.send("/inApps/v1/transactions/1", method: "DELETE", headers: token)
            XCTAssertEqual(wrongMethod.http, 405)
            XCTAssertEqual(wrongMethod.header("Allow"), "GET")
            let unknown = try await server.send("/no/such/path", method: "GET")
            XCTAssertEqual(unknown.http, 404)
            for surface in ["/verifyReceipt", "/inApps/", "/forge/v1/", "/health"] {
                XCTAssertTrue(unknown.text.contains(surface), "the 404 names \(surface): \(unknown.text)")
            }
        }
    }

    /// The checker is strict enough to catch an answer the document does not describe.
    func testTheCheckerRefusesAnswersOutsideTheDocument() throws {
        func exchange(_ method: String, _ path: String, _ status: Int, _ headers: [(String, String)], _ body: String) -> Exchange {
            Exchange(method: method, url: "http://127.0.0.1:9/" + path.dropFirst(), reply: .init(http: status, headers: headers, body: Array(body.utf8)))
        }
        let json = [("Content-Type", "application/json")]
        let history = #"{"revision":"a","hasMore":false,"bundleId":"b","appAppleId":1,"environment":"Production","signedTransactions":[]}"#
        let cases: [(String, Exchange)] = [
            ("the real shape", exchange("GET", "/inApps/v2/history/1", 200, json, history)),
            ("a charset on Apple's JSON", exchange("GET", "/inApps/v2/history/1", 200, [("Content-Type", "application/json; charset=utf-8")], history)),
            ("hasMore a string", exchange("GET", "/inApps/v2/history/1", 200, json, history.replacingOccurrences(of: "false", with: #""false""#))),
            ("an unknown environment", exchange("GET", "/sandbox/inApps/v2/history/1", 200, json, history.replacingOccurrences(of: "Production", with: "Prod"))),
            ("a 404 code on a 400", exchange("GET", "/inApps/v1/transactions/1", 400, json, #"{"errorCode":4040010,"errorMessage":"x"}"#)),
            ("a status the operation never answers", exchange("GET", "/inApps/v1/transactions/1", 418, json, "{}")),
            ("a body on 202", exchange("PUT", "/inApps/v2/transactions/consumption/1", 202, json, "{}")),
            ("401 without the failure header", exchange("GET", "/inApps/v1/transactions/1", 401, [("Content-Type", "text/plain")], "Unauthenticated")),
            ("a path outside the document", exchange("GET", "/inApps/v9/nothing", 200, json, "{}")),
            ("a control error without field", exchange("POST", "/forge/v1/buyProduct", 400, json, #"{"error":{"code":"invalidRequest","message":"m"}}"#)),
            ("verifyReceipt's status a string", exchange("POST", "/verifyReceipt", 200, json, #"{"status":"21000"}"#)),
            ("a state without Link", exchange("GET", "/forge/v1/state", 200, json, "{}")),
        ]
        let judgement = try Self.judge(cases.map(\.1))
        XCTAssertEqual(judgement.verdicts[0], [], "the real shape passes")
        for ((what, _), problems) in zip(cases, judgement.verdicts).dropFirst() {
            XCTAssertFalse(problems.isEmpty, "the document accepts: \(what)")
        }
    }
}
