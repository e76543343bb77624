import APIMessage
import AppInput
import ForgeCA
import Foundation
import LocalAppStore
import NotificationDelivery
import StoreAPIAuthentication
import StoreKit2
import StoreNotifications

/// The App Store Server API without HTTP: a request in, Apple's answer out. Routes
/// every endpoint of both environments (`/inApps/…` to the production store,
/// `/sandbox/inApps/…` to the sandbox one), checks the bearer token first, reads or
/// writes the store under its lock, then signs the payloads outside it.
///
/// Answers as Apple's server does: 200 with JSON (202 and no body for consumption
/// information, 200 and no body for the app account token and finish); errors as
/// `{"errorCode","errorMessage"}` with `Content-Type: application/json` and the code's
/// HTTP status; a bad token 401 `Unauthenticated` (plus `X-Forge-Auth-Failure: reason`,
/// which Apple does not send); a path that is no endpoint 404; a known path with
/// another method 405; with `rateLimits`, a request over its endpoint's limit 429
/// 4290000 with `Retry-After` in UNIX milliseconds.
public struct ServerAPIHandler: Sendable {
    public let stores: LocalAppStores
    public let authentication: ServerAPIAuthentication
    /// The wall clock bearer tokens are checked against.
    public let wallClock: @Sendable () -> Date
    /// `--rate-limits`: nil, no limit.
    public let rateLimiter: ServerAPIRateLimiter?
    /// The stores' notifications (history, test notifications); nil: none are recorded,
    /// so history is empty and Request a Test Notification answers 4040007.
    public let notifications: ServerNotifications?
    private let signatures: JWSSignatureCache

    /// Signatures kept for repeated payloads (a few MiB at most: a JWS is about 3 KiB).
    public static let signatureCacheCapacity = 4_096

    public init(stores: LocalAppStores, authentication: ServerAPIAuthentication, authority: JWSAuthority = .committed,
                wallClock: @escaping @Sendable () -> Date = { Date() }, rateLimits: ServerAPIRateLimits? = nil,
                notifications: ServerNotifications? = nil) {
        self.stores = stores
        self.notifications = notifications
        self.authentication = authentication
        self.wallClock = wallClock
        rateLimiter = rateLimits.map(ServerAPIRateLimiter.init(limits:))
        signatures = JWSSignatureCache(authority: authority, capacity: Self.signatureCacheCapacity)
    }

    /// JWS signed so far, not counting those the cache answered (a repeated read signs once).
    public var signaturesMade: Int { signatures.signaturesMade }

    public func respond(to request: ServerAPIRequest) -> APIResponse {
        let route = ServerAPIEndpoint.route(method: request.method, path: request.path)
        if case .bearerTokens(let verifier) = authentication {
            if case .failure(let failure) = verifier.verify(authorization: request.authorization, now: wallClock()) {
                var response = APIResponse.text(AuthenticationError.httpStatus, AuthenticationError.responseBody,
                                                headers: [.init(AuthenticationError.headerName, failure.reason.rawValue)])
                response.logDetail = "unauthenticated: \(failure)"
                return response
            }
        }
        switch route {
        case .notFound:
            var response = APIResponse.text(404, "Not Found")
            response.logDetail = "no App Store Server API endpoint at this path"
            return response
        case .methodNotAllowed(let allowed):
            var response = APIResponse.text(405, "Method Not Allowed", headers: [.init("Allow", allowed)])
            response.logDetail = "use \(allowed)"
            return response
        case .endpoint(let endpoint, let environment):
            // Apple limits each app, which the token names: only authenticated requests count.
            if let rateLimiter,
               case .refused(let retryAt, let limit) = rateLimiter.admit(endpoint.name, in: environment,
                                                                          at: Int64((wallClock().timeIntervalSince1970 * 1_000).rounded(.down))) {
                return .error(.rateLimitExceeded, retryAt: retryAt,
                              logDetail: "rate limit of \(endpoint.name.rawValue) (\(environment.rawValue)): \(limit)")
            }
            do throws(ServerAPIError) {
                return try answer(endpoint, store: stores.store(environment), request: request)
            } catch {
                var response = error.response
                response.logDetail = error.description
                return response
            }
        }
    }

    // MARK: Endpoints

