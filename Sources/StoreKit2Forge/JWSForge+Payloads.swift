import Crypto
import ForgeSupport
import Foundation
import StoreKit2
import ForgeCA

/// The payloads: the values Apple really sends (string ids, integer millisecond
/// dates, `price` in milli-units), for the forge's app, from the seed.
extension JWSForge {
    package var bundleId: String { app.bundleIdentifier }
    package var productId: String { "\(app.bundleIdentifier).pro.monthly" }
    package var originalTransactionId: String { "20000\(String(format: "%010llu", settings.seed % 10_000_000_000))" }
    package var purchaseDate: Int64 { signedDate - 300_000 }
    package var expiresDate: Int64 { purchaseDate + 30 * 86_400_000 }

    /// A UUID (version 4 form) from the seed and `label`: the first 16 bytes of SHA-256
    /// of `seed:label`, deterministic.
    package func uuid(_ label: String) -> String {
        let digest = SHA256.hash(data: Array("\(settings.seed):\(label)".utf8))
        return DeterministicUUID(bytes: Array(digest).prefix(16)).version4.description
    }

    package func transaction(environment: JWSEnvironment, renewal: Bool = false, revoked: Bool = false,
                     bundleId: String? = nil) -> JWSTransactionDecodedPayload {
        var payload = JWSTransactionDecodedPayload()
        let renewalOffset: Int64 = renewal ? 30 * 86_400_000 : 0
        payload.originalTransactionId = originalTransactionId
        payload.transactionId = renewal ? String(Int64(originalTransactionId)! + 1) : originalTransactionId
        payload.webOrderLineItemId = "20000\(String(format: "%010llu", (settings.seed + 1) % 10_000_000_000))"
        payload.bundleId = bundleId ?? self.bundleId
        payload.productId = productId
        payload.subscriptionGroupIdentifier = "21000001"
        payload.purchaseDate = JWSDate(milliseconds: purchaseDate + renewalOffset)
        payload.originalPurchaseDate = JWSDate(milliseconds: purchaseDate)
        payload.expiresDate = JWSDate(milliseconds: expiresDate + renewalOffset)
        payload.quantity = 1
        payload.type = "Auto-Renewable Subscription"
        payload.appAccountToken = uuid("appAccountToken")
        payload.inAppOwnershipType = "PURCHASED"
        payload.signedDate = JWSDate(milliseconds: signedDate)
        payload.environment = environment.rawValue
        payload.storefront = "USA"
        payload.storefrontId = "143441"
        payload.transactionReason = renewal ? "RENEWAL" : "PURCHASE"
        payload.price = 9990
        payload.currency = "USD"
        payload.appTransactionId = "704\(String(format: "%015llu", settings.seed))"
        if revoked {
            payload.revocationDate = JWSDate(milliseconds: signedDate - 60_000)
            payload.revocationReason = 0
        }
        return payload
    }

    package func renewalInfo(environment: JWSEnvironment, expired: Bool = false) -> JWSRenewalInfoDecodedPayload {
        var payload = JWSRenewalInfoDecodedPayload()
        payload.originalTransactionId = originalTransactionId
        payload.autoRenewProductId = productId
        payload.productId = productId
        payload.autoRenewStatus = expired ? 0 : 1
        if expired { payload.expirationIntent = 1 }
        payload.isInBillingRetryPeriod = false
        payload.signedDate = JWSDate(milliseconds: signedDate)
        payload.environment = environment.rawValue
        payload.recentSubscriptionStartDate = JWSDate(milliseconds: purchaseDate)
        if !expired { payload.renewalDate = JWSDate(milliseconds: expiresDate) }
        payload.currency = "USD"
        payload.renewalPrice = 9990
        payload.appTransactionId = "704\(String(format: "%015llu", settings.seed))"
        return payload
    }

    package func appTransaction(environment: JWSEnvironment, appAppleId: Int64?, bundleId: String?) -> AppTransactionDecodedPayload {
        var payload = AppTransactionDecodedPayload()
        payload.receiptType = environment.rawValue
        payload.appAppleId = environment == .production ? (appAppleId ?? self.appAppleId) : nil
        payload.bundleId = bundleId ?? self.bundleId
        payload.applicationVersion = app.version
        payload.versionExternalIdentifier = environment == .production ? 834_289_833 : 0
        payload.receiptCreationDate = JWSDate(milliseconds: signedDate)
        payload.originalPurchaseDate = JWSDate(milliseconds: purchaseDate - 90 * 86_400_000)
        payload.originalApplicationVersion = app.originalVersion ?? "1"
        let device = Array(SHA256.hash(data: Array("\(settings.seed):device".utf8)))
        payload.deviceVerification = Data(device + Array(SHA384.hash(data: device))).prefix(48).base64EncodedString()
        payload.deviceVerificationNonce = uuid("deviceVerificationNonce")
        payload.appTransactionId = "704\(String(format: "%015llu", settings.seed))"
        payload.originalPlatform = app.platform == .macos ? "macOS" : "iOS"
        payload.signedDate = JWSDate(milliseconds: signedDate)
        return payload
    }

