import BER
import ReceiptForge
import Foundation
import OpenSSLShim
import Receipt
import XCTest
import ForgeCA

/// The containers look like Apple's, byte for byte in structure.
final class ForgeLayoutTests: XCTestCase {
    func container(_ id: String) throws -> PKCS7SignedData {
        try PKCS7SignedData(bytes: Minted.named(id).receipt!)
    }

    func testAppStoreCaseIsShapedLikeARealAppStoreReceipt() throws {
        let ca = Minted.forge.authority
        let valid = try container("valid")
        XCTAssertEqual(valid.encoding, .definite)
        XCTAssertEqual(valid.version, 1)
        XCTAssertEqual(valid.digestAlgorithms.map(\.oid), [.sha256])
        XCTAssertEqual(valid.certificates, [ca.leaf.certificate, ca.intermediate.certificate, ca.root.certificate])
        let signer = try XCTUnwrap(valid.signerInfos.first)
        XCTAssertEqual(valid.signerInfos.count, 1)
        XCTAssertNil(signer.signedAttributes)
        XCTAssertEqual(signer.signatureAlgorithm.oid, .rsaEncryption)
        XCTAssertEqual(signer.signature.count, 256, "RSA-2048")
        guard case .issuerAndSerialNumber(let issuer, let serial) = signer.signerIdentifier else {
            return XCTFail("expected issuerAndSerialNumber")
        }
        XCTAssertEqual(issuer, ca.leaf.summary.issuer)
        XCTAssertEqual(serial, ca.leaf.summary.serialNumber)
        // The payload is in DER SET OF order, like App Store receipts.
        let payload = try XCTUnwrap(valid.payload)
        var reader = BERReader(payload, rules: BERRules(.der, requireSortedSets: true))
        XCTAssertNoThrow(try reader.readElement(.set))
        let receipt = try valid.decodeReceipt()
        XCTAssertEqual(receipt.opaqueValue?.count, 16)
        XCTAssertEqual(receipt.attribute(AppReceipt.Field.opaqueValue)?.version, 2)
        XCTAssertEqual(receipt.inAppPurchaseCount, 3)
        XCTAssertEqual(try container("sha1-legacy").digestAlgorithms.map(\.oid), [.sha1])
        XCTAssertEqual(try container("certs-reversed").certificates.first, ca.root.certificate)
    }

    func testXcodeCaseIsShapedLikeARealXcodeReceipt() throws {
        let xcode = try container("xcode-storekit")
        XCTAssertEqual(xcode.encoding, .berIndefinite)
        XCTAssertTrue(xcode.payloadIsSegmented)
        XCTAssertEqual(xcode.certificates, [Minted.forge.authority.storeKit.certificate])
        XCTAssertEqual(xcode.signerInfos.first?.signatureAlgorithm.oid, .sha256WithRSAEncryption)
        let file = Minted.named("xcode-storekit").receipt!
        XCTAssertEqual(Array(file.prefix(2)), [0x30, 0x80])
        let receipt = try xcode.decodeReceipt()
        XCTAssertEqual(receipt.environment, "Xcode")
        XCTAssertEqual(receipt.opaqueValue?.count, 8)
        XCTAssertNil(receipt.originalApplicationVersion)
        XCTAssertEqual(receipt.creationDate?.text.hasSuffix("+0100"), true)
        XCTAssertEqual(try container("nested-octet-string").encoding, .berIndefinite)
        XCTAssertTrue(try container("nested-octet-string").payloadIsSegmented)
    }

    func testManyIAPsNeedsThreeByteLengths() throws {
        let file = Minted.named("many-iaps").receipt!
        XCTAssertGreaterThan(file.count, 65_536)
        XCTAssertEqual(Array(file.prefix(2)), [0x30, 0x83])
        XCTAssertGreaterThanOrEqual(try container("many-iaps").decodeReceipt().inAppPurchaseCount, 150)
    }

