import APIMessage
import AppInput
import StoreControlAPI
import StoreServerAPI
import XCTest

/// The one prefix router both APIs route by: production's prefix or the sandbox's, the
/// rest up to a query.
final class EnvironmentPrefixesTests: XCTestCase {
    func testEachPrefixNamesItsEnvironmentAndTheQueryIsCutOff() {
        let prefixes = EnvironmentPrefixes(production: "/api/", sandbox: "/sandbox/api/")
        XCTAssertEqual(prefixes.route("/api/v1/x")?.environment, .production)
        XCTAssertEqual(prefixes.route("/api/v1/x").map { String($0.rest) }, "v1/x")
        XCTAssertEqual(prefixes.route("/sandbox/api/v1/x?a=1&b")?.environment, .sandbox)
        XCTAssertEqual(prefixes.route("/sandbox/api/v1/x?a=1&b").map { String($0.rest) }, "v1/x")
        XCTAssertEqual(prefixes.route("/api/?x").map { String($0.rest) }, "")
        XCTAssertNil(prefixes.route("/api"))
        XCTAssertNil(prefixes.route("/other/api/v1"))
        XCTAssertNil(prefixes.route("?/api/v1"))
        XCTAssertEqual(prefixes.prefix(of: .production), "/api/")
        XCTAssertEqual(prefixes.prefix(of: .sandbox), "/sandbox/api/")
    }

    /// Both APIs cut the query off alike.
    func testTheServerAPIAndTheControlAPIRouteAlike() {
        XCTAssertEqual(ServerAPIEndpoint.route(method: "GET", path: "/sandbox/inApps/v1/transactions/7?x=1"),
                       .endpoint(.transactionInfo(transactionId: "7"), .sandbox))
        XCTAssertEqual(ControlPath("/sandbox/forge/v1/state?x=1"), ControlPath("/sandbox/forge/v1/state"))
        XCTAssertEqual(ControlPath("/sandbox/forge/v1/state")?.verbName, "state")
        XCTAssertEqual(ControlPath("/sandbox/forge/v1/state")?.environment, .sandbox)
    }
}
