import ForgeServer
import Foundation
import StrictJSON
import TestSupport
import XCTest

/// Schemas/verify-receipt-response.schema.json against what the server really answers
/// (every status, every shape), and against answers broken on purpose.
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
final class ResponseSchemaTests: XCTestCase {
    private var schema: URL { JSONSchemaOracle.schemaURL("verify-receipt-response") }

    func testRealAnswersMatchTheSchema() async throws {
        var options = ServeOptions()
        options.acceptXcode = true
        options.sharedSecret = "00ff"
        let answers: [String] = try await ServerHarness.with(options) { server in
            var replies: [ServerHarness.Reply] = []
            for minted in Minted.cases {
                replies.append(try await server.verify(minted.receipt))
                replies.append(try await server.verify(minted.receipt, at: .sandbox, password: "00FF", excludeOld: minted.id.hasPrefix("s")))
            }
            replies.append(try await server.verify(Minted.receipt("subscriptions"), password: "00ff"))
            replies.append(try await server.verify(Minted.receipt("subscriptions"), password: "0000"))
            replies.append(try await server.send("/verifyReceipt", method: "GET"))
            for fault in ["21005", "21009", "21100", "21199-final"] {
                replies.append(try await server.verify(Minted.receipt("valid"), headers: [("X-Forge-Fault", fault)]))
            }
            return replies.map(\.text)
        }
        let statuses = Set(answers.compactMap { text -> Int? in
            (try? JSONValue(json: text))?["status"]?.intValue
        })
        XCTAssertEqual(statuses, [0, 21000, 21002, 21003, 21004, 21005, 21007, 21008, 21009, 21100, 21199])
        XCTAssertTrue(answers.contains { $0.contains("\"latest_receipt_info\"") && $0.contains("\"pending_renewal_info\"") })
        XCTAssertTrue(answers.contains { $0.contains("\"expiration_date_pst\"") })
        let errors = try JSONSchemaOracle.errors(in: answers, schema: schema)
        for (answer, found) in zip(answers, errors) where !found.isEmpty {
            XCTFail("\(found) in \(answer.prefix(300))")
        }
    }

    /// The schema is strict enough to catch the mistakes a look-alike could make.
    func testTheSchemaRefusesWrongShapes() async throws {
        let valid = try await ServerHarness.with { try await $0.verify(Minted.receipt("valid")).text }
        let breaks: [(String, String)] = [
            ("in_app quantity a number", valid.replacingOccurrences(of: #""quantity":"1""#, with: #""quantity":1"#)),
            ("app_item_id a string", valid.replacingOccurrences(of: #""app_item_id":"#, with: #""app_item_id":"7","x":"#)),
            ("date in ISO form", valid.replacingOccurrences(of: " Etc/GMT", with: "Z")),
            ("status a string", #"{"status":"0"}"#),
            ("no receipt with 0", #"{"status":0,"environment":"Production"}"#),
            ("retryable without 211xx", #"{"status":21005,"is_retryable":true}"#),
            ("211xx without retryable", #"{"status":21150}"#),
            ("is-retryable spelt as in the old guide", #"{"status":21150,"is-retryable":true}"#),
            ("unknown status", #"{"status":21001}"#),
        ]
        XCTAssertFalse(breaks.contains { $0.1 == valid }, "every break changed the document")
        let errors = try JSONSchemaOracle.errors(in: [valid] + breaks.map(\.1), schema: schema)
        XCTAssertEqual(errors[0], [], "the real answer passes")
        for ((what, _), found) in zip(breaks, errors.dropFirst()) {
            XCTAssertFalse(found.isEmpty, "the schema accepts: \(what)")
        }
    }
}
