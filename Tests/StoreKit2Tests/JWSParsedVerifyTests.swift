import ReceiptForge
import ReceiptVerifier
import StoreKit2
import XCTest
import StoreKit2Verifier

/// `JWSVerifier.verify(_: CompactJWS, …)` (a JWS already parsed) gives the verdict
/// `verify(_: String, …)` gives for its text, on every minted case, and checks the
/// signature over the parts as received.
final class JWSParsedVerifyTests: XCTestCase {
    func testAParsedJWSGetsTheVerdictOfItsText() throws {
        var statuses: Set<JWSVerificationStatus> = []
        for minted in Minted.cases {
            let verifier = Minted.verifier(minted.description.verifier)
            let text = verifier.verify(minted.jws, kind: minted.jwsCase.kind, currentTime: Minted.currentTime)
            let parsed = verifier.verify(try CompactJWS(minted.jws), kind: minted.jwsCase.kind, currentTime: Minted.currentTime)
            XCTAssertEqual(parsed.status, text.status, "\(minted.jwsCase.id): \(parsed.detail)")
            XCTAssertEqual(parsed.detail, text.detail, minted.jwsCase.id)
            XCTAssertEqual(parsed.payload, text.payload, minted.jwsCase.id)
            statuses.insert(parsed.status)
        }
        // The catalogue reaches OK and several refusals, so the two agree on more than one outcome.
        XCTAssertTrue(statuses.contains(.ok))
        XCTAssertGreaterThan(statuses.count, 2, "\(statuses)")
    }

    /// A parse built from decoded parts carries its own signing input: a payload changed
    /// after signing fails at the signature, as its text does.
    func testAChangedPayloadFailsAtTheSignature() throws {
        let valid = try XCTUnwrap(Minted.cases.first { $0.jwsCase.id == "transaction-production" })
        let verifier = Minted.verifier(valid.description.verifier)
        let compact = try CompactJWS(valid.jws)
        XCTAssertEqual(verifier.verify(compact, kind: .transaction, currentTime: Minted.currentTime).status, .ok)
        var payload = compact.payload
        let space = try XCTUnwrap(payload.firstIndex(of: UInt8(ascii: "{")))
        payload.insert(UInt8(ascii: " "), at: space + 1)  // same JSON, other bytes
        let changed = CompactJWS(header: compact.header, payload: payload, signature: compact.signature)
        let result = verifier.verify(changed, kind: .transaction, currentTime: Minted.currentTime)
        XCTAssertEqual(result.status, .verificationFailure)
        XCTAssertEqual(result.signatureFailure, .signatureMismatch, result.detail)
        XCTAssertEqual(verifier.verify(changed.serialized, kind: .transaction, currentTime: Minted.currentTime).detail, result.detail)
    }

    /// Text that is no compact JWS is refused before any parse exists, naming why.
    func testTextThatIsNoJWSIsRefused() {
        let verifier = JWSVerifier(rootCertificates: [], bundleId: "b", appAppleId: nil, environment: .production)
        let result = verifier.verify("a.b", kind: .transaction, currentTime: 0)
        XCTAssertEqual(result.status, .verificationFailure)
        XCTAssertTrue(result.detail.hasPrefix("not a JWS: "), result.detail)
    }
}
