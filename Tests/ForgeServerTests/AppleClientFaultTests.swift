import ForgeServer
import Foundation
import LocalAppStore
import ReceiptForge
import StoreAPIAuthentication
import StoreServerAPI
import StrictJSON
import TestSupport
import XCTest

/// Apple's Python client meets a `4290000` fault and `--rate-limits apple` as Apple's
/// server would make it: `APIException` with `RATE_LIMIT_EXCEEDED` and HTTP 429.
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
final class AppleClientFaultTests: XCTestCase {
    func testApplesClientSeesRateLimitExceededFromAFaultAndFromTheLimit() async throws {
        try PythonOracle.require(module: "appstoreserverlibrary")
        var options = ServeOptions()
        options.rateLimits = .apple
        // One fixed instant: all 51 requests fall in one second of the limiter's clock
        // (and the client's five-minute tokens are checked against it).
        let fixed = Date()
        options.clock = { fixed }
        let run = try await ApplePythonClient.withTestKey { key, keyFile, _ in
            try await ServerHarness.with(options) { server in
                let arguments = [keyFile.path, key.keyIdentifier, key.issuerIdentifier, LocalAppStores.defaultBundleIdentifier, server.base]
                return try await ApplePythonClient.run(Self.script, arguments: arguments, deadline: .seconds(120))
            }
        }
        XCTAssertEqual(run.status, 0, run.standardError)
        let report = try JSONValue(json: run.standardOutput)
        XCTAssertEqual(report["fault"]?.stringValue, "RATE_LIMIT_EXCEEDED 429", run.standardOutput)
        XCTAssertEqual(report["limit"]?.arrayValue?.map { $0.stringValue ?? "?" },
                       Array(repeating: "TRANSACTION_ID_NOT_FOUND 404", count: 50) + ["RATE_LIMIT_EXCEEDED 429"], run.standardOutput)
    }

    /// argv: key file, key id, issuer id, bundle id, base URL. Prints `{"fault": …, "limit": [...]}`,
    /// each entry the `APIException`'s `api_error` name and HTTP status.
    static let script = #"""
import json, sys
from appstoreserverlibrary.api_client import AppStoreServerAPIClient, APIException
from appstoreserverlibrary.models.Environment import Environment

key_file, key_id, issuer, bundle_id, base = sys.argv[1:6]

def client(headers=None):
    made = AppStoreServerAPIClient(open(key_file, "rb").read(), key_id, issuer, bundle_id, Environment.PRODUCTION)
    made._base_url = base
    if headers:
        original = made._get_headers
        made._get_headers = lambda: {**original(), **headers}
    return made

def outcome(call):
    try:
        call()
        return "no APIException"
    except APIException as e:
        return "%s %d" % (e.api_error.name if e.api_error is not None else e.raw_api_error, e.http_status_code)

faulty = client({"X-Forge-Fault": "4290000"})
plain = client()
report = {"fault": outcome(lambda: faulty.get_transaction_info("1")),
          "limit": [outcome(lambda: plain.get_transaction_info("1")) for _ in range(51)]}
print(json.dumps(report))
"""#
}