    private func answer(_ endpoint: ServerAPIEndpoint, store: LocalAppStore, request: ServerAPIRequest) throws(ServerAPIError) -> APIResponse {
        let configuration = store.configuration
        switch endpoint {
        case .transactionInfo(let id):
            let payload = try read(store) { state throws(StoreError) in try state.transactionInfo(transactionId: id) }
            return try json(ServerAPIResponseBody.TransactionInfo(signedTransactionInfo: sign(payload)))

        case .appTransactionInfo(let id):
            let payload = try read(store) { state throws(StoreError) in try state.appTransactionInfo(transactionId: id) }
            return try json(ServerAPIResponseBody.AppTransactionInfo(signedAppTransactionInfo: sign(payload)))

        case .transactionHistory(let id, let version):
            var query = try Self.historyQuery(request)
            query.version = version
            let page = try read(store) { state throws(StoreError) in try state.transactionHistory(transactionId: id, query: query) }
            return try json(ServerAPIResponseBody.History(
                revision: page.revision, hasMore: page.hasMore, bundleId: configuration.app.bundleIdentifier,
                appAppleId: configuration.appAppleId, environment: configuration.environment.rawValue,
                signedTransactions: page.transactions.map { payload throws(ServerAPIError) in try sign(payload) }))

        case .refundHistory(let id):
            let revision = try Self.single(request, "revision", .invalidRequestRevision)
            let page = try read(store) { state throws(StoreError) in try state.refundHistory(transactionId: id, revision: revision) }
            return try json(ServerAPIResponseBody.RefundHistory(
                signedTransactions: page.transactions.map { payload throws(ServerAPIError) in try sign(payload) },
                revision: page.revision, hasMore: page.hasMore))

        case .lookUpOrder(let orderId):
            let lookup = store.read { $0.lookUpOrder(orderId: orderId) }
            // An invalid order id: the status alone (Apple's OrderLookupResponse: "If the orderId that
            // you provide in the request is invalid, the response doesn't include the signedTransactions array").
            return try json(ServerAPIResponseBody.OrderLookup(
                status: lookup.status,
                signedTransactions: lookup.status == ServerAPIResponseBody.OrderLookup.invalid ? nil
                    : lookup.transactions.map { payload throws(ServerAPIError) in try sign(payload) }))

        case .subscriptionStatuses(let id):
            let statuses = try Self.statusFilter(request)
            let groups = try read(store) { state throws(StoreError) in try state.subscriptionStatuses(transactionId: id, statuses: statuses) }
            let data = try groups.map { group throws(ServerAPIError) in
                ServerAPIResponseBody.SubscriptionGroupIdentifierItem(
                    subscriptionGroupIdentifier: group.subscriptionGroupIdentifier,
                    lastTransactions: try group.lastTransactions.map { last throws(ServerAPIError) in
                        ServerAPIResponseBody.LastTransactionsItem(
                            status: last.status.rawValue, originalTransactionId: last.originalTransactionId,
                            signedTransactionInfo: try sign(last.transaction), signedRenewalInfo: try sign(last.renewalInfo))
                    })
            }
            return json(ServerAPIResponseBody.Status(
                environment: configuration.environment.rawValue, bundleId: configuration.app.bundleIdentifier,
                appAppleId: configuration.appAppleId, data: data))

        case .sendConsumptionInformation(let id, let version):
            let information = version == 1
                ? try ServerAPIRequestBody.decode(ServerAPIRequestBody.ConsumptionV1.self, from: request.body) { body throws(ServerAPIError) in try body.validated() }
                : try ServerAPIRequestBody.decode(ServerAPIRequestBody.Consumption.self, from: request.body) { body throws(ServerAPIError) in try body.validated() }
            try write(store) { state throws(StoreError) in
                try state.sendConsumptionInformation(transactionId: id, information, request: version == 1 ? .v1 : .v2)
            }
            return APIResponse(status: 202)

        case .extendRenewalDate(let originalTransactionId):
            let (days, reason, requestIdentifier) = try ServerAPIRequestBody.decode(ServerAPIRequestBody.ExtendRenewalDate.self, from: request.body) {
                body throws(ServerAPIError) in try body.validated()
            }
            let result = try write(store) { state throws(StoreError) in
                try state.extendRenewalDate(originalTransactionId: originalTransactionId, days: days, reason: reason,
                                            requestIdentifier: requestIdentifier)
            }
            return json(ServerAPIResponseBody.ExtendRenewalDate(
                originalTransactionId: result.originalTransactionId, webOrderLineItemId: result.webOrderLineItemId,
                success: true, effectiveDate: result.effectiveDate))

        case .extendRenewalDatesForAllActiveSubscribers:
            let (body, days, reason, requestIdentifier, productId) = try ServerAPIRequestBody.decode(
                ServerAPIRequestBody.MassExtendRenewalDate.self, from: request.body) { body throws(ServerAPIError) in
                let (days, reason, requestIdentifier) = try ServerAPIRequestBody.validateExtension(
                    body.extendByDays, body.extendReasonCode, body.requestIdentifier)
                guard let productId = body.productId else { throw ServerAPIError(.invalidProductId, "productId is missing") }
                return (body, days, reason, requestIdentifier, productId)
            }
            try write(store) { state throws(StoreError) in
                try state.extendRenewalDatesForAllActiveSubscribers(productId: productId, days: days, reason: reason,
                                                                    requestIdentifier: requestIdentifier,
                                                                    storefrontCountryCodes: body.storefrontCountryCodes)
            }
            return json(ServerAPIResponseBody.MassExtendRenewalDate(requestIdentifier: requestIdentifier))

        case .massExtensionStatus(let productId, let requestIdentifier):
            let status = try read(store) { state throws(StoreError) in
                try state.massExtensionStatus(productId: productId, requestIdentifier: requestIdentifier)
            }
            return json(ServerAPIResponseBody.MassExtendRenewalDateStatus(
                requestIdentifier: status.requestIdentifier, complete: status.complete, completeDate: status.completeDate,
                succeededCount: status.succeededCount, failedCount: status.failedCount))

        case .setAppAccountToken(let originalTransactionId):
            let token = try ServerAPIRequestBody.decode(ServerAPIRequestBody.UpdateAppAccountToken.self, from: request.body) {
                body throws(ServerAPIError) in
                guard let token = body.appAccountToken else {
                    throw ServerAPIError(.invalidAppAccountTokenUuidError, "appAccountToken is missing")
                }
                return token
            }
            try write(store) { state throws(StoreError) in try state.setAppAccountToken(originalTransactionId: originalTransactionId, token: token) }
            return APIResponse(status: 200)

        case .finishTransaction(let id):
            try write(store) { state throws(StoreError) in try state.finishTransaction(transactionId: id) }
            return APIResponse(status: 200)

        case .requestTestNotification:
            guard let channel = notifications?.channel(configuration.environment) else {
                throw ServerAPIError(.serverNotificationUrlNotFound, "this server sends no notifications")
            }
            do throws(NotificationChannelError) {
                return json(ServerAPIResponseBody.SendTestNotification(testNotificationToken: try channel.requestTestNotification()))
            } catch {
                throw ServerAPIError(error)
            }

        case .testNotificationStatus(let token):
            guard let channel = notifications?.channel(configuration.environment) else {
                throw ServerAPIError(.testNotificationNotFound, "this server sends no notifications")
            }
            do throws(NotificationChannelError) {
                return json(Self.record(try channel.testNotificationStatus(token: token)))
            } catch {
                throw ServerAPIError(error)
            }

        case .notificationHistory:
            return try notificationHistory(store: store, request: request)
        }
    }

