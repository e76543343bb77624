import BER
import Receipt
import ForgeCA
import ReceiptForge

/// A receipt opened for structure-aware mutation: the decoded payload attributes,
/// how the payload is encoded, and (for a receipt file) how the container around it
/// is laid out and signed. `ReceiptMutator` changes it; `payload` and
/// `file(signedBy:)` encode it again, re-signed with the forge's keys.
///
/// Lossless until changed: an untouched one gives back the payload bytes it was
/// opened from (BER and all), so only what a mutation touched differs.
public struct MutableReceipt: Sendable, Hashable {
    /// How the payload's SETs, SEQUENCEs and values are encoded.
    public struct PayloadEncoding: Sendable, Hashable {
        /// Length form of SETs and SEQUENCEs (`.indefinite` or long forms are BER).
        public var constructed: BERWriter.LengthForm = .minimal
        /// Length form of INTEGERs and OCTET STRINGs.
        public var primitive: BERWriter.LengthForm = .minimal
        /// `.sorted`: DER SET OF order (App Store); `.asWritten`: attribute order (Xcode).
        public var order: BERWriter.SetOrder = .asWritten

        public init() {}

        /// A writer with these length forms.
        func writer() -> BERWriter { BERWriter(constructedLengthForm: constructed, primitiveLengthForm: primitive) }

        /// One word per setting, for mutation reports.
        var summary: String {
            func name(_ form: BERWriter.LengthForm) -> String {
                switch form {
                case .minimal: return "minimal"
                case .indefinite: return "indefinite"
                case .longForm(let octets): return "long form (\(octets) octets)"
                }
            }
            return "constructed \(name(constructed)), primitive \(name(primitive)), "
                + (order == .sorted ? "DER SET order" : "attribute order")
        }
    }

    /// How the PKCS#7 container is built and signed (nil for a bare payload).
    public struct Container: Sendable, Hashable {
        public var layout: ReceiptSigner.Layout = .definite
        public var digest: DigestAlgorithm = .sha256
        public var signatureAlgorithm: OID = .rsaEncryption
        /// Certificates root first instead of leaf first.
        public var reversedChain = false

        public init() {}
    }

    /// The payload attributes (the source of truth once `isChanged`).
    public var receipt: AppReceipt {
        didSet { isChanged = true }
    }
    public var encoding = PayloadEncoding() {
        didSet { isChanged = true }
    }
    public var container: Container?
    /// The payload bytes it was opened from.
    public let originalPayload: [UInt8]
    /// True once the attributes or the encoding were set.
    public private(set) var isChanged = false

    /// A bare payload (`SET OF ReceiptAttribute`), or nil when it does not decode.
    public init?(payload: [UInt8]) {
        guard let receipt = try? AppReceipt(decoding: payload, rules: .ber) else { return nil }
        self.receipt = receipt
        originalPayload = payload
    }

    /// A PKCS#7 receipt file whose payload decodes, or nil. The container's layout,
    /// digest and signature algorithm are kept where the forge can sign them again
    /// (SHA-1 or SHA-256; anything else becomes SHA-256).
    public init?(file: [UInt8]) {
        guard let signedData = try? PKCS7SignedData(bytes: file), let payload = signedData.payload,
              let receipt = try? AppReceipt(decoding: payload, rules: .ber) else { return nil }
        self.receipt = receipt
        originalPayload = payload
        var container = Container()
        if signedData.encoding == .berIndefinite { container.layout = .berIndefinite }
        if let info = signedData.signerInfos.first {
            if let digest = DigestAlgorithm(oid: info.digestAlgorithm.oid), digest == .sha1 || digest == .sha256 {
                container.digest = digest
            }
            if info.signatureAlgorithm.oid == .sha256WithRSAEncryption && container.digest == .sha256 {
                container.signatureAlgorithm = .sha256WithRSAEncryption
            }
        }
        self.container = container
    }

    /// A receipt file's or a payload's bytes: a container when they parse as one.
    public init?(bytes: [UInt8]) {
        if let file = MutableReceipt(file: bytes) {
            self = file
        } else if let payload = MutableReceipt(payload: bytes) {
            self = payload
        } else {
            return nil
        }
    }

    /// The payload: the original bytes while unchanged, else the attributes encoded
    /// with `encoding`.
    public var payload: [UInt8] {
        guard isChanged else { return originalPayload }
        var writer = encoding.writer()
        receipt.encode(into: &writer, order: encoding.order)
        return writer.bytes
    }

    /// An attribute set (an in-app record) encoded with `encoding`, as an attribute value.
    package func encodedValue<Set: ReceiptAttributeSet>(_ set: Set) -> [UInt8] {
        var writer = encoding.writer()
        set.encode(into: &writer, order: encoding.order)
        return writer.bytes
    }

    /// The receipt file: the payload in a container signed by `authority`'s leaf, with
    /// its leaf, intermediate and root, so that the signature and chain verify. A bare
    /// payload gives the payload itself.
    public func file(signedBy authority: ReceiptAuthority) throws(KeyError) -> [UInt8] {
        guard let container else { return payload }
        let chain = [authority.leaf.certificate, authority.intermediate.certificate, authority.root.certificate]
        let signer = ReceiptSigner(signer: authority.leaf, certificates: container.reversedChain ? chain.reversed() : chain,
                                   digest: container.digest, signatureAlgorithm: container.signatureAlgorithm,
                                   layout: container.layout)
        return try signer.sign(payload)
    }
}
