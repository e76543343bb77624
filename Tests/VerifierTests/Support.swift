import BER
import ReceiptForge
import Foundation
import FuzzTargets
import Receipt
import ReceiptVerifier
import TestSupport
import XCTest
import ForgeCA

/// The forge's catalogue minted once, in memory, and the validator inputs each
/// case's `case.json` lists.
enum Fixtures {
    static let forge = Forge()
    static let authority = ReceiptAuthority.committed
    /// The reference "now" of every case (VPP expiry is compared with it).
    static let now = Date(timeIntervalSince1970: TimeInterval(forge.settings.now))
    static let creationDate = forge.settings.creationDate

    private static let mintedResult = Result { try forge.mintAll() }
    static func minted() throws -> [MintedCase] { try mintedResult.get() }
    static func minted(_ id: String) throws -> MintedCase {
        try XCTUnwrap(try minted().first { $0.forgeCase.id == id }, "no forge case \(id)")
    }

    /// The DER trust anchor a case names (`Certs/root.cer` or `Certs/storekit.cer`).
    static func anchorDER(_ description: CaseDescription) throws -> [UInt8] {
        try XCTUnwrap(forge.anchors[description.trustAnchor], "no anchor \(description.trustAnchor)")
    }

    static func options(_ description: CaseDescription) throws -> ReceiptValidator.Options {
        ReceiptValidator.Options(bundleIdentifier: description.app.bundleId, appVersion: description.app.version,
                                 device: .identifier(try XCTUnwrap(DeviceIdentifier(hex: description.device.hex))))
    }

    static func validator(_ description: CaseDescription, options change: (inout ReceiptValidator.Options) -> Void = { _ in },
                          cache: SignatureCache? = nil) throws -> ReceiptValidator {
        var options = try options(description)
        change(&options)
        let anchors = try ReceiptValidator.anchors(der: [try anchorDER(description)])
        return ReceiptValidator(anchors: anchors, options: options, cache: cache, clock: { now })
    }

    /// What the validator says about a minted case (a case without a file: `missing`).
    static func verdict(_ minted: MintedCase, options change: (inout ReceiptValidator.Options) -> Void = { _ in },
                        cache: SignatureCache? = nil) throws -> Verdict {
        let validator = try validator(minted.description, options: change, cache: cache)
        guard let receipt = minted.receipt else {
            return try validator.validate(fileAt: URL(fileURLWithPath: "/nonexistent/\(minted.forgeCase.id)/receipt"))
        }
        return validator.validate(receipt, now: now)
    }
}
