import ReceiptForge
import ReceiptVerifier
import StoreKit2
import XCTest
import StoreKit2Forge
import StoreKit2Verifier

/// Our `JWSVerifier` gives every case the status in its `case.json`, for the reason
/// the case is about (not merely the same status for another reason).
final class JWSCaseVerdictTests: XCTestCase {
    func testTheCatalogueHasWhatTheIssueAsksFor() {
        let catalogue = JWSCase.catalogue
        XCTAssertGreaterThanOrEqual(catalogue.count, 24)
        XCTAssertEqual(Set(catalogue.map(\.id)).count, catalogue.count, "ids are unique")
        for kind in JWSKind.allCases {
            XCTAssertTrue(catalogue.contains { $0.kind == kind && $0.expected == .ok }, "a valid \(kind)")
        }
        let statuses = Set(catalogue.map(\.expected))
        for status: JWSVerificationStatus in [.ok, .verificationFailure, .invalidAppIdentifier, .invalidChainLength,
                                              .invalidCertificate, .invalidEnvironment] {
            XCTAssertTrue(statuses.contains(status), "a case expecting \(status.rawValue)")
        }
    }

    func testOurVerifierGivesEveryCaseItsExpectedStatus() throws {
        for minted in Minted.cases {
            let description = minted.description
            let result = Minted.verifier(description.verifier).verify(minted.jws, kind: description.kind,
                                                                      currentTime: Minted.currentTime)
            XCTAssertEqual(result.status, description.expected.status, "\(description.id): \(result.detail)")
            for (field, expected) in description.expected.nested ?? [:] {
                let nested = try XCTUnwrap(try Minted.nested(field, of: minted.jws), "\(description.id) \(field)")
                let kind: JWSKind = field.hasSuffix("signedTransactionInfo") ? .transaction : .renewalInfo
                let status = Minted.verifier(description.verifier).verify(nested, kind: kind, currentTime: Minted.currentTime)
                XCTAssertEqual(status.status, expected, "\(description.id) \(field): \(status.detail)")
            }
        }
    }

    /// A root that does not parse makes the verification INVALID_CERTIFICATE, naming
    /// which root, however often the verifier is used.
    func testARootThatDoesNotParseIsNamed() throws {
        let valid = try XCTUnwrap(Minted.cases.first { $0.jwsCase.id == "transaction-production" })
        let settings = valid.description.verifier
        let genuine = settings.rootCertificates.map { Minted.forge.anchors[$0]! }
        let verifier = JWSVerifier(rootCertificates: genuine + [Array(genuine[0].prefix(40))], bundleId: settings.bundleId,
                                   appAppleId: settings.appAppleId, environment: settings.environment)
        for _ in 1...2 {
            let result = verifier.verify(valid.jws, kind: .transaction, currentTime: Minted.currentTime)
            XCTAssertEqual(result.status, .invalidCertificate, result.detail)
            XCTAssertTrue(result.detail.hasPrefix("root certificate \(genuine.count):"), result.detail)
        }
    }

    /// Each failing case fails at the step it is about (the detail names it).
    func testFailuresNameTheirCause() throws {
        let causes: [String: String] = [
            "transaction-tampered-payload": "signature", "transaction-tampered-signature": "signature",
            "transaction-der-signature": "64 bytes", "transaction-alg-none": "header.alg is 'none'",
            "transaction-hs256-key-confusion": "header.alg is 'HS256'", "transaction-jwk-header": "signature",
            "transaction-payload-not-object": "payload", "transaction-untrusted-root": "chain",
            "transaction-jwt-exp-passed": "claim exp",
            "transaction-x5c-one": "1 certificate", "transaction-x5c-two": "2 certificate",
            "transaction-x5c-four": "4 certificate", "transaction-x5c-missing": "x5c is missing",
            "transaction-x5c-empty": "x5c is empty", "transaction-certificate-not-der": "header.x5c[0]",
            "transaction-leaf-without-marker": "1.2.840.113635.100.6.11.1",
            "transaction-intermediate-without-marker": "1.2.840.113635.100.6.2.1",
            "transaction-leaf-expired-before-signed-date": "expired", "transaction-wrong-bundle": "bundleId",
            "notification-wrong-app-apple-id": "appAppleId", "app-transaction-wrong-app-apple-id": "appAppleId",
            "transaction-wrong-environment": "payload.environment", "renewal-info-wrong-environment": "payload.environment",
            "transaction-xcode-in-production": "1 certificate",
        ]
        for minted in Minted.cases where minted.description.expected.status != .ok {
            let cause = try XCTUnwrap(causes[minted.jwsCase.id], "no expected cause listed for \(minted.jwsCase.id)")
            let result = Minted.verifier(minted.description.verifier).verify(minted.jws, kind: minted.jwsCase.kind,
                                                                             currentTime: Minted.currentTime)
            XCTAssertTrue(result.detail.contains(cause), "\(minted.jwsCase.id): '\(result.detail)' does not mention '\(cause)'")
        }
    }

