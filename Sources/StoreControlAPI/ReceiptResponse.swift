import Foundation

/// The `receipt` verb's answer: the customer's receipt at the store's instant, base64 as
/// an app sends it to `verifyReceipt` (`receipt-data`), and its creation date (the
/// store's clock to the second, in milliseconds like the store's other instants).
struct ReceiptResponse: Encodable {
    var customer: String
    var creationDate: Int64
    var receiptData: String

    init(customer: String, creationDate: Int64, receiptData: [UInt8]) {
        self.customer = customer
        self.creationDate = creationDate
        self.receiptData = Data(receiptData).base64EncodedString()
    }
}
