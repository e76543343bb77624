import BER
import Foundation
import Receipt
import TestSupport
import XCTest

/// Decoding every real receipt gives exactly the manifest's values.
final class RealReceiptTests: XCTestCase {
    func testEveryRealReceiptDecodesToTheManifestValues() throws {
        let receipts = try RealReceipts.pkcs7Receipts()
        XCTAssertEqual(receipts.count, 25)
        for (entry, bytes) in receipts {
            let name = entry.file
            let container = try PKCS7SignedData(bytes: bytes)
            let receipt = try container.decodeReceipt()
            XCTAssertEqual(receipt.environment, entry.environment, name)
            XCTAssertEqual(receipt.bundleIdentifier, entry.bundleId, name)
            XCTAssertEqual(receipt.bundleIdentifierValue.map(TestSupport.hexString), entry.bundleIdDER, name)
            XCTAssertEqual(receipt.appVersion, entry.appVersion, name)
            XCTAssertEqual(receipt.originalApplicationVersion, entry.originalAppVersion, name)
            XCTAssertEqual(receipt.creationDate?.text, entry.creationDate, name)
            XCTAssertEqual(receipt.expirationDate?.text, entry.expirationDate, name)
            XCTAssertEqual(receipt.opaqueValue.map(TestSupport.hexString), entry.opaque, name)
            XCTAssertEqual(receipt.sha1Hash.map(TestSupport.hexString), entry.sha1Hash, name)
            XCTAssertEqual(receipt.inAppPurchaseCount, entry.inAppCount, name)
            let products = receipt.inAppPurchases.prefix(3).map { $0.productIdentifier ?? "" }
            XCTAssertEqual(products, entry.inAppProductIds, name)
            XCTAssertEqual(container.encoding.rawValue, entry.encoding, name)
            XCTAssertEqual(container.certificates.count, entry.certificateCount, name)
            XCTAssertEqual(container.digestAlgorithms.map(\.oid.shortName), [entry.digestAlgorithm], name)
            XCTAssertEqual(container.signerInfos.count, 1, name)
            XCTAssertEqual(container.signerInfos.first?.signatureAlgorithm.oid.shortName, entry.signatureAlgorithm, name)
            XCTAssertEqual(container.signerInfos.first?.signedAttributes != nil, entry.signedAttributes, name)
            XCTAssertEqual(container.signerInfos.first?.signature.count, 256, name)
        }
    }

    /// decode → encode reproduces every real payload byte for byte (order, versions,
    /// unknown attributes and in-app records included).
    func testDecodeEncodeRoundTripsEveryRealPayload() throws {
        for (entry, bytes) in try RealReceipts.pkcs7Receipts() {
            let container = try PKCS7SignedData(bytes: bytes)
            let receipt = try container.decodeReceipt()
            XCTAssertEqual(receipt.encoded(), container.payload, entry.file)
            for purchase in receipt.inAppPurchases {
                XCTAssertEqual(try InAppPurchase(decoding: purchase.encoded()), purchase, entry.file)
            }
        }
    }

    func testDeviceHashMatchesTheKnownDevicesAndNotAnother() throws {
        let known = try RealReceipts.pkcs7Receipts().filter { $0.0.deviceIdentifier != nil }
        XCTAssertEqual(known.count, 5)
        for (entry, bytes) in known {
            XCTAssertEqual(entry.expectedDeviceHash, "match")
            let receipt = try PKCS7SignedData(bytes: bytes).decodeReceipt()
            let device = try XCTUnwrap(DeviceIdentifier(hex: entry.deviceIdentifier!.hex))
            XCTAssertEqual(device.kind, entry.deviceIdentifier!.platform == "ios" ? .uuid : .macAddress)
            XCTAssertTrue(DeviceHash.matches(receipt, device: device), entry.file)
            var wrong = device.bytes
            wrong[wrong.count - 1] ^= 0x01
            XCTAssertFalse(DeviceHash.matches(receipt, device: DeviceIdentifier(bytes: wrong)!), entry.file)
        }
    }

    func testTheDocumentedDeviceIdFormsParse() {
        XCTAssertEqual(DeviceIdentifier(uuidString: "956328D9-CC6A-47F4-BE40-6953FB0AB6C7")?.hex,
                       "956328d9cc6a47f4be406953fb0ab6c7")
        XCTAssertEqual(DeviceIdentifier(macAddress: "6c:40:08:b5:94:5e")?.hex, "6c4008b5945e")
        XCTAssertEqual(DeviceIdentifier(hex: "956328d9cc6a47f4be406953fb0ab6c7")?.formatted,
                       "956328D9-CC6A-47F4-BE40-6953FB0AB6C7")
        XCTAssertEqual(DeviceIdentifier(hex: "6c4008b5945e")?.formatted, "6c:40:08:b5:94:5e")
        XCTAssertNil(DeviceIdentifier(hex: "6c4008b594"))
        XCTAssertNil(DeviceIdentifier(uuidString: "956328D9CC6A-47F4-BE40-6953FB0AB6C7"))
        XCTAssertNil(DeviceIdentifier(macAddress: "6c:40:08:b5:94"))
        // Empty groups are not a MAC address, though six non-empty ones remain.
        XCTAssertNil(DeviceIdentifier(macAddress: "6c:40:08:b5:94:5e:"))
        XCTAssertNil(DeviceIdentifier(macAddress: "6c::40:08:b5:94:5e"))
        XCTAssertEqual(DeviceIdentifier(text: "6C-40-08-B5-94-5E")?.hex, "6c4008b5945e")
        XCTAssertNil(DeviceIdentifier(text: "not a device"))
    }

    func testIOS6TransactionReceiptsAreRefusedAsNotPKCS7() throws {
        let plists = try RealReceipts.entries().filter { $0.expectedSignature == "not-a-receipt" }
        XCTAssertEqual(plists.count, 2)
        for entry in plists {
            XCTAssertThrowsError(try PKCS7SignedData(bytes: try RealReceipts.bytes(of: entry))) { error in
                guard case .notPKCS7(let what)? = error as? ReceiptError else {
                    return XCTFail("\(entry.file): \(error)")
                }
                XCTAssertEqual(what, .transactionReceipt, "\(entry.file)")
                XCTAssertEqual((error as? ReceiptError)?.verdictReason, .malformed)
            }
        }
    }
}
