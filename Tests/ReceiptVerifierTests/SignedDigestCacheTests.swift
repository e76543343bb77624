import Receipt
import XCTest
@testable import ReceiptVerifier

/// The receipt-signature half of `SignatureCache`: a hit needs the same key, digest
/// algorithm, digest and signature, byte for byte — including inputs that hash alike.
final class SignedDigestCacheTests: XCTestCase {
    let digest = [UInt8](repeating: 0x5A, count: 32)
    let signature = (0..<256).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }

    func key() throws -> RSAPublicKey {
        try XCTUnwrap(Certificate(SignerLookupTests.leaf).publicKey.rsa, "the committed leaf has an RSA key")
    }

    func testOnlyTheExactTripleHits() throws {
        let cache = SignatureCache()
        let key = try key()
        XCTAssertFalse(cache.containsVerifiedSignature(signature, digest: digest, algorithm: .sha256, key: key))
        cache.insertVerifiedSignature(signature, digest: digest, algorithm: .sha256, key: key)
        XCTAssertTrue(cache.containsVerifiedSignature(signature, digest: digest, algorithm: .sha256, key: key))

        // A signature differing outside the hashed last 16 bytes: same hash, no hit.
        var early = signature
        early[0] ^= 1
        XCTAssertFalse(cache.containsVerifiedSignature(early, digest: digest, algorithm: .sha256, key: key))
        var late = signature
        late[255] ^= 1
        XCTAssertFalse(cache.containsVerifiedSignature(late, digest: digest, algorithm: .sha256, key: key))
        var otherDigest = digest
        otherDigest[31] ^= 0x80
        XCTAssertFalse(cache.containsVerifiedSignature(signature, digest: otherDigest, algorithm: .sha256, key: key))
        XCTAssertFalse(cache.containsVerifiedSignature(signature, digest: Array(digest.prefix(20)), algorithm: .sha1, key: key))
        // Another key (the modulus changed in its top byte; not part of the hash).
        var modulus = key.modulus
        modulus[0] ^= 0x01
        let otherKey = try RSAPublicKey(modulus: modulus, exponent: key.exponent)
        XCTAssertFalse(cache.containsVerifiedSignature(signature, digest: digest, algorithm: .sha256, key: otherKey))
        let otherExponent = try RSAPublicKey(modulus: key.modulus, exponent: [0x03])
        XCTAssertFalse(cache.containsVerifiedSignature(signature, digest: digest, algorithm: .sha256, key: otherExponent))

        let statistics = cache.statistics
        XCTAssertEqual(statistics.signatures, 1)
        XCTAssertEqual(statistics.signatureHits, 1)
        XCTAssertEqual(statistics.signatureMisses, 7)
        XCTAssertEqual(statistics.entries, 0, "certificate pairs are counted apart")
        cache.removeAll()
        XCTAssertEqual(cache.statistics.signatures, 0)
        XCTAssertFalse(cache.containsVerifiedSignature(signature, digest: digest, algorithm: .sha256, key: key))
    }

    func testCapacityStartsOver() throws {
        let cache = SignatureCache(capacity: 2)
        let key = try key()
        for index in 0..<3 {
            var digest = digest
            digest[0] = UInt8(index)
            cache.insertVerifiedSignature(signature, digest: digest, algorithm: .sha256, key: key)
        }
        XCTAssertEqual(cache.statistics.signatures, 1)
    }
}