    /// The genuine transaction is refused under every wrong setting of the verifier.
    func testTheValidTransactionDependsOnEverySetting() throws {
        let minted = try XCTUnwrap(Minted.cases.first { $0.jwsCase.id == "transaction-production" })
        let root = Minted.forge.authority.root.certificate
        func status(_ roots: [[UInt8]], bundle: String = Minted.forge.app.bundleIdentifier, environment: JWSEnvironment = .production)
            -> JWSVerificationStatus {
            JWSVerifier(rootCertificates: roots, bundleId: bundle, appAppleId: Minted.forge.appAppleId, environment: environment)
                .verify(minted.jws, kind: .transaction, currentTime: Minted.currentTime).status
        }
        XCTAssertEqual(status([root]), .ok)
        XCTAssertEqual(status([]), .invalidCertificate)
        XCTAssertEqual(status([Array("not a certificate".utf8)]), .invalidCertificate)
        XCTAssertEqual(status([Minted.forge.authority.unrelatedRoot.certificate]), .verificationFailure)
        XCTAssertEqual(status([Minted.forge.authority.unrelatedRoot.certificate, root]), .ok)
        XCTAssertEqual(status([root], bundle: "com.example.other"), .invalidAppIdentifier)
        XCTAssertEqual(status([root], environment: .sandbox), .invalidEnvironment)
        // Given as the wrong kind, the payload lacks what that kind checks.
        XCTAssertEqual(JWSVerifier(rootCertificates: [root], bundleId: Minted.forge.app.bundleIdentifier, appAppleId: Minted.forge.appAppleId,
                                   environment: .production).verify(minted.jws, kind: .notification, currentTime: 0).status,
                       .invalidAppIdentifier)
    }

    /// The chain is checked at `signedDate`: the leaf that expired the day after is
    /// fine, and the same leaf fails when the payload has no date and the clock is late.
    func testTheChainIsCheckedAtTheSignedDate() throws {
        let minted = try XCTUnwrap(Minted.cases.first { $0.jwsCase.id == "transaction-leaf-expired-after-signed-date" })
        let verifier = Minted.verifier(minted.description.verifier)
        XCTAssertEqual(verifier.verify(minted.jws, kind: .transaction, currentTime: 0).status, .ok)
        let signedDate = try XCTUnwrap(minted.description.signedDate)
        XCTAssertLessThan(signedDate / 1000 + 86_400, Minted.currentTime, "the leaf has expired by now")
    }

    /// A JWT `exp` claim is compared with the clock: refused once passed, fine before.
    func testRegisteredClaimsUseTheClock() throws {
        let minted = try XCTUnwrap(Minted.cases.first { $0.jwsCase.id == "transaction-jwt-exp-passed" })
        let verifier = Minted.verifier(minted.description.verifier)
        let signedDate = try XCTUnwrap(minted.description.signedDate) / 1000
        XCTAssertEqual(verifier.verify(minted.jws, kind: .transaction, currentTime: signedDate).status, .verificationFailure,
                       "exp == now has passed (PyJWT: exp <= now)")
        XCTAssertEqual(verifier.verify(minted.jws, kind: .transaction, currentTime: signedDate - 1).status, .ok)
    }
}
