import Crypto
import Foundation
import StoreAPIAuthentication
import StoreKit2
import XCTest

/// A token that passed is remembered by its exact text: the same token again costs no
/// signature check, yet every answer (result, reason and message) is the one a fresh
/// verifier gives for that token at that clock reading, however the clock moves.
final class VerifiedTokenCacheTests: XCTestCase {
    typealias Token = BearerTokenVerifierTests.Token
    let now = BearerTokenVerifierTests.now

    private func verifier() throws -> BearerTokenVerifier {
        try BearerTokenVerifier(keys: [BearerTokenVerifierTests.key.apiKey], bundleIdentifier: BearerTokenVerifierTests.bundleIdentifier)
    }

    /// The answer as a comparable value: the claims, or the reason and message.
    private func answer(_ result: Result<AuthenticatedToken, AuthenticationError>) -> String {
        switch result {
        case .success(let token): return "ok \(token)"
        case .failure(let failure): return "refused \(failure.description)"
        }
    }

    func testTheSameTokenIsCheckedOnce() throws {
        let cached = try verifier()
        let authorization = try Token().authorization()
        for _ in 0..<3 { XCTAssertNoThrow(try cached.verify(authorization: authorization, now: now).get()) }
        XCTAssertNoThrow(try cached.verify(authorization: authorization.replacingOccurrences(of: "Bearer ", with: "bearer "), now: now).get())
        XCTAssertEqual(cached.signatureChecks, 1)
    }

    /// After the good token is remembered, a token differing from it in one byte of the
    /// signature or of the claims is verified in full and refused.
    func testAChangedTokenIsStillRefused() throws {
        let cached = try verifier()
        let authorization = try Token().authorization()
        XCTAssertNoThrow(try cached.verify(authorization: authorization, now: now).get())
        let parts = authorization.dropFirst("Bearer ".count).split(separator: ".").map(String.init)
        var signature = try Base64URL.decode(parts[2])
        signature[10] ^= 0x01
        var other = Token()
        other.set("bid", #""com.example.other""#)
        let changed = [
            "Bearer \(parts[0]).\(parts[1]).\(Base64URL.encode(signature))",
            "Bearer \(parts[0]).\(Base64URL.encode(Array(Token.object(other.claims).utf8))).\(parts[2])",
            authorization + "A",
        ]
        for text in changed {
            let result = cached.verify(authorization: text, now: now)
            XCTAssertNotNil(result.failureReason, text)
            XCTAssertEqual(answer(result), answer(try verifier().verify(authorization: text, now: now)))
        }
        XCTAssertEqual(cached.verify(authorization: changed[0], now: now).failureReason, .signature)
        XCTAssertEqual(cached.verify(authorization: changed[1], now: now).failureReason, .signature)
    }

    /// A remembered token is refused once it has expired, and refused as issued in the
    /// future when the clock goes back before its `iat`, with a fresh verifier's message.
    func testClockChecksStillApplyToARememberedToken() throws {
        let cached = try verifier()
        var withIssuedAt = Token()
        withIssuedAt.set("iat", String(Int(now.timeIntervalSince1970) + 30))
        withIssuedAt.set("exp", String(Int(now.timeIntervalSince1970) + 300))
        var pythonStyle = Token()
        pythonStyle.set("iat", nil)
        // ECDSA signatures are randomised: each token's text is made once and kept.
        let authorizations = try [Token(), withIssuedAt, pythonStyle].map { try $0.authorization() }
        for authorization in authorizations {
            XCTAssertNoThrow(try cached.verify(authorization: authorization, now: now).get())
            let readings = [0.0, 239, 240, 241, 299.5, 300, 10_000, -1, -89, -91, -10_000].map { now.addingTimeInterval($0) }
            for reading in readings {
                XCTAssertEqual(answer(cached.verify(authorization: authorization, now: reading)),
                               answer(try verifier().verify(authorization: authorization, now: reading)), "at \(reading)")
            }
        }
        XCTAssertEqual(cached.verify(authorization: authorizations[0], now: now.addingTimeInterval(240)).failureReason, .expired)
        XCTAssertEqual(cached.verify(authorization: authorizations[1], now: now.addingTimeInterval(-31)).failureReason, .issuedInFuture)
        XCTAssertEqual(cached.signatureChecks, 3, "each token's signature checked once")
    }

    /// A refused token is not remembered: it is verified again each time.
    func testARefusedTokenIsNotRemembered() throws {
        let cached = try verifier()
        var future = Token()
        future.set("iat", String(Int(now.timeIntervalSince1970) + 120))
        future.set("exp", String(Int(now.timeIntervalSince1970) + 600))
        let authorization = try future.authorization()
        XCTAssertEqual(cached.verify(authorization: authorization, now: now).failureReason, .issuedInFuture)
        XCTAssertEqual(cached.verify(authorization: authorization, now: now).failureReason, .issuedInFuture)
        XCTAssertEqual(cached.signatureChecks, 2)
        XCTAssertNoThrow(try cached.verify(authorization: authorization, now: now.addingTimeInterval(70)).get(), "valid once iat is near")
        XCTAssertEqual(cached.signatureChecks, 3)
    }

    /// More tokens than the cache holds: every one still passes, the expired ones make
    /// room first, and answers stay right.
    func testMoreTokensThanTheCapacity() throws {
        let cached = try verifier()
        let count = BearerTokenVerifier.verifiedTokenCapacity + 5
        var tokens: [String] = []
        for index in 0..<count {
            var token = Token()
            token.set("nonce", "\"\(index)\"")
            token.set("exp", String(Int(now.timeIntervalSince1970) + (index < 3 ? 10 : 240)))
            tokens.append(try token.authorization())
        }
        for (index, authorization) in tokens.enumerated() {
            let reading = now.addingTimeInterval(index < 3 ? 0 : 20)
            XCTAssertNoThrow(try cached.verify(authorization: authorization, now: reading).get(), "token \(index)")
        }
        XCTAssertEqual(cached.verify(authorization: tokens[0], now: now.addingTimeInterval(20)).failureReason, .expired)
        XCTAssertNoThrow(try cached.verify(authorization: tokens[count - 1], now: now.addingTimeInterval(20)).get())
        XCTAssertEqual(cached.signatureChecks, count + 1, "the expired token was dropped, so checked again")
    }

    /// Many tasks verifying the same and different tokens at once (run under TSan by scripts/tsan).
    func testConcurrentVerificationsAgree() async throws {
        let cached = try verifier()
        let good = try Token().authorization()
        var expired = Token()
        expired.set("exp", String(Int(now.timeIntervalSince1970) - 1))
        let bad = try expired.authorization()
        let forged = try Token().authorization(signer: P256.Signing.PrivateKey())
        let now = self.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for round in 0..<50 {
                        var unique = Token()
                        unique.set("nonce", "\"\(task)-\(round)\"")
                        let mine = try unique.authorization()
                        XCTAssertNoThrow(try cached.verify(authorization: good, now: now).get())
                        XCTAssertNoThrow(try cached.verify(authorization: mine, now: now).get())
                        XCTAssertEqual(cached.verify(authorization: bad, now: now).failureReason, .expired)
                        XCTAssertEqual(cached.verify(authorization: forged, now: now).failureReason, .signature)
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