    func testSubscriptionsAndDatesAndIntegers() throws {
        let purchases = try container("subscriptions").decodeReceipt().inAppPurchases
        XCTAssertEqual(purchases.count, 5)
        XCTAssertEqual(purchases.filter { $0.cancellationDate != nil }.count, 1)
        XCTAssertEqual(purchases.filter { $0.isTrialPeriod == true }.count, 1)
        XCTAssertEqual(purchases.filter { $0.isInIntroOfferPeriod == true }.count, 1)
        XCTAssertTrue(purchases.allSatisfy { $0.productType == InAppPurchase.ProductType.autoRenewableSubscription.rawValue })
        let creation = try XCTUnwrap(try container("subscriptions").decodeReceipt().creationDate)
        let expiries = purchases.compactMap(\.subscriptionExpirationDate)
        XCTAssertTrue(expiries.contains { $0 < creation } && expiries.contains { $0 > creation })

        // Fractions where Apple writes them (attributes 8 and 18, UTC), whole seconds elsewhere.
        let fraction = #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}"#
        let whole = #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#
        let apple = try container("fractional-dates").decodeReceipt()
        let appleDates = try apple.writtenDates()
        XCTAssertEqual(Set(appleDates.filter { matches($0.text, fraction) }.map(\.type)), [8, 18], "\(appleDates)")
        XCTAssertTrue(appleDates.filter { [8, 18].contains($0.type) }.allSatisfy { $0.text.hasSuffix("Z") }, "\(appleDates)")
        XCTAssertTrue(appleDates.filter { ![8, 18].contains($0.type) }.allSatisfy { matches($0.text, whole) }, "\(appleDates)")
        for purchase in apple.inAppPurchases {
            let dates = try purchase.writtenDates()
            XCTAssertTrue(dates.allSatisfy { $0.text.isEmpty || matches($0.text, whole) }, "\(dates)")
        }
        XCTAssertEqual(apple.creationDate?.nanoseconds, 0)

        // Fractions in every date written, offsets on some; absent dates empty.
        let everywhere = try container("fractional-dates-everywhere").decodeReceipt()
        XCTAssertEqual(everywhere.creationDate?.nanoseconds, 123_000_000)
        let everywhereDates = try everywhere.writtenDates() + everywhere.inAppPurchases.flatMap { try $0.writtenDates() }
        XCTAssertTrue(everywhereDates.allSatisfy { $0.text.isEmpty || matches($0.text, fraction) }, "\(everywhereDates)")
        XCTAssertEqual(Set(everywhereDates.filter { !$0.text.isEmpty }.map(\.type)), [8, 12, 18, 1704, 1706, 1708])
        XCTAssertTrue(everywhere.inAppPurchases.contains { $0.purchaseDate?.utcOffsetMinutes == 60 })
        XCTAssertTrue(everywhere.inAppPurchases.contains { $0.cancellationDate == nil && $0.attribute(1712) != nil })

        let large = try container("large-integers").decodeReceipt()
        XCTAssertEqual(large.appItemID, Int64.max)
        XCTAssertEqual(large.inAppPurchases.first?.webOrderLineItemID, Int64.max)

        let unknown = try container("unknown-attributes").decodeReceipt()
        let ordinaryTypes = Set(unknown.unknownAttributes.map(\.type))
        XCTAssertTrue(ordinaryTypes.isSuperset(of: [26, 30, 1000]), "\(ordinaryTypes)")
        XCTAssertTrue(ordinaryTypes.allSatisfy { (0...1_000).contains($0) }, "ordinary unknown types only: \(ordinaryTypes)")
        XCTAssertTrue(unknown.inAppPurchases.allSatisfy { $0.unknownAttributes.contains { $0.type == 1730 } })

        // Type numbers beyond 31 bits and negative ones have a case of their own.
        let huge = try container("huge-attribute-types").decodeReceipt()
        XCTAssertTrue(Set(huge.unknownAttributes.map(\.type)).isSuperset(of: [Int64.min, -1, Int64(Int32.max) + 1, 0x7FFF_FFFF_FFFF]))
        XCTAssertTrue(huge.unknownAttributes.contains { $0.type == 0x7FFF_FFFF_FFFF && $0.version == 3 })

        // The offset creation date: +0930 written, the same instant as the other cases.
        let offset = try container("offset-creation-date").decodeReceipt()
        XCTAssertEqual(offset.creationDate?.utcOffsetMinutes, 570)
        XCTAssertEqual(offset.creationDate?.secondsSince1970, Minted.forge.settings.creationDate)
        XCTAssertTrue(offset.creationDate?.text.hasSuffix("+0930") ?? false, offset.creationDate?.text ?? "nil")

        let mac = try container("macos-device").decodeReceipt()
        let device = DeviceIdentifier(hex: Minted.named("macos-device").description.device.hex)!
        XCTAssertEqual(device.kind, .macAddress)
        XCTAssertTrue(DeviceHash.matches(mac, device: device))
        let sandbox = try container("sandbox").decodeReceipt()
        XCTAssertEqual(sandbox.appItemID, 0)
        XCTAssertNil(sandbox.undocumentedDate8)
        XCTAssertEqual(sandbox.originalApplicationVersion, "1.0")
    }

    func testNotPKCS7CaseIsRefusedLikeARealIOS6Receipt() {
        XCTAssertThrowsError(try PKCS7SignedData(bytes: Minted.named("not-pkcs7").receipt!)) { error in
            XCTAssertEqual(error as? ReceiptError, .notPKCS7(.transactionReceipt))
        }
    }

