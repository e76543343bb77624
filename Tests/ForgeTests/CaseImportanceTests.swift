import ForgeCA
import Foundation
import Receipt
import ReceiptForge
import TestSupport
import XCTest

/// The importance of each case follows rules stated here, each from a source other than
/// the table: the expected verdict, what OpenSSL says about the file, and what real App
/// Store receipts look like (`../shared/real-receipts`).
final class CaseImportanceTests: XCTestCase {
    /// Getting a valid case wrong rejects someone; getting an invalid case wrong lets
    /// someone in. `high` is about the first, `critical` about the second.
    func testValidCasesAreHighOrLowAndInvalidCasesCriticalOrLow() {
        for forgeCase in ForgeCase.catalogue {
            let allowed: Set<ForgeCase.Importance> = forgeCase.expected == .valid ? [.high, .low] : [.critical, .low]
            XCTAssertTrue(allowed.contains(forgeCase.importance), "\(forgeCase.id): \(forgeCase.importance)")
        }
        // Both kinds of cost occur, and strictness on both sides.
        let byVerdict = Dictionary(grouping: ForgeCase.catalogue, by: { $0.expected == .valid })
        XCTAssertEqual(Set(byVerdict[true, default: []].map(\.importance)), [.high, .low])
        XCTAssertEqual(Set(byVerdict[false, default: []].map(\.importance)), [.critical, .low])
    }

    /// A validator that accepts any of these gives the app to someone not entitled to
    /// it: a forged or altered receipt, a signer that may not sign receipts, another
    /// app's or device's receipt, an expired licence, or no receipt at all.
    func testReasonsThatLetSomeoneInAreCritical() {
        let entitlement: Set<VerdictReason> = [.missing, .signatureInvalid, .untrustedChain, .certificateExpired,
                                               .bundleMismatch, .deviceHashMismatch, .receiptExpired]
        XCTAssertTrue(entitlement.isSubset(of: Set(VerdictReason.allCases)))
        for forgeCase in ForgeCase.catalogue where entitlement.contains(forgeCase.expected) {
            XCTAssertEqual(forgeCase.importance, .critical, forgeCase.id)
        }
        // The invalid ones by tag, as issue 12 states it: signature, chain, bundle, device.
        for forgeCase in ForgeCase.catalogue where forgeCase.expected != .valid
            && !Set(forgeCase.tags).isDisjoint(with: [.signature, .chain, .bundle, .deviceHash]) {
            XCTAssertEqual(forgeCase.importance, .critical, forgeCase.id)
        }
    }

    /// An invalid file OpenSSL refuses (signature, chain, or not even a container) is
    /// one anybody can make: accepting it means nothing was verified, so it is critical.
    /// The low invalid ones are therefore all files OpenSSL verifies: made with the
    /// signing key, or the user's own receipt with bytes appended.
    func testInvalidFilesOpenSSLRefusesAreCritical() {
        let settings = Minted.forge.settings
        for minted in Minted.cases where minted.expected != .valid {
            guard let file = minted.receipt else {
                XCTAssertEqual(minted.forgeCase.importance, .critical, "\(minted.id): no file at all")
                continue
            }
            let openSSL = openSSLOutcome(file, anchor: minted.anchor, at: settings.creationDate)
            if openSSL != .verified {
                XCTAssertEqual(minted.forgeCase.importance, .critical, "\(minted.id): OpenSSL says \(openSSL)")
            }
            if minted.forgeCase.importance == .low {
                XCTAssertEqual(openSSL, .verified, minted.id)
            }
        }
    }

    /// `high` for a valid case means real users hold receipts like it. Real App Store
    /// receipts (Production and ProductionSandbox; not Xcode) decide:
    /// - a case whose container (encoding, digest, signer algorithm) no real one has, or
    ///   whose creation date carries an offset none has, is `low`;
    /// - a case showing a feature real ones have (SHA-1, a Mac, sandbox, over 100
    ///   records) in an otherwise real-shaped container is `high`.
    func testRealAppStoreReceiptsDecideTheValidCases() throws {
        let real = try RealReceipts.entries().filter { ["Production", "ProductionSandbox"].contains($0.environment) }
        XCTAssertGreaterThanOrEqual(real.count, 20)
        struct Shape: Hashable { let encoding, digest, signatureAlgorithm: String }
        let shapes = Set(real.compactMap { entry in
            entry.encoding.flatMap { encoding in
                entry.digestAlgorithm.flatMap { digest in
                    entry.signatureAlgorithm.map { Shape(encoding: encoding, digest: digest, signatureAlgorithm: $0) }
                }
            }
        })
        let realOffsets = real.contains { $0.creationDate.map(hasOffset) ?? false }
        let realSHA1 = real.contains { $0.digestAlgorithm == "sha1" }
        let realMac = real.contains { $0.deviceIdentifier?.platform == "macos" }
        let realSandbox = real.contains { $0.environment == "ProductionSandbox" }
        let realManyRecords = real.contains { ($0.inAppCount ?? 0) > 100 }
        XCTAssertTrue(realSHA1 && realMac && realSandbox && realManyRecords && !realOffsets,
                      "the real receipts no longer show what this test assumes")

        for minted in Minted.cases where minted.expected == .valid {
            let description = minted.description
            let shape = Shape(encoding: description.encoding, digest: description.digest,
                              signatureAlgorithm: description.signatureAlgorithm)
            let importance = minted.forgeCase.importance
            if !shapes.contains(shape) {
                XCTAssertEqual(importance, .low, "\(minted.id): no real App Store receipt looks like \(shape)")
                continue
            }
            if let creation = description.validation.creationDate, hasOffset(creation), !realOffsets {
                XCTAssertEqual(importance, .low, "\(minted.id): no real App Store receipt has a creation date like \(creation)")
                continue
            }
            let realFeature = (description.digest == "sha1" && realSHA1)
                || (description.app.platform == .macos && realMac)
                || (description.environment == "ProductionSandbox" && realSandbox)
                || (description.inAppCount > 100 && realManyRecords)
            if realFeature {
                XCTAssertEqual(importance, .high, "\(minted.id): real App Store receipts look like it")
            }
        }
    }

