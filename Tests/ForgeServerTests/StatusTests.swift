import ForgeServer
import Foundation
import StrictJSON
import TestSupport
import Receipt
import XCTest

/// Every status of issue 13, from a real server over loopback.
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
final class StatusTests: XCTestCase {
    func testValidReceiptIsZeroWithTheDecodedReceipt() async throws {
        let reply = try await ServerHarness.with { try await $0.verify(Minted.receipt("valid")) }
        XCTAssertEqual(reply.http, 200)
        XCTAssertEqual(reply.header("Content-Type"), "application/json")
        XCTAssertEqual(reply.header("Deprecation"), "true")
        let json = try reply.json()
        XCTAssertEqual(json["status"]?.intValue, 0)
        XCTAssertEqual(json["environment"]?.stringValue, "Production")
        let receipt = try XCTUnwrap(json["receipt"])
        XCTAssertEqual(receipt["receipt_type"]?.stringValue, "Production")
        XCTAssertEqual(receipt["bundle_id"]?.stringValue, Minted.forge.app.bundleIdentifier)
        XCTAssertEqual(receipt["application_version"]?.stringValue, Minted.forge.app.version)
        XCTAssertNotNil(receipt["app_item_id"]?.intValue, "a number, as Apple sends it")
        let inApp = try XCTUnwrap(receipt["in_app"]?.arrayValue)
        XCTAssertEqual(inApp.count, 3)
        for entry in inApp {
            for member in try XCTUnwrap(entry.objectValue) {
                XCTAssertNotNil(member.value.stringValue, "in_app \(member.key) is \(member.value.kindDescription), not a string")
            }
            XCTAssertNotNil((entry["quantity"]?.stringValue).flatMap { Int($0) }, "quantity a decimal string")
        }
        XCTAssertNil(json["latest_receipt_info"], "no subscriptions, no password")
    }

    /// verifyReceipt does not check bundle, version, device or VPP expiry: the client does.
    func testVerdictsApplesServerDoesNotMakeAreZero() async throws {
        try await ServerHarness.with { server in
            for id in ["wrong-bundle", "wrong-version", "copied-device", "vpp-expired", "expired-cert", "vpp"] {
                let json = try await server.verify(Minted.receipt(id)).json()
                XCTAssertEqual(json["status"]?.intValue, 0, id)
                XCTAssertNotNil(json["receipt"]?.objectValue, id)
            }
            let bundle = try await server.verify(Minted.receipt("wrong-bundle")).json()
            XCTAssertEqual(bundle["receipt"]?["bundle_id"]?.stringValue, "com.example.otherapp")
            let vpp = try await server.verify(Minted.receipt("vpp-expired")).json()
            let receipt = try XCTUnwrap(vpp["receipt"])
            XCTAssertEqual(receipt["receipt_type"]?.stringValue, "ProductionVPP")
            XCTAssertNotNil(receipt["expiration_date_ms"]?.stringValue)
        }
    }

    func testReceiptsThatDoNotAuthenticateAre21003() async throws {
        try await ServerHarness.with { server in
            for id in ["tampered-payload", "tampered-signature", "untrusted-root", "missing-intermediate", "signed-after-expiry",
                       "sha512-digest", "md5-digest", "leaf-without-marker"] {
                let reply = try await server.verify(Minted.receipt(id))
                XCTAssertEqual(reply.http, 200, id)
                XCTAssertEqual(try reply.json(), ["status": 21003], id)
            }
        }
    }

