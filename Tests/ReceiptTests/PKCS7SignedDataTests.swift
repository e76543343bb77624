import BER
import Receipt
import ReceiptForge
import TestSupport
import XCTest

final class PKCS7SignedDataTests: XCTestCase {
    func realReceipt(_ name: String) throws -> [UInt8] {
        let entries = try RealReceipts.entries()  // skips or fails (CI) without the folder
        let entry = try XCTUnwrap(entries.first { $0.file.hasSuffix(name) })
        return try RealReceipts.bytes(of: entry)
    }

    func testAppStoreReceiptStructure() throws {
        let bytes = try realReceipt("TPInAppReceipt__receipt-production.receipt")
        let container = try PKCS7SignedData(bytes: bytes)
        XCTAssertEqual(container.version, 1)
        XCTAssertEqual(container.encapsulatedContentType, .pkcs7Data)
        XCTAssertEqual(container.encoding, .definite)
        XCTAssertFalse(container.payloadIsSegmented)
        XCTAssertNil(container.crls)
        // Certificates kept as raw slices of the input, in chain order.
        for certificate in container.certificates {
            XCTAssertNotNil(bytes.firstRange(of: certificate))
        }
        let signer = try XCTUnwrap(container.signerInfos.first)
        XCTAssertEqual(signer.version, 1)
        guard case .issuerAndSerialNumber(let issuer, let serial) = signer.signerIdentifier else {
            return XCTFail("expected issuerAndSerialNumber")
        }
        XCTAssertEqual(TestSupport.hexString(serial), "15e79fce52550a65017c91dfe4eeb359")
        XCTAssertNotNil(container.certificates[0].firstRange(of: issuer), "the leaf's issuer, as received")
        XCTAssertEqual(signer.digestAlgorithm.oid, .sha256)
        XCTAssertEqual(signer.digestAlgorithm.parameters, [0x05, 0x00])
        XCTAssertEqual(signer.signatureAlgorithm.oid, .rsaEncryption)
        XCTAssertNil(signer.signedAttributes)
    }

    func testXcodeReceiptIsIndefiniteAndSegmented() throws {
        let container = try PKCS7SignedData(bytes: try realReceipt("TPInAppReceipt__receipt-xcode.receipt"))
        XCTAssertEqual(container.encoding, .berIndefinite)
        XCTAssertTrue(container.payloadIsSegmented)
        XCTAssertEqual(container.certificates.count, 1)
        XCTAssertEqual(container.payload?.count, 383)
    }

    /// swift-asn1's drip-feed: every strict prefix of a real receipt fails with a typed error.
    func testEveryStrictPrefixOfARealReceiptFailsCleanly() throws {
        for name in ["TPInAppReceipt__receipt-xcode.receipt", "AppReceiptValidator__hannes_mac_mindnode_receipt.receipt"] {
            assertEveryStrictPrefixFails(try realReceipt(name), name)
        }
    }

    /// The same on the forge's receipts, which every run has: DER App Store, BER
    /// indefinite Xcode, and nested constructed OCTET STRINGs.
    func testEveryStrictPrefixOfAForgeReceiptFailsCleanly() throws {
        let forge = Forge()
        for id in ["valid", "xcode-storekit", "nested-octet-string"] {
            let bytes = try XCTUnwrap(try forge.mint(XCTUnwrap(ForgeCase.named(id))).receipt, id)
            XCTAssertNoThrow(try PKCS7SignedData(bytes: bytes).decodeReceipt(), id)
            assertEveryStrictPrefixFails(bytes, id)
        }
    }

    private func assertEveryStrictPrefixFails(_ bytes: [UInt8], _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        for length in 0..<bytes.count {
            XCTAssertThrowsError(try PKCS7SignedData(bytes: Array(bytes.prefix(length))), "\(name) \(length)",
                                 file: file, line: line) { error in
                XCTAssertTrue(error is ReceiptError, "\(name) prefix \(length): \(error)", file: file, line: line)
            }
        }
    }

    func testStructuralErrorsNameTheirPlace() throws {
        let bytes = try realReceipt("AppReceiptValidator__hannes_mac_mindnode_receipt.receipt")
        func expectMalformed(_ input: [UInt8], _ code: BERError.Code, path: String, _ name: String) {
            XCTAssertThrowsError(try PKCS7SignedData(bytes: input), name) { error in
                guard case .malformed(let berError)? = error as? ReceiptError else { return XCTFail("\(name): \(error)") }
                XCTAssertEqual(berError.code, code, "\(name): \(berError)")
                XCTAssertTrue(berError.pathDescription.hasPrefix(path), "\(name): \(berError.pathDescription)")
            }
        }
        expectMalformed(bytes + [0x00], .trailingData, path: "contentInfo", "trailing byte")
        var wrongType = bytes
        let signedData = try XCTUnwrap(bytes.firstRange(of: OID.pkcs7SignedData.encoded))
        wrongType[signedData.upperBound - 1] = 0x01  // 1.2.840.113549.1.7.1 (data)
        expectMalformed(wrongType, .unexpectedTag, path: "contentInfo.contentType", "data instead of signedData")
        var badVersion = bytes
        let version = try XCTUnwrap(bytes.firstRange(of: [0x02, 0x01, 0x01, 0x31]))
        badVersion[version.lowerBound] = 0x04
        expectMalformed(badVersion, .unexpectedTag, path: "contentInfo.signedData.version", "version not an INTEGER")
    }

    func testNonPKCS7InputGetsAReason() {
        let cases: [([UInt8], NotPKCS7, String)] = [
            ([], .empty, "the file is empty"),
            (Array("{\n\t\"signature\" = \"AA\";\n}".utf8), .transactionReceipt, "iOS 6"),
            (Array("<?xml version=\"1.0\"?><plist>".utf8), .transactionReceipt, "iOS 6"),
            (Array("MIIT".utf8), .base64Text, "base64"),
            ([0x04, 0x00], .firstByte(0x04), "the first byte is 0x04, not a SEQUENCE (0x30)"),
        ]
        for (bytes, expected, words) in cases {
            XCTAssertThrowsError(try PKCS7SignedData(bytes: bytes)) { error in
                guard case .notPKCS7(let what)? = error as? ReceiptError else { return XCTFail("\(error)") }
                XCTAssertEqual(what, expected)
                // The words a user reads say the same.
                XCTAssertTrue(what.description.contains(words), what.description)
            }
        }
    }
}
