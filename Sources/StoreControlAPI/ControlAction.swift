import LocalAppStore
import StrictJSON

/// One action of the control API decoded and not yet applied: a verb and its body, read
/// strictly before the store is touched. The handler makes one per request; a scenario
/// script (`StoreScenarios`) makes one per step from the same verbs and bodies, so an
/// action has one format whether it comes over HTTP or from a file.
public struct ControlAction: Sendable {
    public let verb: ControlVerb
    private let change: Change

    private enum Change: Sendable {
        case write(@Sendable (inout StoreState) throws(StoreError) -> StoreActionResult)
        /// resetToDefaultState: the store swaps in its kept default state, no rebuild under the lock.
        case reset
        /// advanceClock: a move in parts, the lock released between them (`LocalAppStore.advanceClock`).
        case advanceClock(AdvanceClockRequest)
    }

    /// Decodes `body` as `verb`'s request (an empty body counts as `{}`). The read-only
    /// verbs (`state`, `receipt`) are no action: `invalidRequest` naming the path.
    public init(_ verb: ControlVerb, body: [UInt8]) throws(ControlError) {
        self.verb = verb
        switch verb {
        case .buyProduct:
            let request = try Self.decode(BuyProductRequest.self, from: body)
            change = .write { state throws(StoreError) in try request.apply(to: &state) }
        case .forceRenewalOfSubscription:
            let request = try Self.decode(SubscriptionRequest.self, from: body)
            change = .write { state throws(StoreError) in try state.forceRenewalOfSubscription(originalTransactionId: request.originalTransactionId) }
        case .expireSubscription:
            let request = try Self.decode(ExpireSubscriptionRequest.self, from: body)
            change = .write { state throws(StoreError) in
                try state.expireSubscription(originalTransactionId: request.originalTransactionId, reason: request.reason)
            }
        case .failRenewal:
            let request = try Self.decode(FailRenewalRequest.self, from: body)
            change = .write { state throws(StoreError) in try request.apply(to: &state) }
        case .recoverBilling:
            let request = try Self.decode(SubscriptionRequest.self, from: body)
            change = .write { state throws(StoreError) in try state.recoverBilling(originalTransactionId: request.originalTransactionId) }
        case .disableAutoRenewForTransaction:
            let request = try Self.decode(SubscriptionRequest.self, from: body)
            change = .write { state throws(StoreError) in try state.disableAutoRenew(originalTransactionId: request.originalTransactionId) }
        case .enableAutoRenewForTransaction:
            let request = try Self.decode(SubscriptionRequest.self, from: body)
            change = .write { state throws(StoreError) in try state.enableAutoRenew(originalTransactionId: request.originalTransactionId) }
        case .changeRenewalProduct:
            let request = try Self.decode(ChangeRenewalProductRequest.self, from: body)
            change = .write { state throws(StoreError) in try request.apply(to: &state) }
        case .refundTransaction:
            let request = try Self.decode(RefundTransactionRequest.self, from: body)
            change = .write { state throws(StoreError) in try request.apply(to: &state) }
        case .declineRefund:
            let request = try Self.decode(TransactionRequest.self, from: body)
            change = .write { state throws(StoreError) in try state.declineRefund(transactionId: request.transactionId) }
        case .reverseRefund:
            let request = try Self.decode(TransactionRequest.self, from: body)
            change = .write { state throws(StoreError) in try state.reverseRefund(transactionId: request.transactionId) }
        case .revokeTransaction:
            let request = try Self.decode(TransactionRequest.self, from: body)
            change = .write { state throws(StoreError) in try state.revokeTransaction(transactionId: request.transactionId) }
        case .requestConsumptionInformation:
            let request = try Self.decode(ConsumptionRequest.self, from: body)
            change = .write { state throws(StoreError) in try request.apply(to: &state) }
        case .priceIncrease:
            let request = try Self.decode(PriceIncreaseRequest.self, from: body)
            change = .write { state throws(StoreError) in try request.apply(to: &state) }
        case .acceptPriceIncrease:
            let request = try Self.decode(SubscriptionRequest.self, from: body)
            change = .write { state throws(StoreError) in try state.acceptPriceIncrease(originalTransactionId: request.originalTransactionId) }
        case .advanceClock:
            let request = try Self.decode(AdvanceClockRequest.self, from: body)
            change = .advanceClock(request)
        case .clearTransactions:
            let request = try Self.decode(CustomerRequest.self, from: body)
            change = .write { state throws(StoreError) in try state.clearTransactions(customer: request.customer) }
        case .resetToDefaultState:
            _ = try Self.decode(EmptyRequest.self, from: body)
            change = .reset
        case .state, .receipt:
            throw ControlError(.invalidRequest, field: "path", "\(verb.rawValue) reads the store, it performs nothing")
        }
    }

    /// Applies the action in one write (a move of the clock in parts); a refusal by the
    /// store changes nothing.
    public func perform(on store: LocalAppStore) throws(ControlError) -> StoreActionResult {
        switch change {
        case .reset:
            store.resetToDefaultState()
            return StoreActionResult()
        case .write(let action):
            do throws(StoreError) {
                return try store.write(action)
            } catch {
                throw ControlError(error)
            }
        case .advanceClock(let request):
            do throws(StoreError) {
                return try request.apply(to: store)
            } catch {
                throw ControlError(error)
            }
        }
    }

    /// The body through the strict parser (RFC 8259) and `Request`'s strict decoding.
    static func decode<Request: Decodable>(_ type: Request.Type, from body: [UInt8]) throws(ControlError) -> Request {
        do throws(JSONInputError) {
            return try JSONInput.parse(body.isEmpty ? Array("{}".utf8) : body, file: "body").decode(type)
        } catch {
            throw ControlError(error)
        }
    }
}
