import BER
import ReceiptForge
import Foundation
import Receipt
import ReceiptVerifier
import TestSupport
import XCTest

/// The forge's catalogue is the one declarative table: every case's verdict and reason
/// must be what the manifest says.
final class ForgeCaseVerdictTests: XCTestCase {
    func testEveryCaseGetsTheManifestVerdict() throws {
        let minted = try Fixtures.minted()
        XCTAssertEqual(minted.count, ForgeCase.catalogue.count)
        for minted in minted {
            let verdict = try Fixtures.verdict(minted)
            XCTAssertEqual(verdict.reason, minted.forgeCase.expected, "\(minted.forgeCase.id): \(verdict.detail)")
            XCTAssertEqual(verdict.verdict, minted.description.expected.verdict, minted.forgeCase.id)
            XCTAssertFalse(verdict.detail.isEmpty, minted.forgeCase.id)
            if verdict.isValid {
                XCTAssertNotNil(verdict.receipt, minted.forgeCase.id)
                XCTAssertFalse(verdict.chain.isEmpty, minted.forgeCase.id)
            }
        }
    }

    /// Detail texts name what was wrong, so a failing app can say why.
    func testDetailsSayWhatAndWhere() throws {
        let expectations: [(String, String)] = [
            ("wrong-bundle", "com.example.otherapp"),
            ("wrong-version", "\"41\""),
            ("copied-device", "attribute 5"),
            ("vpp-expired", "attribute 21"),
            ("signed-after-expiry", "certificate 0"),
            ("tampered-signature", "signerInfos[0].signature"),
            ("malformed-payload", "at byte"),
            ("truncated", "at byte"),
            ("trailing-data", "at byte"),
            ("not-pkcs7", "iOS 6"),
            ("sha512-digest", "digestAlgorithm"),
            ("missing", "no receipt"),
        ]
        for (id, fragment) in expectations {
            let verdict = try Fixtures.verdict(try Fixtures.minted(id))
            XCTAssertTrue(verdict.detail.contains(fragment), "\(id): \(verdict.detail) lacks \(fragment)")
        }
    }

    /// A refused chain says which rule refused it with a stable code (not in the text);
    /// every other verdict has none.
    func testChainFailuresHaveStableCodes() throws {
        let expected: [String: ChainFailure] = [
            "untrusted-root": .untrustedRoot, "missing-intermediate": .missingIssuer,
            "leaf-without-marker": .missingReceiptSigningMarker, "signed-after-expiry": .expired,
        ]
        for minted in try Fixtures.minted() {
            let verdict = try Fixtures.verdict(minted)
            let id = minted.forgeCase.id
            XCTAssertEqual(verdict.chainFailure, expected[id], "\(id): \(verdict.detail)")
            if verdict.reason == .untrustedChain { XCTAssertNotNil(verdict.chainFailure, id) }
            if let code = verdict.chainFailure { XCTAssertEqual(code.reason, verdict.reason, id) }
        }
    }

    /// A refused receipt signature says why with a stable code; every other verdict has none.
    func testSignatureFailuresHaveStableCodes() throws {
        let expected: [String: SignatureFailure] = ["tampered-payload": .signatureMismatch, "tampered-signature": .signatureMismatch]
        for minted in try Fixtures.minted() {
            let verdict = try Fixtures.verdict(minted)
            let id = minted.forgeCase.id
            XCTAssertEqual(verdict.signatureFailure, expected[id], "\(id): \(verdict.detail)")
            if verdict.reason == .signatureInvalid && verdict.chainFailure == nil { XCTAssertNotNil(verdict.signatureFailure, id) }
            XCTAssertFalse(verdict.signatureFailure != nil && verdict.chainFailure != nil, "\(id): one code at most")
        }
    }

    func testChainValidationTimeIsSelectable() throws {
        let expired = try Fixtures.minted("expired-cert")
        XCTAssertEqual(try Fixtures.verdict(expired).reason, .valid, "validated at the creation date")
        XCTAssertEqual(try Fixtures.verdict(expired) { $0.chainValidationTime = .now }.chainFailure, .expired)
        XCTAssertEqual(try Fixtures.verdict(expired) { $0.chainValidationTime = .date(Fixtures.now) }.reason,
                       .certificateExpired)
        let before = Date(timeIntervalSince1970: TimeInterval(Fixtures.creationDate))
        XCTAssertEqual(try Fixtures.verdict(expired) { $0.chainValidationTime = .date(before) }.reason, .valid)
        // A date before the leaf's notBefore.
        let early = Date(timeIntervalSince1970: TimeInterval(ASN1Time(year: 2021, month: 1, day: 1).secondsSince1970))
        XCTAssertEqual(try Fixtures.verdict(try Fixtures.minted("valid")) { $0.chainValidationTime = .date(early) }.chainFailure,
                       .notYetValid)
    }

