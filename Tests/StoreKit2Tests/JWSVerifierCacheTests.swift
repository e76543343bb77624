import ReceiptForge
import ReceiptVerifier
import StoreKit2
import XCTest

/// A `JWSVerifier` with a `SignatureCache` gives every case the same status and detail
/// as one without, twice over, and the second pass is served from the cache.
final class JWSVerifierCacheTests: XCTestCase {
    func testACachedVerifierAgreesWithAnUncachedOneOnEveryCase() {
        let cache = SignatureCache()
        for pass in 1...2 {
            for minted in Minted.cases {
                let settings = minted.description.verifier
                let plain = Minted.verifier(settings).verify(minted.jws, kind: minted.jwsCase.kind, currentTime: Minted.currentTime)
                let cached = Minted.verifier(settings, cache: cache)
                    .verify(minted.jws, kind: minted.jwsCase.kind, currentTime: Minted.currentTime)
                XCTAssertEqual(cached.status, plain.status, "pass \(pass), \(minted.jwsCase.id): \(cached.detail)")
                XCTAssertEqual(cached.detail, plain.detail, "pass \(pass), \(minted.jwsCase.id)")
            }
            if pass == 1 {
                XCTAssertGreaterThan(cache.statistics.entries, 0, "the first pass stores the verified pairs")
                XCTAssertGreaterThan(cache.statistics.misses, 0)
            }
        }
        let statistics = cache.statistics
        XCTAssertGreaterThan(statistics.hits, statistics.entries, "the second pass is served from the cache: \(statistics)")
    }

    /// A chain whose leaf was changed after signing is never a cache hit, even after the
    /// genuine chain was cached.
    func testAChangedLeafIsNotServedFromTheCache() throws {
        let cache = SignatureCache()
        let valid = try XCTUnwrap(Minted.cases.first { $0.jwsCase.id == "transaction-production" })
        let verifier = Minted.verifier(valid.description.verifier, cache: cache)
        XCTAssertEqual(verifier.verify(valid.jws, kind: .transaction, currentTime: Minted.currentTime).status, .ok)
        let compact = try CompactJWS(valid.jws)
        var header = try StoreKit2JSON.decode(JWSHeader.self, from: compact.header, at: "header")
        var leaf = try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(header.x5c?.first)))
        leaf[leaf.count - 1] ^= 0x01  // the leaf's own signature, by the intermediate
        header.x5c![0] = leaf.base64EncodedString()
        let changed = CompactJWS(header: StoreKit2JSON.encode(header), payload: compact.payload, signature: compact.signature)
        let result = verifier.verify(changed.serialized, kind: .transaction, currentTime: Minted.currentTime)
        XCTAssertEqual(result.status, .verificationFailure, result.detail)
    }
}