    func testUnreadableRequestsAre21002() async throws {
        try await ServerHarness.with { server in
            for id in ["truncated", "not-pkcs7", "malformed-payload", "trailing-data"] {
                let answer60 = try await server.verify(Minted.receipt(id)).status()
                XCTAssertEqual(answer60, 21002, id)
            }
            let bodies: [(String, String)] = [
                ("not JSON", "receipt-data=MIIT"),
                ("empty body", ""),
                ("JSON array", "[]"),
                ("no receipt-data", #"{"password":"00"}"#),
                ("receipt-data not a string", #"{"receipt-data":12}"#),
                ("receipt-data not Base64", #"{"receipt-data":"@@@not base64@@@"}"#),
                ("receipt-data empty", #"{"receipt-data":""}"#),
                ("password not a string", #"{"receipt-data":"AAAA","password":7}"#),
            ]
            for (what, body) in bodies {
                let reply = try await server.send("/verifyReceipt", body: Array(body.utf8))
                XCTAssertEqual(reply.http, 200, what)
                XCTAssertEqual(try reply.status(), 21002, what)
            }
            // Base64 with line breaks, as some clients wrap it, is accepted.
            let wrapped = Data(Minted.receipt("valid")).base64EncodedString(options: [.lineLength64Characters])
            let body: JSONValue = ["receipt-data": .string(wrapped)]
            let answer80 = try await server.send("/verifyReceipt", body: Array(body.jsonText.utf8)).status()
            XCTAssertEqual(answer80, 0)
        }
    }

    func testXcodeReceiptsAre21002UnlessAccepted() async throws {
        let xcode = Minted.receipt("xcode-storekit")
        let refused = try await ServerHarness.with { try await $0.verify(xcode) }
        XCTAssertEqual(try refused.json(), ["status": 21002])
        var options = ServeOptions()
        options.acceptXcode = true
        try await ServerHarness.with(options) { server in
            for endpoint in [VerifyReceiptEndpoint.production, .sandbox] {
                let json = try await server.verify(xcode, at: endpoint).json()
                XCTAssertEqual(json["status"]?.intValue, 0)
                XCTAssertEqual(json["environment"]?.stringValue, "Xcode")
                XCTAssertEqual(json["receipt"]?["receipt_type"]?.stringValue, "Xcode")
            }
            // Accepting Xcode receipts does not make App Store receipts Xcode ones.
            let answer98 = try await server.verify(Minted.receipt("valid")).json()["environment"]?.stringValue
            XCTAssertEqual(answer98, "Production")
        }
    }

    /// GET is 21000 (Apple: "the request was not made with POST"); a method the OpenAPI
    /// document does not declare on the path is 405 with `Allow` (issue 35, item 9).
    func testGETIs21000AndUndeclaredMethods405() async throws {
        try await ServerHarness.with { server in
            for path in ["/verifyReceipt", "/sandbox/verifyReceipt"] {
                let reply = try await server.send(path, method: "GET")
                XCTAssertEqual(reply.http, 200, "GET \(path)")
                XCTAssertEqual(try reply.json(), ["status": 21000], "GET \(path)")
                for method in ["PUT", "DELETE", "TRACE"] {
                    let refused = try await server.send(path, method: method)
                    XCTAssertEqual(refused.http, 405, "\(method) \(path)")
                    XCTAssertEqual(refused.header("Allow"), "GET, HEAD, POST", "\(method) \(path)")
                }
            }
            let health = try await server.send("/health", method: "GET")
            XCTAssertEqual(health.http, 200)
            XCTAssertEqual(try health.json()["status"]?.stringValue, "ok")
            let answer114 = try await server.send("/elsewhere", method: "POST", body: []).http
            XCTAssertEqual(answer114, 404)
        }
    }

    func testEnvironmentMismatchesAre21007And21008() async throws {
        try await ServerHarness.with { server in
            let sandbox = Minted.receipt("sandbox")
            let answer121 = try await server.verify(sandbox, at: .production).json()
            XCTAssertEqual(answer121, ["status": 21007])
            let json = try await server.verify(sandbox, at: .sandbox).json()
            XCTAssertEqual(json["status"]?.intValue, 0)
            XCTAssertEqual(json["environment"]?.stringValue, "Sandbox")
            let receipt = try XCTUnwrap(json["receipt"])
            XCTAssertEqual(receipt["receipt_type"]?.stringValue, "ProductionSandbox")
            XCTAssertEqual(receipt["app_item_id"]?.intValue, 0)
            let answer128 = try await server.verify(Minted.receipt("valid"), at: .sandbox).json()
            XCTAssertEqual(answer128,
                           ["status": 21008])
        }
    }

    func testSharedSecretMismatchIs21004() async throws {
        var options = ServeOptions()
        options.sharedSecret = "0123456789abcdef0123456789abcdef"
        try await ServerHarness.with(options) { server in
            let subscriptions = Minted.receipt("subscriptions")
            let answer138 = try await server.verify(subscriptions, password: "ffff").json()
            XCTAssertEqual(answer138,
                           ["status": 21004])
            let json = try await server.verify(subscriptions, password: "0123456789ABCDEF0123456789abcdef").json()
            XCTAssertEqual(json["status"]?.intValue, 0, "hex compares without case")
            XCTAssertNotNil(json["latest_receipt_info"])
            // Without auto-renewable subscriptions the password is not checked (Apple ignores it).
            let withoutSubscriptions = try XCTUnwrap(Minted.cases.first { minted in
                guard let bytes = minted.receipt, let receipt = try? PKCS7SignedData(bytes: bytes).decodeReceipt(),
                      minted.expected == .valid else { return false }
                return !ReceiptJSON(receipt, now: Date()).hasAutoRenewableSubscriptions
            }, "a valid case without auto-renewable subscriptions")
            let unchecked = try await server.verify(withoutSubscriptions.receipt, password: "ffff").status()
            XCTAssertEqual(unchecked, 0, withoutSubscriptions.id)
            let valid = try await server.verify(Minted.receipt("valid"), password: "ffff").status()
            XCTAssertEqual(valid, 21004, "the valid case has an auto-renewable subscription")
            // Without a password there is nothing to check, and no latest_receipt_info.
            let plain = try await server.verify(subscriptions).json()
            XCTAssertEqual(plain["status"]?.intValue, 0)
            XCTAssertNil(plain["latest_receipt_info"])
        }
    }

    func testSubscriptionsWithPasswordCarryLatestReceiptInfoAndPendingRenewals() async throws {
        let subscriptions = Minted.receipt("subscriptions")
        try await ServerHarness.with { server in
            let json = try await server.verify(subscriptions, password: "00").json()
            XCTAssertEqual(json["status"]?.intValue, 0)
            XCTAssertEqual(json["latest_receipt"]?.stringValue, Data(subscriptions).base64EncodedString())
            let inApp = try XCTUnwrap(json["receipt"]?["in_app"]?.arrayValue)
            let latest = try XCTUnwrap(json["latest_receipt_info"]?.arrayValue)
            let subscriptionEntries = inApp.filter { $0["expires_date_ms"] != nil }
            XCTAssertEqual(latest.count, subscriptionEntries.count)
            let purchaseTimes = latest.compactMap { ($0["purchase_date_ms"]?.stringValue).flatMap { Int64($0) } }
            XCTAssertEqual(purchaseTimes, purchaseTimes.sorted(by: >), "newest first")
            let pending = try XCTUnwrap(json["pending_renewal_info"]?.arrayValue)
            let originals = Set(latest.compactMap { $0["original_transaction_id"]?.stringValue })
            XCTAssertEqual(pending.count, originals.count, "one entry per subscription")
            for entry in pending {
                XCTAssertTrue(["0", "1"].contains(entry["auto_renew_status"]?.stringValue))
                XCTAssertEqual(entry["auto_renew_product_id"]?.stringValue, entry["product_id"]?.stringValue)
                XCTAssertTrue(originals.contains(entry["original_transaction_id"]?.stringValue ?? ""))
            }
            let cancelled = try XCTUnwrap(inApp.first { $0["cancellation_date_ms"] != nil })
            XCTAssertEqual(cancelled["cancellation_reason"]?.stringValue, "0")

            let excluded = try await server.verify(subscriptions, password: "00", excludeOld: true).json()
            let newest = try XCTUnwrap(excluded["latest_receipt_info"]?.arrayValue)
            XCTAssertEqual(newest.count, originals.count, "only the latest renewal of each subscription")
            let newestIDs = newest.compactMap { $0["original_transaction_id"]?.stringValue }
            XCTAssertEqual(Set(newestIDs).count, newestIDs.count)
            for entry in newest {
                let id = entry["original_transaction_id"]?.stringValue
                let all = latest.filter { $0["original_transaction_id"]?.stringValue == id }
                let maximum = all.compactMap { ($0["purchase_date_ms"]?.stringValue).flatMap { Int64($0) } }.max()
                XCTAssertEqual((entry["purchase_date_ms"]?.stringValue).flatMap { Int64($0) }, maximum)
            }
        }
    }

    /// One log line per request: status, verdict and latency.
    func testOneLogLinePerRequest() async throws {
        let log = try await ServerHarness.with { server in
            _ = try await server.verify(Minted.receipt("tampered-payload"))
            _ = try await server.verify(Minted.receipt("wrong-bundle"), at: .sandbox)
            return server.log
        }
        let lines = log.lines.filter { $0.hasPrefix("POST /verifyReceipt") }
        XCTAssertEqual(lines.count, 1, "\(log.lines)")
        XCTAssertTrue(lines[0].contains("http=200 status=21003 verdict=signature-invalid fault=-"), lines[0])
        // The verifier checks no bundle: the answer is 21008 (a production receipt at the sandbox URL).
        let sandbox = log.lines.filter { $0.hasPrefix("POST /sandbox/verifyReceipt") }
        XCTAssertEqual(sandbox.count, 1, "\(log.lines)")
        XCTAssertTrue(sandbox.first?.contains("http=200 status=21008 verdict=production-receipt") == true, "\(sandbox)")
        XCTAssertNotNil(lines[0].range(of: #" [0-9]+\.[0-9]{3}ms$"#, options: .regularExpression), lines[0])
    }
}