    func testPoliciesCanBeSwitchedOff() throws {
        XCTAssertEqual(try Fixtures.verdict(try Fixtures.minted("leaf-without-marker")) { $0.requireAppleMarkers = false }.reason,
                       .valid)
        XCTAssertEqual(try Fixtures.verdict(try Fixtures.minted("copied-device")) { $0.device = .skip }.reason, .valid)
        XCTAssertEqual(try Fixtures.verdict(try Fixtures.minted("wrong-version")) { $0.appVersion = nil }.reason, .valid)
        let other = try XCTUnwrap(DeviceIdentifier(uuidString: "00000000-0000-0000-0000-000000000001"))
        XCTAssertEqual(try Fixtures.verdict(try Fixtures.minted("valid")) { $0.device = .identifier(other) }.reason,
                       .deviceHashMismatch)
    }

    /// The VPP expiry is the one check against the clock, which is injected.
    func testReceiptExpiryUsesTheInjectedClock() throws {
        let vpp = try Fixtures.minted("vpp-expired")
        let validator = try Fixtures.validator(vpp.description)
        let receipt = try XCTUnwrap(vpp.receipt)
        XCTAssertEqual(validator.validate(receipt).reason, .receiptExpired)
        let expiry = try XCTUnwrap(validator.validate(receipt).receipt?.expirationDate)
        let before = Date(timeIntervalSince1970: TimeInterval(expiry.secondsSince1970 - 1))
        XCTAssertEqual(validator.validate(receipt, now: before).reason, .valid)
    }

    /// A batch under one chain pays for the chain's RSA checks once; verdicts are unchanged.
    func testSignatureCacheServesABatch() throws {
        let cache = SignatureCache()
        let valid = try Fixtures.minted("valid")
        let validator = try Fixtures.validator(valid.description, cache: cache)
        let receipt = try XCTUnwrap(valid.receipt)
        for _ in 0..<5 { XCTAssertEqual(validator.validate(receipt, now: Fixtures.now).reason, .valid) }
        let statistics = cache.statistics
        XCTAssertEqual(statistics.entries, 2, "leaf ← intermediate and intermediate ← root")
        XCTAssertEqual(statistics.misses, 2)
        XCTAssertEqual(statistics.hits, 8)
        XCTAssertEqual(statistics.signatures, 1, "the receipt's own signature, verified once")
        XCTAssertEqual(statistics.signatureMisses, 1)
        XCTAssertEqual(statistics.signatureHits, 4)
        // Cached pairs do not make an invalid receipt valid.
        for id in ["tampered-signature", "untrusted-root", "signed-after-expiry"] {
            XCTAssertEqual(try Fixtures.verdict(try Fixtures.minted(id), cache: cache).reason,
                           try Fixtures.minted(id).forgeCase.expected, id)
        }
        // Nor does the cached receipt signature: the same receipt with one byte of its
        // signature changed is refused, and its verification was not a hit.
        let hits = cache.statistics.signatureHits
        let signature = try PKCS7SignedData(bytes: receipt).signerInfos[0].signature
        let signatureStart = try XCTUnwrap((0...(receipt.count - signature.count)).first {
            receipt[$0..<($0 + signature.count)].elementsEqual(signature)
        })
        var flipped = receipt
        flipped[signatureStart + signature.count - 1] ^= 0x01
        XCTAssertEqual(validator.validate(flipped, now: Fixtures.now).reason, .signatureInvalid)
        XCTAssertEqual(cache.statistics.signatureHits, hits)
    }

    /// The anchor the caller passes in is the one used: the App Store chain does not
    /// verify against the StoreKit certificate, nor Xcode receipts against the root.
    func testOnlyTheCallersAnchorIsTrusted() throws {
        let valid = try Fixtures.minted("valid")
        let storeKit = try ReceiptValidator.anchors(der: [Fixtures.authority.storeKit.certificate])
        let wrongAnchor = ReceiptValidator(anchors: storeKit, options: try Fixtures.options(valid.description))
        XCTAssertEqual(wrongAnchor.validate(try XCTUnwrap(valid.receipt), now: Fixtures.now).chainFailure, .untrustedRoot)
        let noAnchor = ReceiptValidator(anchors: [], options: try Fixtures.options(valid.description))
        XCTAssertEqual(noAnchor.validate(try XCTUnwrap(valid.receipt), now: Fixtures.now).chainFailure, .untrustedRoot)
    }
}
