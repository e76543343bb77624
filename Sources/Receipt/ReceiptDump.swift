import BER
import Foundation

/// What `forge dump` prints: the container's shape and the decoded receipt, as text or
/// JSON. Works on real receipts and on bare payloads (a file starting with a SET).
public struct ReceiptDump: Encodable, Sendable {
    /// The PKCS#7 container's shape; nil for a bare payload.
    public struct Container: Encodable, Sendable {
        /// `definite` or `ber-indefinite`.
        public var encoding: String
        /// The container's digest algorithms, by name.
        public var digestAlgorithms: [String]
        /// The signer's signature algorithm, by name.
        public var signatureAlgorithm: String?
        /// How many certificates the container carries.
        public var certificateCount: Int
        /// True when the signer has signed attributes (receipts have none).
        public var signedAttributes: Bool
        /// The payload's length in bytes.
        public var payloadBytes: Int
        /// True when the payload came as a segmented (constructed) OCTET STRING.
        public var payloadSegmented: Bool
    }

    /// One attribute as dumped, known or not.
    public struct Attribute: Encodable, Sendable {
        /// The attribute type number.
        public var type: Int64
        /// The attribute version.
        public var version: Int64
        /// The attribute's name when the type is known.
        public var name: String?
        /// The decoded string or date text, when the type is known to hold one.
        public var value: String?
        /// The decoded integer, when the type is known to hold one.
        public var integer: Int64?
        /// The raw value in hex.
        public var hex: String
    }

    /// One in-app purchase record as dumped.
    public struct Purchase: Encodable, Sendable {
        /// Attribute 1702.
        public var productId: String?
        /// Attribute 1703.
        public var transactionId: String?
        /// Attribute 1705.
        public var originalTransactionId: String?
        /// Attribute 1701.
        public var quantity: Int64?
        /// Attribute 1707.
        public var productType: Int64?
        /// Attribute 1704, as written.
        public var purchaseDate: String?
        /// Attribute 1706, as written.
        public var originalPurchaseDate: String?
        /// Attribute 1708, as written.
        public var subscriptionExpirationDate: String?
        /// Attribute 1712, as written.
        public var cancellationDate: String?
        /// Attribute 1711.
        public var webOrderLineItemId: Int64?
        /// Attribute 1713.
        public var isTrialPeriod: Bool?
        /// Attribute 1719.
        public var isInIntroOfferPeriod: Bool?
        /// Attribute 1721.
        public var promotionalOfferId: String?
        /// Every attribute of the record, known or not, in payload order.
        public var attributes: [Attribute]
    }

    /// The receipt payload as dumped.
    public struct Receipt: Encodable, Sendable {
        /// Attribute 0.
        public var environment: String?
        /// Attribute 1.
        public var appItemId: Int64?
        /// Attribute 2.
        public var bundleId: String?
        /// Attribute 3.
        public var appVersion: String?
        /// Attribute 19.
        public var originalAppVersion: String?
        /// Attribute 4, in hex.
        public var opaque: String?
        /// Attribute 5, in hex.
        public var sha1Hash: String?
        /// Attribute 12, as written.
        public var creationDate: String?
        /// Attribute 18, as written.
        public var originalPurchaseDate: String?
        /// Attribute 21, as written.
        public var expirationDate: String?
        /// Attribute 10.
        public var ageRating: String?
        /// How many in-app purchase records the receipt holds.
        public var inAppCount: Int
        /// The in-app purchase records, in payload order.
        public var inApp: [Purchase]
        /// Every attribute except the in-app purchase records, in payload order.
        public var attributes: [Attribute]
    }

    /// The container's shape; nil when the input was a bare payload.
    public var container: Container?
    /// The decoded payload.
    public var receipt: Receipt