    /// Get Notification History: the channel's records in queue order, 20 a page; the
    /// `paginationToken` is the `notificationUUID` of the next page's first record.
    private func notificationHistory(store: LocalAppStore, request: ServerAPIRequest) throws(ServerAPIError) -> APIResponse {
        let now = store.read { $0.now }
        let query = try ServerAPIRequestBody.decode(NotificationHistoryQuery.Body.self, from: request.body) { body throws(ServerAPIError) in
            try NotificationHistoryQuery(body: body, now: now, environment: store.configuration.environment)
        }
        let customerId = try query.transactionId.map { id throws(ServerAPIError) in
            try read(store) { state throws(StoreError) in try state.customerId(ofTransaction: id) }
        }
        guard let channel = notifications?.channel(store.configuration.environment) else {
            return json(ServerAPIResponseBody.NotificationHistory(paginationToken: nil, hasMore: false, notificationHistory: []))
        }
        var start = 0
        if let token = request.values("paginationToken").first {
            guard let position = channel.outbox.position(of: token) else {
                throw ServerAPIError(.invalidPaginationToken, "paginationToken '\(token)' names no notification of this store")
            }
            start = position
        }
        let page = channel.outbox.records(from: start, limit: NotificationHistoryQuery.pageSize) { record in
            query.includes(record, customerId: customerId)
        }
        return json(ServerAPIResponseBody.NotificationHistory(paginationToken: page.next, hasMore: page.next != nil,
                                                              notificationHistory: page.records.map(Self.record)))
    }

    /// A notification and its attempts as Apple lists them.
    private static func record(_ record: DeliveryRecord) -> ServerAPIResponseBody.NotificationRecord {
        ServerAPIResponseBody.NotificationRecord(
            signedPayload: record.notification.signedPayload,
            sendAttempts: record.attempts.map { .init(attemptDate: $0.attemptDate, sendAttemptResult: $0.sendAttemptResult.rawValue) })
    }

    // MARK: Query parameters

