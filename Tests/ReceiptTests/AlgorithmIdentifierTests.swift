import BER
import Receipt
import TestSupport
import XCTest

/// The one `AlgorithmIdentifier`: written and read back, parameters kept as they are.
final class AlgorithmIdentifierTests: XCTestCase {
    func testWriteAndReadBack() throws {
        let table: [(AlgorithmIdentifier, hex: String, null: Bool, absentOrNull: Bool)] = [
            (AlgorithmIdentifier(oid: .sha256), "300d06096086480165030402010500", true, true),
            (AlgorithmIdentifier(oid: .sha1, parameters: nil), "300706052b0e03021a", false, true),
            (AlgorithmIdentifier(oid: .rsaEncryption, parameters: [0x02, 0x01, 0x00]),
             "300e06092a864886f70d010101020100", false, false),
        ]
        for (identifier, hex, null, absentOrNull) in table {
            var writer = BERWriter()
            writer.appendAlgorithmIdentifier(identifier)
            XCTAssertEqual(hexString(writer.bytes), hex)
            var reader = BERReader(writer.bytes, rules: .der)
            XCTAssertEqual(try reader.readAlgorithmIdentifier(), identifier)
            XCTAssertTrue(reader.isAtEnd)
            XCTAssertEqual(identifier.hasNullParameters, null, hex)
            XCTAssertEqual(identifier.hasAbsentOrNullParameters, absentOrNull, hex)
        }
    }

    func testMalformedIdentifiersAreRefused() {
        let table: [(name: String, hex: String, code: BERError.Code)] = [
            ("a SET", "310706052b0e03021a", .unexpectedTag),
            ("no OID", "30020500", .unexpectedTag),
            ("empty", "3000", .unexpectedTag),
            ("two parameters", "300b06052b0e03021a05000500", .trailingData),
            ("truncated", "300906052b0e03021a", .lengthExceedsInput),
        ]
        for entry in table {
            var reader = BERReader(bytes(hex: entry.hex), rules: .der)
            XCTAssertThrowsError(try reader.readAlgorithmIdentifier(), entry.name) {
                XCTAssertEqual(($0 as? BERError)?.code, entry.code, "\(entry.name): \($0)")
            }
        }
    }
}
