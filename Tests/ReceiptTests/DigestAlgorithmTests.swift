import BER
import Foundation
import Receipt
import TestSupport
import XCTest

/// The one `DigestAlgorithm`: identifiers, lengths and digests of every case.
final class DigestAlgorithmTests: XCTestCase {
    /// The "abc" vectors of RFC 1321 and FIPS 180-2, with each algorithm's OID (RFC 3279, RFC 5754).
    static let table: [(DigestAlgorithm, oid: String, abc: String)] = [
        (.md5, "1.2.840.113549.2.5", "900150983cd24fb0d6963f7d28e17f72"),
        (.sha1, "1.3.14.3.2.26", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        (.sha256, "2.16.840.1.101.3.4.2.1", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (.sha384, "2.16.840.1.101.3.4.2.2",
         "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"),
        (.sha512, "2.16.840.1.101.3.4.2.3",
         "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
    ]

    func testEveryAlgorithmAgainstKnownVectors() throws {
        XCTAssertEqual(Self.table.map(\.0), DigestAlgorithm.allCases)
        for (algorithm, dotted, abc) in Self.table {
            let oid = try XCTUnwrap(OID(dotted: dotted))
            XCTAssertEqual(algorithm.oid, oid, algorithm.rawValue)
            XCTAssertEqual(DigestAlgorithm(oid: oid), algorithm)
            XCTAssertEqual(oid.shortName, algorithm.rawValue)
            XCTAssertEqual(algorithm.digest(Array("abc".utf8)), bytes(hex: abc), algorithm.rawValue)
            XCTAssertEqual(algorithm.digest(Data()).count, algorithm.digestLength, algorithm.rawValue)
        }
        XCTAssertNil(DigestAlgorithm(oid: .sha256WithRSAEncryption))
        XCTAssertNil(DigestAlgorithm(oid: "2.16.840.1.101.3.4.2.4"))  // SHA-224: not one of ours
    }

    /// The raw values are written into case.json (`digest`): they must not change.
    func testRawValuesAreStable() throws {
        XCTAssertEqual(DigestAlgorithm.allCases.map(\.rawValue), ["md5", "sha1", "sha256", "sha384", "sha512"])
        let json = try JSONEncoder().encode([DigestAlgorithm.md5, .sha512])
        XCTAssertEqual(String(decoding: json, as: UTF8.self), #"["md5","sha512"]"#)
        XCTAssertEqual(try decodeJSON([DigestAlgorithm].self, from: json), [.md5, .sha512])
    }
}
