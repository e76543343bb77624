import BER

/// `AppleReceiptMarkersPolicy` for chains that run through an intermediate, skipped
/// when the signer is itself one of the caller's trust anchors. App Store receipts
/// (leaf → WWDR intermediate → Apple root) must carry both markers, so that no other
/// certificate Apple issued can sign receipts; an Xcode StoreKit-testing receipt is
/// signed by a self-signed certificate the caller trusts directly, which has neither
/// marker and needs none: nothing was issued, so no issuance purpose can be wrong.
public struct DirectlyTrustedOrAppleMarkedPolicy: CertificatePolicy {
    /// SHA-256 fingerprints of the anchors.
    let anchorFingerprints: Set<[UInt8]>
    let markers = AppleReceiptMarkersPolicy()

    /// A policy that skips the markers for signers among `anchors`.
    public init(anchors: [Certificate]) {
        anchorFingerprints = Set(anchors.map(\.fingerprint))
    }

    /// Nil for a signer that is an anchor; otherwise `AppleReceiptMarkersPolicy`'s answer.
    public func check(_ chain: [Certificate], at time: ASN1Time) -> PolicyFailure? {
        if anchorFingerprints.contains(chain[0].fingerprint) { return nil }
        return markers.check(chain, at: time)
    }
}
