import LocalAppStore
import StrictJSON

// The bodies of the verbs that act on one transaction, named by its id.

/// `{"transactionId"}`: declineRefund, reverseRefund, revokeTransaction.
struct TransactionRequest: Decodable {
    var transactionId: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case transactionId
    }

    init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownMembers(CodingKeys.self)
        transactionId = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .transactionId)
    }
}

/// `{"transactionId", "reason", "percentage"?}`: `reason` is Apple's `RevocationReason`,
/// 0 (other) or 1 (an issue with the app); `percentage`, milli-percent, makes the refund
/// prorated (`REFUND_PRORATED`).
struct RefundTransactionRequest: Decodable {
    var transactionId: String
    var reason: RevocationReason
    var percentage: Int?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case transactionId, reason, percentage
    }

    init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownMembers(CodingKeys.self)
        let members = try decoder.container(keyedBy: CodingKeys.self)
        transactionId = try members.decode(String.self, forKey: .transactionId)
        reason = try members.choice(RevocationReason.self, forKey: .reason)
        // Present means a number: null is no share (leave the member out for a full refund).
        percentage = members.contains(.percentage) ? try members.decode(Int.self, forKey: .percentage) : nil
    }

    func apply(to state: inout StoreState) throws(StoreError) -> StoreActionResult {
        try state.refundTransaction(transactionId: transactionId, reason: reason, percentage: percentage)
    }
}

/// `{"transactionId", "reason"}`: `reason` is Apple's `ConsumptionRequestReason`
/// (`UNINTENDED_PURCHASE`, `FULFILLMENT_ISSUE` …).
struct ConsumptionRequest: Decodable {
    var transactionId: String
    var reason: ConsumptionRequestReason

    enum CodingKeys: String, CodingKey, CaseIterable {
        case transactionId, reason
    }

    init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownMembers(CodingKeys.self)
        let members = try decoder.container(keyedBy: CodingKeys.self)
        transactionId = try members.decode(String.self, forKey: .transactionId)
        reason = try members.choice(ConsumptionRequestReason.self, forKey: .reason)
    }

    func apply(to state: inout StoreState) throws(StoreError) -> StoreActionResult {
        try state.requestConsumptionInformation(transactionId: transactionId, reason: reason)
    }
}