    /// Xcode StoreKit testing's transaction: ids "0", fractional-millisecond dates.
    package func xcodeTransaction() -> JWSTransactionDecodedPayload {
        var payload = transaction(environment: .xcode)
        payload.transactionId = "0"
        payload.originalTransactionId = "0"
        payload.webOrderLineItemId = "0"
        payload.appTransactionId = "0"
        payload.signedDate = JWSDate(fractionalMilliseconds: Double(signedDate) + 0.375)
        payload.purchaseDate = JWSDate(fractionalMilliseconds: Double(purchaseDate) + 0.25)
        payload.originalPurchaseDate = payload.purchaseDate
        payload.expiresDate = JWSDate(fractionalMilliseconds: Double(expiresDate) + 0.25)
        payload.price = nil
        payload.currency = nil
        payload.storefrontId = "143441"
        return payload
    }

    /// The payload bytes of a transaction, renewal info or app transaction case.
    package func payload(_ jwsCase: JWSCase, environment: JWSEnvironment) -> [UInt8] {
        var bundle: String?
        var appleId: Int64?
        switch jwsCase.flaw {
        case .bundleId(let other): bundle = other
        case .appAppleId(let other): appleId = other
        case .xcode: return StoreKit2JSON.encode(xcodeTransaction())
        default: break
        }
        switch jwsCase.kind {
        case .transaction: return StoreKit2JSON.encode(transaction(environment: environment, bundleId: bundle))
        case .renewalInfo: return StoreKit2JSON.encode(renewalInfo(environment: environment))
        case .appTransaction:
            return StoreKit2JSON.encode(appTransaction(environment: environment, appAppleId: appleId, bundleId: bundle))
        case .notification: preconditionFailure("notifications are minted by notification(_:environment:)")
        }
    }

    /// A notification's `signedPayload`, its nested JWS genuine.
    package func notification(_ jwsCase: JWSCase, environment: JWSEnvironment) throws(KeyError) -> String {
        var payload = ResponseBodyV2DecodedPayload()
        payload.notificationUUID = uuid("notification:\(jwsCase.id)")
        payload.version = "2.0"
        payload.signedDate = JWSDate(milliseconds: signedDate)
        var appleId: Int64? = environment == .production || environment == .sandbox ? appAppleId : nil
        var bundle = bundleId
        switch jwsCase.flaw {
        case .appAppleId(let other): appleId = other
        case .bundleId(let other): bundle = other
        default: break
        }
        switch jwsCase.content {
        case .notification(let type, let subtype, let revoked):
            payload.notificationType = type
            payload.subtype = subtype
            let expired = type == "EXPIRED"
            var data = NotificationData()
            data.environment = environment.rawValue
            data.appAppleId = appleId
            data.bundleId = bundle
            data.bundleVersion = app.version
            data.signedTransactionInfo = try sign(StoreKit2JSON.encode(
                transaction(environment: environment, renewal: type == "DID_RENEW", revoked: revoked)), flaw: .none, serial: 0)
            data.signedRenewalInfo = try sign(StoreKit2JSON.encode(renewalInfo(environment: environment, expired: expired)),
                                              flaw: .none, serial: 0)
            data.status = revoked ? 5 : expired ? 2 : 1
            payload.data = data
        case .summaryNotification:
            payload.notificationType = "RENEWAL_EXTENSION"
            payload.subtype = "SUMMARY"
            var summary = NotificationSummary()
            summary.environment = environment.rawValue
            summary.appAppleId = appleId
            summary.bundleId = bundle
            summary.productId = productId
            summary.requestIdentifier = uuid("requestIdentifier")
            summary.storefrontCountryCodes = ["USA", "CAN", "MEX"]
            summary.succeededCount = 5
            summary.failedCount = 0
            payload.summary = summary
        case .testNotification, .transaction, .renewalInfo, .appTransaction:
            payload.notificationType = "TEST"
            var data = NotificationData()
            data.environment = environment.rawValue
            data.appAppleId = appleId
            data.bundleId = bundle
            payload.data = data
        }
        return try sign(StoreKit2JSON.encode(payload), flaw: jwsCase.flaw, serial: 0)
    }
}