    /// Decodes a receipt file (or a bare payload).
    public init(bytes: [UInt8]) throws(ReceiptError) {
        let payload: [UInt8]
        if bytes.first == 0x31 {
            container = nil
            payload = bytes
        } else {
            let signedData = try PKCS7SignedData(bytes: bytes)
            let signer = signedData.signerInfos.first
            container = Container(
                encoding: signedData.encoding.rawValue,
                digestAlgorithms: signedData.digestAlgorithms.map { $0.oid.shortName ?? $0.oid.description },
                signatureAlgorithm: signer.map { $0.signatureAlgorithm.oid.shortName ?? $0.signatureAlgorithm.oid.description },
                certificateCount: signedData.certificates.count,
                signedAttributes: signer?.signedAttributes != nil,
                payloadBytes: signedData.payload?.count ?? 0,
                payloadSegmented: signedData.payloadIsSegmented)
            payload = signedData.payload ?? []
        }
        let decoded: AppReceipt
        do {
            decoded = try withBERPath("payload") { () throws(BERError) in try AppReceipt(decoding: payload) }
        } catch {
            throw .malformed(error)
        }
        receipt = Receipt(
            environment: decoded.environment, appItemId: decoded.appItemID, bundleId: decoded.bundleIdentifier,
            appVersion: decoded.appVersion, originalAppVersion: decoded.originalApplicationVersion,
            opaque: decoded.opaqueValue.map(lowercaseHex), sha1Hash: decoded.sha1Hash.map(lowercaseHex),
            creationDate: decoded.creationDate?.text, originalPurchaseDate: decoded.originalPurchaseDate?.text,
            expirationDate: decoded.expirationDate?.text, ageRating: decoded.ageRating,
            inAppCount: decoded.inAppPurchaseCount,
            inApp: decoded.inAppPurchases.map { purchase in
                Purchase(productId: purchase.productIdentifier, transactionId: purchase.transactionIdentifier,
                         originalTransactionId: purchase.originalTransactionIdentifier, quantity: purchase.quantity,
                         productType: purchase.productType, purchaseDate: purchase.purchaseDate?.text,
                         originalPurchaseDate: purchase.originalPurchaseDate?.text,
                         subscriptionExpirationDate: purchase.subscriptionExpirationDate?.text,
                         cancellationDate: purchase.cancellationDate?.text,
                         webOrderLineItemId: purchase.webOrderLineItemID, isTrialPeriod: purchase.isTrialPeriod,
                         isInIntroOfferPeriod: purchase.isInIntroOfferPeriod,
                         promotionalOfferId: purchase.promotionalOfferIdentifier,
                         attributes: ReceiptDump.attributes(purchase.attributes, names: ReceiptDump.inAppNames,
                                                            kinds: InAppPurchase.knownValueKinds))
            },
            attributes: ReceiptDump.attributes(decoded.attributes.filter { $0.type != AppReceipt.Field.inAppPurchase },
                                               names: ReceiptDump.appNames, kinds: AppReceipt.knownValueKinds))
    }

    static let appNames: [Int64: String] = [
        0: "environment", 1: "app item id", 2: "bundle id", 3: "app version", 4: "opaque value", 5: "SHA-1 hash",
        8: "date (undocumented)", 10: "age rating", 12: "creation date", 17: "in-app purchase",
        18: "original purchase date", 19: "original app version", 21: "expiration date",
    ]
    static let inAppNames: [Int64: String] = [
        1701: "quantity", 1702: "product id", 1703: "transaction id", 1704: "purchase date",
        1705: "original transaction id", 1706: "original purchase date", 1707: "product type",
        1708: "subscription expiration date", 1711: "web order line item id", 1712: "cancellation date",
        1713: "is trial period", 1719: "is in intro offer period", 1721: "promotional offer id",
    ]

    static func attributes(_ attributes: [ReceiptAttribute], names: [Int64: String],
                           kinds: [Int64: AttributeValueKind]) -> [Attribute] {
        attributes.map { attribute in
            var value: String?
            var integer: Int64?
            var reader = BERReader(attribute.value, rules: .ber)
            switch kinds[attribute.type] {
            case .utf8String?: value = try? reader.readUTF8String()
            case .ia5String?, .date?: value = try? reader.readIA5String()
            case .integer?: integer = try? reader.readInt64()
            default: break
            }
            return Attribute(type: attribute.type, version: attribute.version, name: names[attribute.type],
                             value: value, integer: integer, hex: lowercaseHex(attribute.value))
        }
    }

    /// Human-readable lines.
    public var text: String {
        var lines: [String] = []
        if let container {
            lines.append("container: PKCS#7 SignedData, \(container.encoding), digest \(container.digestAlgorithms.joined(separator: "+")), "
                + "signature \(container.signatureAlgorithm ?? "none"), \(container.certificateCount) certificate(s), "
                + (container.signedAttributes ? "signed attributes" : "no signed attributes")
                + ", payload \(container.payloadBytes) bytes" + (container.payloadSegmented ? " (segmented)" : ""))
        } else {
            lines.append("bare payload (no PKCS#7 container)")
        }
        func row(_ attribute: Attribute, indent: String) -> String {
            let label = "\(attribute.type) \(attribute.name ?? "(unknown)")"
            let shown = attribute.value.map { "\"\($0)\"" } ?? attribute.integer.map(String.init) ?? attribute.hex
            let version = attribute.version == 1 ? "" : " [version \(attribute.version)]"
            return indent + label.padding(toLength: max(label.count, 34), withPad: " ", startingAt: 0) + shown + version
        }
        lines.append("receipt: \(receipt.attributes.count + receipt.inAppCount) attributes, \(receipt.inAppCount) in-app purchase(s)")
        for attribute in receipt.attributes { lines.append(row(attribute, indent: "  ")) }
        for (index, purchase) in receipt.inApp.enumerated() {
            lines.append("  17 in-app purchase [\(index)]")
            for attribute in purchase.attributes { lines.append(row(attribute, indent: "      ")) }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
