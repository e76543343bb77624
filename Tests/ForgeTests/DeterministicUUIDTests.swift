import ForgeSupport
import XCTest

/// The one deterministic UUID: each derivation against values computed independently
/// (Python: SplitMix64 with the FNV-1a label, hashlib's SHA-256).
final class DeterministicUUIDTests: XCTestCase {
    func testTheFormIsLowercase84444412WithLeadingZeros() {
        XCTAssertEqual(DeterministicUUID(high: 0x0001_0203_0405_060A, low: 0xFF00_0000_0000_0001).description,
                       "00010203-0405-060a-ff00-000000000001")
        XCTAssertEqual(DeterministicUUID(bytes: [0, 1, 2, 3, 4, 5, 6, 0x0A, 0xFF, 0, 0, 0, 0, 0, 0, 1]),
                       DeterministicUUID(high: 0x0001_0203_0405_060A, low: 0xFF00_0000_0000_0001))
    }

    func testSeedAndLabelGiveAVersion4UUIDOfTheLabelsStream() {
        XCTAssertEqual(DeterministicUUID(seed: 1, label: "test-notification:Production:1").description,
                       "78ae68c1-96fd-4726-817e-d29bae4adfb4")
        var random = DeterministicRandom(seed: 1, label: "test-notification:Production:1")
        XCTAssertEqual(DeterministicUUID(drawingFrom: &random), DeterministicUUID(seed: 1, label: "test-notification:Production:1"))
    }

    /// The JWS forge's derivation: SHA-256 of `seed:label`, its first 16 bytes, version 4.
    func testVersion4SetsTheVersionAndVariantBitsOnly() {
        let digestPrefix: [UInt8] = [0x26, 0x65, 0x85, 0xa5, 0x07, 0x13, 0x56, 0xf6, 0xb3, 0x62, 0x21, 0xc0, 0xfc, 0xc9, 0xec, 0x23]
        XCTAssertEqual(DeterministicUUID(bytes: digestPrefix).version4.description, "266585a5-0713-46f6-b362-21c0fcc9ec23")
        XCTAssertEqual(DeterministicUUID(high: .max, low: .max).version4.description, "ffffffff-ffff-4fff-bfff-ffffffffffff")
        XCTAssertEqual(DeterministicUUID(high: 0, low: 0).version4.description, "00000000-0000-4000-8000-000000000000")
    }
}
