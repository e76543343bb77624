import Receipt
import ReceiptVerifier

/// Authenticates receipts the way verifyReceipt does: the project's verifier (signature,
/// chain to the given roots at the receipt creation date, Apple's marker extensions, digest
/// allow-list), with one `SignatureCache` shared by every request, and no receipt policy:
/// verifyReceipt does not check the bundle id, the app version, the device hash or a VPP
/// expiry; the caller does.
package struct ReceiptAuthenticator: Sendable {
    /// Who signed a receipt that authenticated.
    package enum Signer: String, Sendable, Hashable {
        /// A chain to one of the App Store roots (`--root`).
        case appStore
        /// A StoreKit-testing certificate (`--xcode-root`, default Certs/storekit.cer).
        case xcode
    }

    /// What became of a receipt: its verdict, and for one that authenticated, who signed it.
    package struct Authentication: Sendable {
        package let verdict: Verdict
        package let signer: Signer?

        /// The verifyReceipt status of the verdict (`status(for:)`); an authenticated
        /// receipt is `valid` here, whatever the endpoint and the client's password say.
        package var status: VerifyReceiptStatus { ReceiptAuthenticator.status(for: verdict.reason) }
    }

    let validator: ReceiptValidator
    /// SHA-256 fingerprints of the Xcode anchors that are not also App Store roots.
    let xcodeFingerprints: Set<[UInt8]>
    package let cache: SignatureCache

    package init(roots: [Certificate], xcodeRoots: [Certificate], cache: SignatureCache = SignatureCache()) {
        let anchors = roots + xcodeRoots
        let chain = ChainVerifier(anchors: anchors,
                                  policies: ChainVerifier.defaultPolicies + [DirectlyTrustedOrAppleMarkedPolicy(anchors: anchors)])
        validator = ReceiptValidator(signedDataVerifier: SignedDataVerifier(chainVerifier: chain), receiptPolicies: [],
                                     chainValidationTime: .creationDate, cache: cache)
        xcodeFingerprints = Set(xcodeRoots.map(\.fingerprint)).subtracting(roots.map(\.fingerprint))
        self.cache = cache
    }

    /// Verifies `receipt` (DER/BER bytes).
    package func authenticate(_ receipt: [UInt8]) -> Authentication {
        let verdict = validator.validate(receipt)
        guard verdict.isValid else { return Authentication(verdict: verdict, signer: nil) }
        let anchor = verdict.chain.last?.fingerprint ?? []
        return Authentication(verdict: verdict, signer: xcodeFingerprints.contains(anchor) ? .xcode : .appStore)
    }

    /// The status mapping: the verdicts verifyReceipt does not make — wrong
    /// bundle, version or device, an expired VPP receipt — are 0 with the decoded receipt;
    /// a receipt that cannot be authenticated is 21003; one that cannot be read is 21002.
    package static func status(for reason: VerdictReason) -> VerifyReceiptStatus {
        switch reason {
        case .valid, .bundleMismatch, .versionMismatch, .deviceHashMismatch, .receiptExpired:
            return .valid
        case .signatureInvalid, .untrustedChain, .certificateExpired, .unsupportedAlgorithm:
            return .notAuthenticated
        case .malformed, .missing:
            return .malformedReceiptData
        }
    }
}
