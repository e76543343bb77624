import BER
import Receipt

/// The `receipt` target's checks on what a decoded receipt offers besides decoding:
/// - `receipt-typed-roundtrip-difference`: every typed field (and every in-app
///   purchase's) written back through its setter reads back the same, into an empty
///   receipt, over the receipt itself, and after encoding and decoding that;
/// - `receipt-unchecked-decode-difference`: an attribute set that knows no value kinds
///   decodes the same attributes, all of them unknown;
/// - `receipt-device-hash-difference`: the device hash of a device taken from the
///   input equals SHA-1 of device ‖ attribute 4 ‖ attribute 2 in one piece; a receipt
///   carrying it matches, one bit off does not; the device's text forms parse back;
/// - `receipt-date-difference`: each date survives its UTC text and a rebuild from its
///   instant, fraction and offset;
/// - `receipt-algorithm-difference`: each AlgorithmIdentifier of a container is written
///   and read back the same; a digest algorithm it names digests to its length;
/// - `receipt-dump-text-difference`, `receipt-error-description-difference`: the
///   `forge dump` text has a line per attribute; an error names its byte offset.
public enum ReceiptTypedChecks {
    /// A violated property: the abort signature and what differed.
    public struct Finding: Equatable, Sendable {
        public var signature: String
        public var detail: String
    }

    /// The typed value of every field of a receipt, compared as values.
    public struct Fields: Equatable {
        var environment: String?, appItemID: Int64?, bundleIdentifier: String?, appVersion: String?
        var opaqueValue: [UInt8]?, sha1Hash: [UInt8]?, undocumentedDate8: ReceiptDate?, ageRating: String?
        var creationDate: ReceiptDate?, originalPurchaseDate: ReceiptDate?, originalApplicationVersion: String?
        var expirationDate: ReceiptDate?
        var purchases: [PurchaseFields]

        public init(_ receipt: AppReceipt) {
            environment = receipt.environment; appItemID = receipt.appItemID
            bundleIdentifier = receipt.bundleIdentifier; appVersion = receipt.appVersion
            opaqueValue = receipt.opaqueValue; sha1Hash = receipt.sha1Hash
            undocumentedDate8 = receipt.undocumentedDate8; ageRating = receipt.ageRating
            creationDate = receipt.creationDate; originalPurchaseDate = receipt.originalPurchaseDate
            originalApplicationVersion = receipt.originalApplicationVersion; expirationDate = receipt.expirationDate
            purchases = receipt.inAppPurchases.map(PurchaseFields.init)
        }

        /// Sets every field of `receipt` through its setter (nil removes).
        public func apply(to receipt: inout AppReceipt) {
            receipt.environment = environment; receipt.appItemID = appItemID
            receipt.bundleIdentifier = bundleIdentifier; receipt.appVersion = appVersion
            receipt.opaqueValue = opaqueValue; receipt.sha1Hash = sha1Hash
            receipt.undocumentedDate8 = undocumentedDate8; receipt.ageRating = ageRating
            receipt.creationDate = creationDate; receipt.originalPurchaseDate = originalPurchaseDate
            receipt.originalApplicationVersion = originalApplicationVersion; receipt.expirationDate = expirationDate
            receipt.inAppPurchases = purchases.map { fields in
                var purchase = InAppPurchase()
                fields.apply(to: &purchase)
                return purchase
            }
        }
    }

    public struct PurchaseFields: Equatable {
        var quantity: Int64?, productIdentifier: String?, transactionIdentifier: String?, purchaseDate: ReceiptDate?
        var originalTransactionIdentifier: String?, originalPurchaseDate: ReceiptDate?, productType: Int64?
        var subscriptionExpirationDate: ReceiptDate?, webOrderLineItemID: Int64?, cancellationDate: ReceiptDate?
        var isTrialPeriod: Bool?, isInIntroOfferPeriod: Bool?, promotionalOfferIdentifier: String?

        init(_ purchase: InAppPurchase) {
            quantity = purchase.quantity; productIdentifier = purchase.productIdentifier
            transactionIdentifier = purchase.transactionIdentifier; purchaseDate = purchase.purchaseDate
            originalTransactionIdentifier = purchase.originalTransactionIdentifier
            originalPurchaseDate = purchase.originalPurchaseDate; productType = purchase.productType
            subscriptionExpirationDate = purchase.subscriptionExpirationDate
            webOrderLineItemID = purchase.webOrderLineItemID; cancellationDate = purchase.cancellationDate
            isTrialPeriod = purchase.isTrialPeriod; isInIntroOfferPeriod = purchase.isInIntroOfferPeriod
            promotionalOfferIdentifier = purchase.promotionalOfferIdentifier
        }

