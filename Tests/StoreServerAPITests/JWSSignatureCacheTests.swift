import ForgeCA
import StoreKit2
@testable import StoreServerAPI
import XCTest

/// The cache signs each payload once and never holds more than its capacity.
final class JWSSignatureCacheTests: XCTestCase {
    func testRepeatsAreServedAndTheSizeIsBounded() throws {
        let cache = JWSSignatureCache(authority: .committed, capacity: 2)
        let payloads = (0..<3).map { Array(#"{"n":\#($0)}"#.utf8) }
        let first = try cache.sign(payloads[0])
        XCTAssertEqual(try cache.sign(payloads[0]), first)
        XCTAssertEqual(cache.signaturesMade, 1)
        XCTAssertEqual(try CompactJWS(first).payload, payloads[0])
        for payload in payloads.dropFirst() { _ = try cache.sign(payload) }
        XCTAssertEqual(cache.signaturesMade, 3)
        XCTAssertEqual(cache.count, 2, "one signature was evicted to stay within the capacity")
    }
}
