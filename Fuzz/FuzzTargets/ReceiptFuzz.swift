import BER
import Receipt

/// Fuzz target `receipt`: the receipt payload decoder and the PKCS#7 container.
///
/// Properties (stable abort signatures):
/// - decoding a payload, reading every typed field, opening the container and dumping it never crash;
/// - `receipt-roundtrip-difference`: decode → encode → decode gives the same attributes,
///   and encoding that again gives the same bytes (a stable fixed point);
/// - `receipt-der-difference`: a payload the decoder accepts in `der` rules is
///   re-encoded byte for byte (the model loses nothing);
/// - typed setters, device hash, dates, algorithm identifiers, the dump text and error
///   descriptions: see `ReceiptTypedChecks`.
public enum ReceiptFuzz {
    public static func fuzzOne(_ input: [UInt8]) {
        if let receipt = try? AppReceipt(decoding: input, rules: .ber) {
            readEveryField(receipt)
            report(ReceiptTypedChecks.check(receipt, payload: input))
            let encoded = receipt.encoded()
            guard let again = try? AppReceipt(decoding: encoded, rules: .ber), again == receipt,
                  again.encoded() == encoded else {
                fuzzFinding("receipt-roundtrip-difference")
            }
            if (try? AppReceipt(decoding: input, rules: .der)) != nil, encoded != input {
                fuzzFinding("receipt-der-difference", "\(input.count) bytes in, \(encoded.count) out")
            }
        }
        // `forge dump` of a small bare payload (a file starting with a SET): its text,
        // or how it refuses the payload.
        if input.first == 0x31 && input.count <= errorCheckLimit {
            do {
                report(ReceiptTypedChecks.check(try ReceiptDump(bytes: input)))
            } catch {
                report(ReceiptTypedChecks.check(error, inputCount: input.count))
            }
        }
        let container: PKCS7SignedData
        do {
            container = try PKCS7SignedData(bytes: input)
        } catch {
            if input.count <= errorCheckLimit { report(ReceiptTypedChecks.check(error, inputCount: input.count)) }
            return
        }
        report(ReceiptTypedChecks.check(container))
        do {
            let receipt = try container.decodeReceipt()
            readEveryField(receipt)
            report(ReceiptTypedChecks.check(receipt, payload: container.payload ?? []))
            // `forge dump`'s model of the same file never traps either.
            if let dump = try? ReceiptDump(bytes: input) { report(ReceiptTypedChecks.check(dump)) }
        } catch {
            report(ReceiptTypedChecks.check(error, inputCount: input.count))
        }
    }

    /// Refusals of inputs up to this size have their description checked, and bare
    /// payloads their dump (strings built per input: kept to the small inputs, which
    /// reach every refusal).
    static let errorCheckLimit = 256

    static func report(_ finding: ReceiptTypedChecks.Finding?) {
        if let finding { fuzzFinding(finding.signature, finding.detail) }
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
        precondition(sink >= 0)
    }
}
