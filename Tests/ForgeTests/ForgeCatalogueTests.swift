import BER
import ReceiptForge
import Foundation
import OpenSSLShim
import Receipt
import StrictJSON
import TestSupport
import XCTest
import ForgeCA

/// Every case of the catalogue, minted once per test run with the committed CA.
enum Minted {
    static let forge = Forge()
    static let cases: [MintedCase] = {
        do { return try forge.mintAll() } catch { preconditionFailure("minting failed: \(error)") }
    }()

    static func named(_ id: String) -> MintedCase { cases.first { $0.forgeCase.id == id }! }
}

/// What OpenSSL says about a file: PKCS7_verify through the shim, chain checked at `time`.
func openSSLOutcome(_ file: [UInt8], anchor: [UInt8], at time: Int64) -> OpenSSLOutcome {
    let code = file.withUnsafeBufferPointer { p7 in
        anchor.withUnsafeBufferPointer { rf_pkcs7_verify(p7.baseAddress, p7.count, $0.baseAddress, $0.count, time) }
    }
    switch Int(code) {
    case Int(RF_PKCS7_OK): return .verified
    case Int(RF_PKCS7_SIGNATURE_INVALID): return .signatureInvalid
    case Int(RF_PKCS7_CHAIN_INVALID): return .chainInvalid
    default: return .unparseable
    }
}

final class ForgeCatalogueTests: XCTestCase {
    func testTheCatalogueHasTheRequiredCasesAndOnlyStableReasons() {
        let ids = ForgeCase.catalogue.map(\.id)
        XCTAssertEqual(Set(ids).count, ids.count, "case ids are unique")
        let required: [String: VerdictReason] = [
            "valid": .valid, "expired-cert": .valid, "wrong-bundle": .bundleMismatch,
            "copied-device": .deviceHashMismatch, "missing": .missing, "vpp": .valid, "vpp-expired": .receiptExpired,
        ]
        for (id, reason) in required { XCTAssertEqual(ForgeCase.named(id)?.expected, reason, id) }
        let more = ["signed-after-expiry", "tampered-payload", "tampered-signature", "untrusted-root",
                    "missing-intermediate", "wrong-version", "sha1-legacy", "xcode-storekit", "macos-device",
                    "many-iaps", "subscriptions", "fractional-dates", "unknown-attributes", "malformed-payload",
                    "truncated", "not-pkcs7", "sandbox"]
        for id in more { XCTAssertNotNil(ForgeCase.named(id), id) }
        XCTAssertGreaterThanOrEqual(ids.count, required.count + 15)
        XCTAssertTrue(ForgeCase.named("expired-cert")!.summary.contains("'now'"))
        // Every reason code but `valid` is exercised by at least one case.
        XCTAssertEqual(Set(ForgeCase.catalogue.map(\.expected)), Set(VerdictReason.allCases))
    }

    /// The signature/chain verdict OpenSSL reaches at the creation date matches each case.
    func testOpenSSLAgreesWithEveryCase() throws {
        let authority = Minted.forge.authority
        for minted in Minted.cases {
            let id = minted.forgeCase.id
            guard let file = minted.receipt else {
                XCTAssertEqual(minted.forgeCase.openSSL, .noFile, id)
                continue
            }
            let anchor = minted.description.trustAnchor == "Certs/storekit.cer"
                ? authority.storeKit.certificate : authority.root.certificate
            let creation = Minted.forge.settings.creationDate
            XCTAssertEqual(openSSLOutcome(file, anchor: anchor, at: creation), minted.forgeCase.openSSL, id)
        }
    }

    /// The trap `expired-cert` sets: at "now" OpenSSL rejects the chain, at the creation date it accepts it.
    func testExpiredCertFailsOnlyWhenCheckedAtNow() throws {
        let minted = Minted.named("expired-cert")
        let root = Minted.forge.authority.root.certificate
        let settings = Minted.forge.settings
        XCTAssertEqual(openSSLOutcome(minted.receipt!, anchor: root, at: settings.creationDate), .verified)
        XCTAssertEqual(openSSLOutcome(minted.receipt!, anchor: root, at: settings.now), .chainInvalid)
        let today = Int64(Date().timeIntervalSince1970)
        XCTAssertEqual(openSSLOutcome(minted.receipt!, anchor: root, at: today), .chainInvalid)
        XCTAssertEqual(openSSLOutcome(Minted.named("valid").receipt!, anchor: root, at: today), .verified)
    }

    /// A reference reading of Apple's rules, for everything but the RSA/chain checks
    /// (OpenSSL does those above): each case fails exactly the check its reason names.
    func testEachCaseTripsExactlyItsExpectedCheck() throws {
        for minted in Minted.cases {
            XCTAssertEqual(try referenceVerdict(minted), minted.forgeCase.expected, minted.forgeCase.id)
        }
    }