        func apply(to purchase: inout InAppPurchase) {
            purchase.quantity = quantity; purchase.productIdentifier = productIdentifier
            purchase.transactionIdentifier = transactionIdentifier; purchase.purchaseDate = purchaseDate
            purchase.originalTransactionIdentifier = originalTransactionIdentifier
            purchase.originalPurchaseDate = originalPurchaseDate; purchase.productType = productType
            purchase.subscriptionExpirationDate = subscriptionExpirationDate
            purchase.webOrderLineItemID = webOrderLineItemID; purchase.cancellationDate = cancellationDate
            purchase.isTrialPeriod = isTrialPeriod; purchase.isInIntroOfferPeriod = isInIntroOfferPeriod
            purchase.promotionalOfferIdentifier = promotionalOfferIdentifier
        }

        var dates: [ReceiptDate] {
            [purchaseDate, originalPurchaseDate, subscriptionExpirationDate, cancellationDate].compactMap { $0 }
        }
    }

    /// An attribute set that knows no value kinds: it keeps every attribute raw.
    struct UncheckedAttributeSet: ReceiptAttributeSet {
        var attributes: [ReceiptAttribute]
        init(attributes: [ReceiptAttribute]) { self.attributes = attributes }
        static let knownValueKinds: [Int64: AttributeValueKind] = [:]
    }

    /// Every check on a receipt decoded from `payload` (BER rules).
    public static func check(_ receipt: AppReceipt, payload: [UInt8]) -> Finding? {
        typedRoundTrip(receipt) ?? unchecked(receipt, payload: payload) ?? deviceHash(receipt) ?? dates(receipt)
    }

    public static func typedRoundTrip(_ receipt: AppReceipt) -> Finding? {
        let fields = Fields(receipt)
        var fresh = AppReceipt()
        fields.apply(to: &fresh)
        var same = receipt
        fields.apply(to: &same)
        let reread = try? AppReceipt(decoding: fresh.encoded(), rules: .ber)
        for (label, candidate) in [("into an empty receipt", fresh), ("over itself", same), ("encoded and decoded", reread)] {
            guard let candidate, Fields(candidate) == fields else {
                return Finding(signature: "receipt-typed-roundtrip-difference", detail: label)
            }
        }
        guard fresh.inAppPurchaseCount == fields.purchases.count else {
            return Finding(signature: "receipt-typed-roundtrip-difference",
                           detail: "\(fields.purchases.count) purchases set, \(fresh.inAppPurchaseCount) counted")
        }
        return nil
    }

    static func unchecked(_ receipt: AppReceipt, payload: [UInt8]) -> Finding? {
        guard let unchecked = try? UncheckedAttributeSet(decoding: payload, rules: .ber),
              unchecked.attributes == receipt.attributes, unchecked.unknownAttributes == unchecked.attributes else {
            return Finding(signature: "receipt-unchecked-decode-difference", detail: "")
        }
        return nil
    }

    /// The device: the first 16 (or 6) bytes of the opaque value, so the fuzzer
    /// chooses it; a fixed UUID when the value is shorter.
    public static func device(for receipt: AppReceipt) -> DeviceIdentifier {
        let opaque = receipt.opaqueValue ?? []
        let bytes = opaque.count >= 16 ? Array(opaque.prefix(16))
            : opaque.count >= 6 ? Array(opaque.prefix(6)) : [UInt8](repeating: 0xA5, count: 16)
        return DeviceIdentifier(bytes: bytes)!
    }

    public static func deviceHash(_ receipt: AppReceipt) -> Finding? {
        func finding(_ detail: String) -> Finding { Finding(signature: "receipt-device-hash-difference", detail: detail) }
        let device = device(for: receipt)
        let forms = [device.formatted, device.hex, device.description]
        guard forms.allSatisfy({ DeviceIdentifier(text: $0) == device }),
              device.kind == (device.bytes.count == 16 ? .uuid : .macAddress) else {
            return finding("\(device.hex) does not parse back from its text forms")
        }
        guard let opaque = receipt.opaqueValue, let bundle = receipt.bundleIdentifierValue else {
            return DeviceHash.expected(for: receipt, device: device) == nil && !DeviceHash.matches(receipt, device: device)
                ? nil : finding("a hash without attribute 2 or 4")
        }
        let expected = DeviceHash.expected(for: receipt, device: device)
        guard expected == DigestAlgorithm.sha1.digest(device.bytes + opaque + bundle) else {
            return finding("incremental and one-piece SHA-1 differ")
        }
        var carrying = receipt
        carrying.sha1Hash = expected
        guard DeviceHash.matches(carrying, device: device) else { return finding("its own hash does not match") }
        carrying.sha1Hash![19] ^= 1
        guard !DeviceHash.matches(carrying, device: device) else { return finding("a hash one bit off matches") }
        guard DeviceHash.matches(receipt, device: device) == (receipt.sha1Hash == expected) else {
            return finding("the receipt's own hash")
        }
        return nil
    }