    /// Where real App Store receipts put their signer decides the certificate-order case:
    /// every one lists the signer first (leaf, intermediate, root), so a validator that
    /// takes the first certificate works on all of them, and a case with the signer
    /// elsewhere tests CMS conformance (certificates are an unordered SET): `low`.
    func testRealReceiptsListTheSignerFirstSoOtherOrdersAreLow() throws {
        let real = try RealReceipts.pkcs7Receipts().filter { ["Production", "ProductionSandbox"].contains($0.0.environment) }
        XCTAssertGreaterThanOrEqual(real.count, 20)
        for (entry, bytes) in real {
            XCTAssertEqual(try signerPosition(in: PKCS7SignedData(bytes: bytes)), 0, entry.name)
        }
        var signerElsewhere: [String] = []
        for minted in Minted.cases where minted.expected == .valid {
            guard let file = minted.receipt, try signerPosition(in: PKCS7SignedData(bytes: file)) != 0 else { continue }
            signerElsewhere.append(minted.id)
            XCTAssertEqual(minted.forgeCase.importance, .low, "\(minted.id): no real receipt lists its signer elsewhere than first")
        }
        XCTAssertEqual(signerElsewhere, ["certs-reversed"])
    }

    /// Where real App Store receipts write fractional seconds decides the date cases:
    /// only in attributes 8 and 18 (a 2020 Mac App Store receipt). A valid case with
    /// fractions there only is `high`; one with fractions anywhere else is `low`.
    func testRealReceiptsDecideWhereFractionalSecondsAreHigh() throws {
        let real = try RealReceipts.pkcs7Receipts().filter { ["Production", "ProductionSandbox"].contains($0.0.environment) }
        var realTypes = Set<Int64>()
        for (_, bytes) in real {
            let receipt = try PKCS7SignedData(bytes: bytes).decodeReceipt()
            realTypes.formUnion(try receipt.typesWithFractionalSeconds())
            for purchase in receipt.inAppPurchases { realTypes.formUnion(try purchase.typesWithFractionalSeconds()) }
        }
        XCTAssertEqual(realTypes, [8, 18], "the real receipts no longer show what this test assumes")
        var withFractions: [String] = []
        for minted in Minted.cases where minted.expected == .valid {
            guard let file = minted.receipt else { continue }
            let receipt = try PKCS7SignedData(bytes: file).decodeReceipt()
            let types = try receipt.inAppPurchases.reduce(try receipt.typesWithFractionalSeconds()) {
                $0.union(try $1.typesWithFractionalSeconds())
            }
            guard !types.isEmpty else { continue }
            withFractions.append(minted.id)
            XCTAssertEqual(minted.forgeCase.importance, types.isSubset(of: realTypes) ? .high : .low,
                           "\(minted.id): fractions in attributes \(types.sorted()), real receipts in \(realTypes.sorted())")
        }
        XCTAssertEqual(withFractions, ["fractional-dates", "fractional-dates-everywhere"])
    }

    /// The index of the certificate the SignerInfo names (issuer and serial number).
    private func signerPosition(in container: PKCS7SignedData) throws -> Int? {
        guard case .issuerAndSerialNumber(let issuer, let serial)? = container.signerInfos.first?.signerIdentifier else {
            return nil
        }
        return try container.certificates.firstIndex { certificate in
            let summary = try CertificateSummary(der: certificate)
            return summary.issuer == Array(issuer) && summary.serialNumber.drop { $0 == 0 } == serial.drop { $0 == 0 }
        }
    }

    private func hasOffset(_ date: String) -> Bool {
        date.range(of: #"[+-]\d\d:?\d\d$"#, options: .regularExpression) != nil
    }
}