    /// The CA: marker extensions where Apple has them, chain signatures OpenSSL accepts.
    func testCertificateAuthorityShape() throws {
        let ca = Minted.forge.authority
        func has(_ certificate: [UInt8], _ oid: OID) -> Bool {
            certificate.firstRange(of: [0x06, UInt8(oid.encoded.count)] + oid.encoded) != nil
        }
        XCTAssertTrue(has(ca.intermediate.certificate, .appleWWDRIntermediateMarker))
        XCTAssertTrue(has(ca.leaf.certificate, .appleReceiptSigningMarker))
        XCTAssertFalse(has(ca.leaf.certificate, .appleWWDRIntermediateMarker))
        XCTAssertFalse(has(ca.root.certificate, .appleWWDRIntermediateMarker))
        func signedBy(_ certificate: [UInt8], _ issuer: [UInt8]) -> Int32 {
            certificate.withUnsafeBufferPointer { c in
                issuer.withUnsafeBufferPointer { rf_x509_verify(c.baseAddress, c.count, $0.baseAddress, $0.count) }
            }
        }
        XCTAssertEqual(signedBy(ca.root.certificate, ca.root.certificate), 1)
        XCTAssertEqual(signedBy(ca.intermediate.certificate, ca.root.certificate), 1)
        XCTAssertEqual(signedBy(ca.leaf.certificate, ca.intermediate.certificate), 1)
        XCTAssertEqual(signedBy(ca.leaf.certificate, ca.root.certificate), 0)
        XCTAssertEqual(signedBy(ca.storeKit.certificate, ca.storeKit.certificate), 1)
        XCTAssertEqual(signedBy(ca.unrelatedRoot.certificate, ca.unrelatedRoot.certificate), 1)
        for (name, identity) in ca.identities {
            let summary = identity.summary
            XCTAssertEqual(identity.key.publicKeyInfo.count, 294, "\(name) is RSA-2048")
            let subject = String(decoding: summary.subject, as: UTF8.self)
            XCTAssertTrue(subject.contains("TEST ONLY"), name)
            XCTAssertTrue(subject.contains("Receipt Forge"), name)
        }
    }

}

final class CertificateInputTests: XCTestCase {
    /// The forge's certificate reader fails cleanly on every strict prefix.
    func testCertificateSummaryRefusesEveryPrefix() {
        let certificate = Minted.forge.authority.intermediate.certificate
        XCTAssertNoThrow(try CertificateSummary(der: certificate))
        for length in 0..<certificate.count {
            XCTAssertThrowsError(try CertificateSummary(der: Array(certificate.prefix(length))), "prefix \(length)") {
                XCTAssertTrue($0 is BERError)
            }
        }
        XCTAssertThrowsError(try CertificateSummary(der: certificate + [0x00])) {
            XCTAssertEqual(($0 as? BERError)?.code, .trailingData)
        }
    }

    /// Each bad file is named, with what is wrong with it.
    func testIncompleteOrBadCAFilesAreRefused() throws {
        let files = Minted.forge.authority.files
        func failure(_ change: (inout [String: [UInt8]]) -> Void) -> AuthorityFileError? {
            var changed = files
            change(&changed)
            do throws(AuthorityFileError) {
                _ = try ReceiptAuthority(.receipts, files: changed)
                return nil
            } catch {
                return error
            }
        }
        XCTAssertNotNil(try? ReceiptAuthority(.receipts, files: files))
        let certificatePEM = String(decoding: files["leaf.pem"]!, as: UTF8.self)

        let missingKey = failure { $0["leaf.key.pem"] = nil }
        XCTAssertEqual(missingKey?.file, "leaf.key.pem")
        guard case .missing = missingKey?.problem else { return XCTFail("\(String(describing: missingKey))") }

        let badKey = failure { $0["leaf.key.pem"] = Array("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8) }
        guard case .key(let keyError) = badKey?.problem else { return XCTFail("\(String(describing: badKey))") }
        XCTAssertEqual(keyError.code, .malformed)

        let twoCertificates = failure { $0["leaf.pem"] = Array((certificatePEM + certificatePEM).utf8) }
        XCTAssertEqual(twoCertificates?.file, "leaf.pem")
        guard case .pem(.severalBlocks(2)) = twoCertificates?.problem else { return XCTFail("\(String(describing: twoCertificates))") }

        let keyAsCertificate = failure { $0["leaf.pem"] = $0["leaf.key.pem"] }
        guard case .pem(.wrongLabel(found: "PRIVATE KEY", _)) = keyAsCertificate?.problem else {
            return XCTFail("\(String(describing: keyAsCertificate))")
        }

        let truncatedDER = failure {
            $0["leaf.pem"] = nil
            $0["leaf.cer"] = Array(files["leaf.cer"]!.dropLast())
        }
        XCTAssertEqual(truncatedDER?.file, "leaf.cer")
        guard case .certificate = truncatedDER?.problem else { return XCTFail("\(String(describing: truncatedDER))") }

        let neither = failure {
            $0["leaf.pem"] = nil
            $0["leaf.cer"] = nil
        }
        XCTAssertEqual(neither?.file, "leaf.pem")
        XCTAssertThrowsError(try RSAPrivateKey(pem: ""))
    }

}

private func matches(_ text: String, _ pattern: String) -> Bool {
    text.range(of: pattern, options: .regularExpression) != nil
}