    public static func dates(_ receipt: AppReceipt) -> Finding? {
        let fields = Fields(receipt)
        let dates = [fields.undocumentedDate8, fields.creationDate, fields.originalPurchaseDate, fields.expirationDate]
            .compactMap { $0 } + fields.purchases.flatMap(\.dates)
        for date in dates {
            guard let utc = ReceiptDate(date.utcText), utc.secondsSince1970 == date.secondsSince1970,
                  utc.utcOffsetMinutes == 0, !(date < utc) else {
                return Finding(signature: "receipt-date-difference", detail: "\(date.text) as UTC \(date.utcText)")
            }
            let rebuilt = ReceiptDate(secondsSince1970: date.secondsSince1970, nanoseconds: date.nanoseconds,
                                      fractionDigits: 9, utcOffsetMinutes: date.utcOffsetMinutes == 0 ? nil : date.utcOffsetMinutes)
            guard rebuilt == date, rebuilt.hashValue == date.hashValue, ReceiptDate(rebuilt.text) == date else {
                return Finding(signature: "receipt-date-difference", detail: "\(date.text) rebuilt as \(rebuilt.text)")
            }
        }
        return nil
    }

    /// Checks on a parsed container: its algorithm identifiers and digests.
    public static func check(_ container: PKCS7SignedData) -> Finding? {
        let identifiers = container.digestAlgorithms
            + container.signerInfos.flatMap { [$0.digestAlgorithm, $0.signatureAlgorithm] }
        for identifier in identifiers {
            var writer = BERWriter()
            writer.appendAlgorithmIdentifier(identifier)
            var reader = BERReader(writer.bytes, rules: .ber)
            guard let element = try? reader.readElement(), let again = try? AlgorithmIdentifier(element),
                  again == AlgorithmIdentifier(oid: identifier.oid, parameters: identifier.parameters),
                  again.hasAbsentOrNullParameters == (identifier.parameters == nil || identifier.hasNullParameters) else {
                return Finding(signature: "receipt-algorithm-difference", detail: identifier.oid.description)
            }
        }
        let payload = container.payload ?? []
        for algorithm in DigestAlgorithm.allCases {
            guard DigestAlgorithm(oid: algorithm.oid) == algorithm,
                  algorithm.digest(payload.prefix(64)).count == algorithm.digestLength else {
                return Finding(signature: "receipt-algorithm-difference", detail: algorithm.rawValue)
            }
        }
        return nil
    }

    /// `forge dump`'s text: at least the header lines, one per attribute and one per
    /// in-app purchase (values may hold line breaks of their own).
    public static func check(_ dump: ReceiptDump) -> Finding? {
        let attributes = dump.receipt.attributes.count + dump.receipt.inApp.reduce(0) { $0 + 1 + $1.attributes.count }
        let text = dump.text
        let lines = text.utf8.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        guard lines >= 2 + attributes, text.hasPrefix(dump.container == nil ? "bare payload" : "container: ") else {
            return Finding(signature: "receipt-dump-text-difference", detail: "\(attributes) attributes, \(lines) lines")
        }
        return nil
    }

    /// A refusal says what it is and, for malformed input, names a byte offset inside
    /// the input; it is a `malformed` (invalid) verdict.
    public static func check(_ error: ReceiptError, inputCount: Int) -> Finding? {
        let text = error.description
        let named: Bool
        switch error {
        case .notPKCS7(let what): named = text.hasPrefix("not a PKCS#7 receipt: ") && text.hasSuffix(what.description)
        case .malformed(let ber):
            named = text.hasPrefix("malformed receipt: ") && text.contains(" at byte \(ber.offset)")
                && (0...inputCount).contains(ber.offset)
        }
        guard named, error.verdictReason == .malformed, error.verdictReason.verdict == .invalid else {
            return Finding(signature: "receipt-error-description-difference", detail: text)
        }
        return nil
    }
}
