import BER
import Receipt

/// Fuzz target `receipt`: the receipt payload decoder and the PKCS#7 container.
///
/// Properties (stable abort signatures):
/// - decoding a payload, reading every typed field, opening the container and dumping it never crash;
/// - `receipt-roundtrip-difference`: decode → encode → decode gives the same attributes,
///   and encoding that again gives the same bytes (a stable fixed point);
/// - `receipt-der-difference`: a payload the decoder accepts in `der` rules is
///   re-encoded byte for byte (the model loses nothing).
public enum ReceiptFuzz {
    public static func fuzzOne(_ input: [UInt8]) {
        if let receipt = try? AppReceipt(decoding: input, rules: .ber) {
            readEveryField(receipt)
            let encoded = receipt.encoded()
            guard let again = try? AppReceipt(decoding: encoded, rules: .ber), again == receipt,
                  again.encoded() == encoded else {
                fuzzFinding("receipt-roundtrip-difference")
            }
            if (try? AppReceipt(decoding: input, rules: .der)) != nil, encoded != input {
                fuzzFinding("receipt-der-difference", "\(input.count) bytes in, \(encoded.count) out")
            }
        }
        if let container = try? PKCS7SignedData(bytes: input), let receipt = try? container.decodeReceipt() {
            readEveryField(receipt)
            // `forge dump`'s model of the same file never traps either.
            _ = try? ReceiptDump(bytes: input)
        }
    }

    static func readEveryField(_ receipt: AppReceipt) {
        var sink = 0
        func touch<T>(_ value: T?) { if value != nil { sink &+= 1 } }
        touch(receipt.environment); touch(receipt.appItemID); touch(receipt.bundleIdentifier)
        touch(receipt.bundleIdentifierValue); touch(receipt.appVersion); touch(receipt.opaqueValue)
        touch(receipt.sha1Hash); touch(receipt.undocumentedDate8?.description); touch(receipt.ageRating)
        touch(receipt.creationDate?.description); touch(receipt.originalPurchaseDate?.description)
        touch(receipt.originalApplicationVersion); touch(receipt.expirationDate?.description)
        for purchase in receipt.inAppPurchases {
            touch(purchase.quantity); touch(purchase.productIdentifier); touch(purchase.transactionIdentifier)
            touch(purchase.purchaseDate?.description); touch(purchase.originalTransactionIdentifier)
            touch(purchase.originalPurchaseDate?.description); touch(purchase.productType)
            touch(purchase.subscriptionExpirationDate?.description); touch(purchase.webOrderLineItemID)
            touch(purchase.cancellationDate?.description); touch(purchase.isTrialPeriod)
            touch(purchase.isInIntroOfferPeriod); touch(purchase.promotionalOfferIdentifier)
        }
        if let device = DeviceIdentifier(bytes: Array(repeating: 0xA5, count: 16)) {
            touch(DeviceHash.expected(for: receipt, device: device))
        }
        precondition(sink >= 0)
    }
}
