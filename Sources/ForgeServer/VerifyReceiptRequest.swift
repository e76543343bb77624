import Foundation
import StrictJSON

/// The JSON body of a verifyReceipt request (VERIFYRECEIPT.md, "Request body").
package struct VerifyReceiptRequest: Sendable, Hashable {
    /// The receipt, decoded from `receipt-data` (Base64; whitespace and line breaks allowed).
    package var receipt: [UInt8]
    /// `password`: the app's shared secret, when sent.
    package var password: String?
    /// `exclude-old-transactions`: only the latest renewal of each subscription.
    package var excludeOldTransactions: Bool

    package init(receipt: [UInt8], password: String? = nil, excludeOldTransactions: Bool = false) {
        self.receipt = receipt
        self.password = password
        self.excludeOldTransactions = excludeOldTransactions
    }

    /// Parses a request body through the strict parser: a JSON object with a Base64
    /// `receipt-data` string, an optional `password` string and an optional
    /// `exclude-old-transactions` boolean (also the strings `"true"`/`"false"`, which
    /// some clients send). `null` counts as absent; other members are ignored; a member
    /// given twice, like any body that is not RFC 8259 JSON, is refused. The failure
    /// names the JSON location (`body: $['receipt-data']: expected a string, found a number`).
    package init(body: [UInt8]) throws(VerifyReceiptRequestError) {
        let receiptData: String?
        let password: String?
        var excludeOldTransactions = false
        do throws(JSONInputError) {
            let request = try JSONInput.parse(body, file: "body").object(knownKeys: nil)
            receiptData = try request.optionalNonNull("receipt-data")?.string()
            password = try request.optionalNonNull("password")?.string()
            if let exclude = request.optionalNonNull("exclude-old-transactions") {
                excludeOldTransactions = exclude.value.stringValue == nil ? try exclude.bool()
                    : try exclude.choice([("true", true), ("false", false)], naming: "exclude-old-transactions string")
            }
        } catch {
            throw VerifyReceiptRequestError(code: .malformedBody, description: error.description)
        }
        guard let receiptData else { throw VerifyReceiptRequestError(code: .missingReceiptData, description: "no receipt-data") }
        guard let receipt = Self.base64(receiptData) else { throw VerifyReceiptRequestError(code: .receiptDataNotBase64, description: "receipt-data is not Base64") }
        guard !receipt.isEmpty else { throw VerifyReceiptRequestError(code: .emptyReceiptData, description: "receipt-data is empty") }
        self.init(receipt: receipt, password: password, excludeOldTransactions: excludeOldTransactions)
    }

    /// Strict Base64 (standard alphabet, padded) after removing ASCII whitespace, as
    /// clients that wrap lines at 64 or 76 characters send it.
    static func base64(_ text: String) -> [UInt8]? {
        let compact = text.utf8.filter { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return Data(base64Encoded: Data(compact)).map { [UInt8]($0) }
    }
}

/// Why a body is not a usable request (answered with status 21002).
package struct VerifyReceiptRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Code: String, Sendable, Hashable {
        /// Not RFC 8259 JSON, not an object, or a member of the wrong type.
        case malformedBody
        case missingReceiptData
        case receiptDataNotBase64
        case emptyReceiptData
    }

    package let code: Code
    package let description: String
}
