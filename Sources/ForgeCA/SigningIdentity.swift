import Foundation

/// A certificate and the key that signs with it.
public struct SigningIdentity<Key: SigningKey>: Sendable {
    public let certificate: [UInt8]
    public let key: Key

    public init(certificate: [UInt8], key: Key) {
        self.certificate = certificate
        self.key = key
    }

    public var summary: CertificateSummary {
        // Every certificate the forge holds was built or checked by it.
        try! CertificateSummary(der: certificate)
    }

    /// `x5c` form: standard base64 of the DER (not base64url).
    public var x5c: String { Data(certificate).base64EncodedString() }
}
