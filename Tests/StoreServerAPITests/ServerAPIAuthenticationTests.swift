import StoreAPIAuthentication
import StoreServerAPI
import StrictJSON
import XCTest

/// The gate: a good token passes, each bad one is 401 `Unauthenticated` naming its check,
/// checked against the wall clock; `.disabled` lets everything through.
final class ServerAPIAuthenticationTests: XCTestCase {
    let fixture = Fixture()

    func testFailuresAre401WithTheirReason() throws {
        let cases: [(String?, AuthenticationError.Reason)] = [
            (nil, .missingAuthorization),
            ("Basic dXNlcjpwYXNz", .malformedAuthorization),
            ("Bearer not-a-jwt", .malformedToken),
            (try Fixture.authorization(claims: ["aud": "appstoreconnect-v2"]), .audience),
            (try Fixture.authorization(claims: ["bid": "com.example.other"]), .bundleIdentifier),
            (try Fixture.authorization(claims: ["exp": .number(String(Int(Fixture.wallNow.timeIntervalSince1970) - 1))]), .expired),
            (try Fixture.authorization(claims: ["iss": "someone-else"]), .issuer),
            (try Fixture.authorization(signer: .init()), .signature),
        ]
        for (authorization, reason) in cases {
            for path in ["/inApps/v1/transactions/1", "/sandbox/inApps/v1/transactions/1", "/inApps/v9/unknown"] {
                let response = try fixture.send("GET", path, authorization: .some(authorization))
                XCTAssertEqual(response.status, 401, "\(reason)")
                XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "Unauthenticated")
                XCTAssertEqual(response.header("Content-Type"), "text/plain")
                XCTAssertEqual(response.header("X-Forge-Auth-Failure"), reason.rawValue)
            }
        }
    }

    func testTheWallClockNotTheStoreClockJudgesTokens() throws {
        // The store's clock is months behind the wall clock of the fixture; a token valid
        // now by the wall clock passes, whatever the store's instant.
        let storeNow = fixture.stores.production.read { $0.now }
        XCTAssertLessThan(storeNow / 1000, Int64(Fixture.wallNow.timeIntervalSince1970) - 86_400)
        Fixture.assertError(try fixture.send("GET", "/inApps/v1/transactions/1"), .transactionIdNotFound)
    }

    func testDisabledAuthenticationAnswersWithoutAToken() throws {
        let open = Fixture(authentication: .disabled)
        Fixture.assertError(try open.send("GET", "/inApps/v1/transactions/1", authorization: .some(nil)), .transactionIdNotFound)
    }
}