    func referenceVerdict(_ minted: MintedCase) throws -> VerdictReason {
        let description = minted.description
        guard let file = minted.receipt else { return .missing }
        let decoded = Result { () throws(ReceiptError) -> (PKCS7SignedData, AppReceipt) in
            let container = try PKCS7SignedData(bytes: file)
            return (container, try container.decodeReceipt())
        }
        guard case .success(let (container, receipt)) = decoded else { return .malformed }
        let anchor = description.trustAnchor == "Certs/storekit.cer"
            ? Minted.forge.authority.storeKit.certificate : Minted.forge.authority.root.certificate
        let creation = try XCTUnwrap(receipt.creationDate).secondsSince1970
        switch openSSLOutcome(file, anchor: anchor, at: creation) {
        case .signatureInvalid: return .signatureInvalid
        case .chainInvalid:
            // Expired rather than untrusted if the chain verifies at a time the signer was valid.
            let signer = try XCTUnwrap(container.certificates.first)
            let validFrom = try CertificateSummary(der: signer).notBefore.secondsSince1970
            return openSSLOutcome(file, anchor: anchor, at: validFrom + 86_400) == .verified
                ? .certificateExpired : .untrustedChain
        case .unparseable, .noFile: return .malformed
        case .verified: break
        }
        if description.trustAnchor == "Certs/root.cer" {
            let leaf = try XCTUnwrap(container.certificates.first { containsOID($0, .appleReceiptSigningMarker) }
                                     ?? container.certificates.first)
            if !containsOID(leaf, .appleReceiptSigningMarker) { return .untrustedChain }
            if !container.certificates.contains(where: { containsOID($0, .appleWWDRIntermediateMarker) }) {
                return .untrustedChain
            }
        }
        let digests = container.digestAlgorithms.map(\.oid)
        if !digests.allSatisfy({ $0 == .sha1 || $0 == .sha256 }) { return .unsupportedAlgorithm }
        if receipt.bundleIdentifier != description.app.bundleId { return .bundleMismatch }
        if receipt.appVersion != description.app.version { return .versionMismatch }
        let device = try XCTUnwrap(DeviceIdentifier(hex: description.device.hex))
        if !DeviceHash.matches(receipt, device: device) { return .deviceHashMismatch }
        if let expiry = receipt.expirationDate, expiry.secondsSince1970 <= Minted.forge.settings.now {
            return .receiptExpired
        }
        return .valid
    }

    func containsOID(_ certificate: [UInt8], _ oid: OID) -> Bool {
        certificate.firstRange(of: [0x06, UInt8(oid.encoded.count)] + oid.encoded) != nil
    }

    func testCaseFilesCarryEveryValidatorInput() throws {
        for minted in Minted.cases {
            let json = try JSONValue(json: Data(try forgeJSON(minted.description)))
            let id = minted.forgeCase.id
            for key in ["id", "description", "expected", "app", "device", "validation", "trustAnchor", "digest",
                        "encoding", "openssl"] {
                XCTAssertNotNil(json[key], "\(id) lacks \(key)")
            }
            let device = try XCTUnwrap(json["device"])
            XCTAssertNotNil(device["hex"], id)
            XCTAssertNotNil(device[minted.forgeCase.platform == .ios ? "uuid" : "mac"], id)
            let validation = try XCTUnwrap(json["validation"])
            XCTAssertEqual(validation["chainValidatedAt"]?.stringValue, "creationDate")
            XCTAssertEqual(validation["now"]?.stringValue, "2026-06-01T00:00:00Z")
            XCTAssertEqual(minted.description.expected.reason, minted.forgeCase.expected)
        }
        XCTAssertEqual(Minted.named("macos-device").description.device.mac?.count, 17)
        XCTAssertNil(Minted.named("missing").description.receipt)
    }

    /// Every verdict holds from the reference now until 2090.
    func testDatesKeepVerdictsTrueUntil2090() throws {
        let settings = Minted.forge.settings
        let year2090 = ASN1Time(year: 2090, month: 12, day: 31).secondsSince1970
        XCTAssertLessThanOrEqual(settings.now, Int64(Date().timeIntervalSince1970), "the default now is not in the future")
        let vpp = try PKCS7SignedData(bytes: Minted.named("vpp").receipt!).decodeReceipt()
        XCTAssertEqual(vpp.environment, "ProductionVPP")
        XCTAssertGreaterThan(try XCTUnwrap(vpp.expirationDate).secondsSince1970, year2090)
        let expired = try PKCS7SignedData(bytes: Minted.named("vpp-expired").receipt!).decodeReceipt()
        let expiry = try XCTUnwrap(expired.expirationDate).secondsSince1970
        XCTAssertLessThan(expiry, settings.now)
        XCTAssertGreaterThan(expiry, try XCTUnwrap(expired.creationDate).secondsSince1970)
        for (_, identity) in Minted.forge.authority.identities {
            XCTAssertGreaterThan(identity.summary.notAfter.secondsSince1970, year2090)
        }
    }
}