    /// Get Transaction History's filters (repeated `productId`, `productType` and
    /// `subscriptionGroupIdentifier` values OR'd; booleans `true`/`True`).
    static func historyQuery(_ request: ServerAPIRequest) throws(ServerAPIError) -> HistoryQuery {
        var query = HistoryQuery()
        query.revision = try single(request, "revision", .invalidRequestRevision)
        if let text = try single(request, "startDate", .invalidStartDate) {
            guard let value = Self.milliseconds(text) else {
                throw ServerAPIError(.invalidStartDate, "startDate '\(text)' is not milliseconds since 1970 (1 to 18 digits)")
            }
            query.startDate = value
        }
        if let text = try single(request, "endDate", .invalidEndDate) {
            guard let value = Self.milliseconds(text) else {
                throw ServerAPIError(.invalidEndDate, "endDate '\(text)' is not milliseconds since 1970 (1 to 18 digits)")
            }
            query.endDate = value
        }
        if let start = query.startDate, let end = query.endDate, start > end {
            throw ServerAPIError(.startDateAfterEndDate, "startDate \(start) is after endDate \(end)")
        }
        query.productIds = request.values("productId")
        for text in request.values("productType") {
            guard let kind = Product.Kind.allCases.first(where: { $0.historyFilterName == text }) else {
                throw ServerAPIError(.invalidProductType, "productType '\(text)' is not one of "
                                       + Product.Kind.allCases.map(\.historyFilterName).joined(separator: ", "))
            }
            query.productTypes.append(kind)
        }
        query.subscriptionGroupIdentifiers = request.values("subscriptionGroupIdentifier")
        if let text = try single(request, "sort", .invalidSort) {
            guard let sort = HistoryQuery.Sort(rawValue: text) else {
                throw ServerAPIError(.invalidSort, "sort '\(text)' is not ASCENDING or DESCENDING")
            }
            query.sort = sort
        }
        if let text = try single(request, "inAppOwnershipType", .invalidInAppOwnershipType) {
            guard let ownership = OwnershipType(rawValue: text) else {
                throw ServerAPIError(.invalidInAppOwnershipType, "inAppOwnershipType '\(text)' is not PURCHASED or FAMILY_SHARED")
            }
            query.inAppOwnershipType = ownership
        }
        if let text = try single(request, "revoked", .invalidRevoked) {
            guard let revoked = Self.boolean(text) else { throw ServerAPIError(.invalidRevoked, "revoked '\(text)' is not true or false") }
            query.revoked = revoked
        }
        return query
    }

    /// The one value of a parameter that is not repeatable (nil when absent); given more than
    /// once, it is refused with its own error, as a value outside its values would be.
    static func single(_ request: ServerAPIRequest, _ name: String, _ error: StoreAPIError) throws(ServerAPIError) -> String? {
        let values = request.values(name)
        guard values.count <= 1 else { throw ServerAPIError(error, "\(name) is given \(values.count) times; it takes one value") }
        return values.first
    }

    /// Get All Subscription Statuses' `status` filter (repeatable: 1 to 5); nil when absent.
    static func statusFilter(_ request: ServerAPIRequest) throws(ServerAPIError) -> Set<SubscriptionStatus>? {
        let values = request.values("status")
        guard !values.isEmpty else { return nil }
        var statuses = Set<SubscriptionStatus>()
        for text in values {
            guard text.utf8.count == 1, let number = Int(text), let status = SubscriptionStatus(rawValue: number) else {
                throw ServerAPIError(.invalidStatus, "status '\(text)' is not 1 to 5")
            }
            statuses.insert(status)
        }
        return statuses
    }

    /// A date of a query: 1 to 18 decimal digits (no sign, no space), as the OpenAPI document
    /// says; 18 digits of milliseconds reach far past any date a store has.
    static func milliseconds(_ text: String) -> StoreInstant? {
        guard (1...18).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return StoreInstant(text)
    }

    /// `true`/`false` as Node and JSON write them, `True`/`False` as Python's `str(bool)` does.
    static func boolean(_ text: String) -> Bool? {
        switch text {
        case "true", "True": return true
        case "false", "False": return false
        default: return nil
        }
    }

    // MARK: Store access and encoding

    private func read<Result>(_ store: LocalAppStore, _ body: (StoreState) throws(StoreError) -> Result) throws(ServerAPIError) -> Result {
        do throws(StoreError) {
            return try store.read(body)
        } catch {
            throw ServerAPIError(error)
        }
    }

    @discardableResult
    private func write<Result>(_ store: LocalAppStore, _ body: (inout StoreState) throws(StoreError) -> Result) throws(ServerAPIError) -> Result {
        do throws(StoreError) {
            return try store.write(body)
        } catch {
            throw ServerAPIError(error)
        }
    }

    private func sign(_ payload: some Encodable) throws(ServerAPIError) -> String {
        try signatures.sign(StoreKit2JSON.encode(payload))
    }

    private func json(_ body: some Encodable) -> APIResponse {
        .json(200, StoreKit2JSON.encode(body))
    }
}
