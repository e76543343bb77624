import BER
import Receipt
import ForgeCA

/// Builds the PKCS#7 SignedData of a receipt exactly as Apple does, with `BERWriter`:
/// one digest algorithm, the payload in `encapContentInfo`, the certificates in the
/// order given (App Store receipts: leaf, intermediate, root — not DER SET order), one
/// SignerInfo (version 1, issuerAndSerialNumber) with **no signed attributes**, so the
/// RSA PKCS#1 v1.5 signature covers the payload bytes directly.
public struct ReceiptSigner: Sendable {
    /// How the container is laid out.
    public enum Layout: String, Sendable, Codable, CaseIterable {
        /// Definite lengths, primitive OCTET STRING (App Store).
        case definite
        /// BER indefinite lengths on ContentInfo, [0], SignedData, encapContentInfo and
        /// its [0], the payload in a constructed indefinite OCTET STRING holding one
        /// primitive segment (Xcode StoreKit testing).
        case berIndefinite = "ber-indefinite"
        /// As `berIndefinite`, with the payload split into nested constructed OCTET
        /// STRINGs of 1000-byte segments (what some BER encoders emit).
        case berNestedOctetString = "ber-nested-octet-string"
    }

    /// The leaf certificate and key that sign.
    public var signer: SigningIdentity<RSAPrivateKey>
    /// The certificates the container carries, in this order.
    public var certificates: [[UInt8]]
    /// The digest of the payload that is signed.
    public var digest: DigestAlgorithm
    /// `rsaEncryption` (App Store) or `sha256WithRSAEncryption` (most Xcode receipts).
    public var signatureAlgorithm: OID
    /// Definite or BER indefinite lengths.
    public var layout: Layout

    /// A signer that writes App Store's layout unless told otherwise: SHA-256, `rsaEncryption`, definite lengths.
    public init(signer: SigningIdentity<RSAPrivateKey>, certificates: [[UInt8]], digest: DigestAlgorithm = .sha256,
                signatureAlgorithm: OID = .rsaEncryption, layout: Layout = .definite) {
        self.signer = signer
        self.certificates = certificates
        self.digest = digest
        self.signatureAlgorithm = signatureAlgorithm
        self.layout = layout
    }

    /// The signed receipt file for `payload`.
    public func sign(_ payload: [UInt8]) throws(KeyError) -> [UInt8] {
        let signature = try signer.key.sign(payload, digest: digest)
        return container(payload: payload, signature: signature)
    }

    /// The container around a payload and a signature already made (tests tamper with either).
    public func container(payload: [UInt8], signature: [UInt8]) -> [UInt8] {
        let signerCertificate = signer.summary
        let indefinite = layout != .definite
        let outerForm: BERWriter.LengthForm = indefinite ? .indefinite : .minimal
        let digestAlgorithm = AlgorithmIdentifier(oid: digest.oid)
        var writer = BERWriter()
        writer.appendSequence(lengthForm: outerForm) { contentInfo in
            contentInfo.appendObjectIdentifier(.pkcs7SignedData)
            contentInfo.appendConstructed(.context(0), lengthForm: outerForm) { explicit in
                explicit.appendSequence(lengthForm: outerForm) { signedData in
                    signedData.appendInteger(1)
                    signedData.appendConstructed(.set) { $0.appendAlgorithmIdentifier(digestAlgorithm) }
                    signedData.appendSequence(lengthForm: outerForm) { encap in
                        encap.appendObjectIdentifier(.pkcs7Data)
                        encap.appendConstructed(.context(0), lengthForm: outerForm) { content in
                            appendPayload(payload, into: &content)
                        }
                    }
                    signedData.appendConstructed(.context(0)) { set in
                        for certificate in certificates { set.appendEncoded(certificate) }
                    }
                    signedData.appendConstructed(.set) { infos in
                        infos.appendSequence { info in
                            info.appendInteger(1)
                            info.appendSequence { sid in
                                sid.appendEncoded(signerCertificate.issuer)
                                sid.appendUnsignedInteger(magnitude: signerCertificate.serialNumber)
                            }
                            info.appendAlgorithmIdentifier(digestAlgorithm)
                            info.appendAlgorithmIdentifier(AlgorithmIdentifier(oid: signatureAlgorithm))
                            info.appendOctetString(signature)
                        }
                    }
                }
            }
        }
        return writer.bytes
    }

    private func appendPayload(_ payload: [UInt8], into writer: inout BERWriter) {
        switch layout {
        case .definite:
            writer.appendOctetString(payload)
        case .berIndefinite:
            writer.appendConstructed(.octetString, lengthForm: .indefinite) { $0.appendOctetString(payload) }
        case .berNestedOctetString:
            let middle = payload.count / 2
            writer.appendConstructed(.octetString, lengthForm: .indefinite) { outer in
                outer.appendConstructed(.octetString, lengthForm: .indefinite) { inner in
                    var start = 0
                    while start < middle {
                        let end = min(start + 1000, middle)
                        inner.appendOctetString(payload[start..<end])
                        start = end
                    }
                }
                outer.appendOctetString(payload[middle...])
            }
        }
    }
}
