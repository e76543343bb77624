/// The named lifecycles `forge scenario list` shows, written in the script format a
/// user's own file uses (`--scenario FILE`), so the catalogue exercises that reader.
/// The example app's products (`ProductCatalogue.example`): `subscription.weekly` has a
/// one-week free trial; `subscription.yearly`, `.quarterly`, `.monthly` and `.weekly`
/// share group 21000001 in that order of level; `monthly` is alone in group 21000002.
extension Scenario {
    public static let catalogue: [Scenario] = catalogueScripts.map { name, script in
        do throws(ScenarioError) {
            return try Scenario(json: Array(script.utf8), file: "catalogue:\(name)")
        } catch {
            preconditionFailure("the catalogue's scenario \(name) does not read: \(error)")
        }
    }

    public static func named(_ name: String) throws(ScenarioError) -> Scenario {
        guard let scenario = catalogue.first(where: { $0.name == name }) else {
            throw ScenarioError(.unknownScenario, file: name, location: "$",
                                "no scenario '\(name)' (scenarios: \(catalogue.map(\.name).joined(separator: ", ")))")
        }
        return scenario
    }

    /// The script of a catalogue scenario as written (what `--scenario FILE` would read).
    public static func catalogueScript(named name: String) -> String? {
        catalogueScripts.first { $0.0 == name }?.1
    }

    static let catalogueScripts: [(String, String)] = [
        ("trial-billing-retry-recovery", #"""
        {"name": "trial-billing-retry-recovery",
         "summary": "Free trial converts and renews, a renewal fails into the grace period, the grace period ends in billing retry, billing recovers",
         "customer": "alice",
         "steps": [
           {"note": "Start the weekly subscription's one-week free trial", "control": "buyProduct",
            "body": {"customer": "alice", "productId": "com.example.receiptforge.subscription.weekly", "offer": {"type": "introductory"}}, "as": "trial"},
           {"note": "The trial converts to a paid week", "control": "advanceClock", "body": {"seconds": 604800}},
           {"note": "The card will be declined at the next renewal", "control": "failRenewal",
            "body": {"originalTransactionId": "${trial.originalTransactionId}", "gracePeriod": true, "when": "atNextRenewal"}},
           {"note": "The renewal fails: the grace period starts", "control": "advanceClock", "body": {"seconds": 604800}},
           {"note": "The grace period runs out: billing retry", "control": "advanceClock", "body": {"seconds": 1209600}},
           {"note": "The card works again", "control": "recoverBilling", "body": {"originalTransactionId": "${trial.originalTransactionId}"}}
         ],
         "expectedNotifications": ["SUBSCRIBED/INITIAL_BUY", "DID_RENEW", "DID_FAIL_TO_RENEW/GRACE_PERIOD", "GRACE_PERIOD_EXPIRED", "DID_RENEW/BILLING_RECOVERY"]}
        """#),
        ("billing-retry-expired", #"""
        {"name": "billing-retry-expired",
         "summary": "A monthly subscription fails to renew and billing retry ends without recovery",
         "customer": "alice",
         "steps": [
           {"control": "buyProduct", "body": {"customer": "alice", "productId": "com.example.receiptforge.monthly"}, "as": "sub"},
           {"note": "The card will be declined at the next renewal", "control": "failRenewal",
            "body": {"originalTransactionId": "${sub.originalTransactionId}", "gracePeriod": false, "when": "atNextRenewal"}},
           {"note": "The renewal fails: billing retry, no grace period", "control": "advanceClock", "body": {"seconds": 2678400}},
           {"note": "Sixty days of retries end", "control": "advanceClock", "body": {"seconds": 5270400}}
         ],
         "expectedNotifications": ["SUBSCRIBED/INITIAL_BUY", "DID_FAIL_TO_RENEW", "EXPIRED/BILLING_RETRY"]}
        """#),
        ("voluntary-churn-resubscribe", #"""
        {"name": "voluntary-churn-resubscribe",
         "summary": "The customer turns auto-renew off, the subscription expires, and they subscribe again",
         "customer": "alice",
         "steps": [
           {"control": "buyProduct", "body": {"customer": "alice", "productId": "com.example.receiptforge.monthly"}, "as": "sub"},
           {"note": "Auto-renew off in Settings", "control": "disableAutoRenewForTransaction", "body": {"originalTransactionId": "${sub.originalTransactionId}"}},
           {"note": "The month ends", "control": "advanceClock", "body": {"seconds": 2678400}},
           {"note": "Back a week later", "control": "advanceClock", "body": {"seconds": 604800}},
           {"control": "buyProduct", "body": {"customer": "alice", "productId": "com.example.receiptforge.monthly"}}
         ],
         "expectedNotifications": ["SUBSCRIBED/INITIAL_BUY", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "EXPIRED/VOLUNTARY", "SUBSCRIBED/RESUBSCRIBE"]}
        """#),
        ("upgrade-downgrade", #"""
        {"name": "upgrade-downgrade",
         "summary": "Quarterly upgraded to yearly at once, then a downgrade to weekly taking effect at the next renewal",
         "customer": "alice",
         "steps": [
           {"control": "buyProduct", "body": {"customer": "alice", "productId": "com.example.receiptforge.subscription.quarterly"}, "as": "sub"},
           {"note": "Upgrade: effective at once", "control": "changeRenewalProduct",
            "body": {"originalTransactionId": "${sub.originalTransactionId}", "productId": "com.example.receiptforge.subscription.yearly"}},
           {"note": "Downgrade: effective at the next renewal", "control": "changeRenewalProduct",
            "body": {"originalTransactionId": "${sub.originalTransactionId}", "productId": "com.example.receiptforge.subscription.weekly"}},
           {"note": "The year ends and the weekly product renews", "control": "advanceClock", "body": {"seconds": 31708800}}
         ],
         "expectedNotifications": ["SUBSCRIBED/INITIAL_BUY", "DID_CHANGE_RENEWAL_PREF/UPGRADE", "DID_CHANGE_RENEWAL_PREF/DOWNGRADE", "DID_RENEW"]}
        """#),
        ("refund-declined-reversed", #"""
        {"name": "refund-declined-reversed",
         "summary": "A non-consumable's refund is declined, then granted, then reversed",
         "customer": "alice",
         "steps": [
           {"control": "buyProduct", "body": {"customer": "alice", "productId": "com.example.receiptforge.pro"}, "as": "pro"},
           {"note": "Apple declines the first request", "control": "declineRefund", "body": {"transactionId": "${pro.transactionId}"}},
           {"control": "advanceClock", "body": {"seconds": 86400}},
           {"note": "A second request is granted", "control": "refundTransaction", "body": {"transactionId": "${pro.transactionId}", "reason": 1}},
           {"control": "advanceClock", "body": {"seconds": 86400}},
           {"note": "Apple reverses the refund", "control": "reverseRefund", "body": {"transactionId": "${pro.transactionId}"}}
         ],
         "expectedNotifications": ["ONE_TIME_CHARGE", "REFUND_DECLINED", "REFUND", "REFUND_REVERSED"]}
        """#),
        ("consumable-consumption-request", #"""
        {"name": "consumable-consumption-request",
         "summary": "A consumable bought, the customer asks for a refund: Apple asks for consumption data, then refunds",
         "customer": "alice",
         "steps": [
           {"control": "buyProduct", "body": {"customer": "alice", "productId": "com.example.receiptforge.coins100"}, "as": "coins"},
           {"note": "The customer asks for a refund", "control": "requestConsumptionInformation",
            "body": {"transactionId": "${coins.transactionId}", "reason": "UNINTENDED_PURCHASE"}},
           {"note": "The app answers within 12 hours", "serverAPI": {"method": "PUT", "path": "/inApps/v2/transactions/consumption/${coins.transactionId}",
            "body": {"customerConsented": true, "sampleContentProvided": false, "deliveryStatus": "DELIVERED", "consumptionPercentage": 100000, "refundPreference": "DECLINE"}}},
           {"control": "advanceClock", "body": {"seconds": 86400}},
           {"note": "Apple refunds anyway", "control": "refundTransaction", "body": {"transactionId": "${coins.transactionId}", "reason": 0}}
         ],
         "expectedNotifications": ["ONE_TIME_CHARGE", "CONSUMPTION_REQUEST", "REFUND"]}
        """#),
        ("family-sharing-revoked", #"""
        {"name": "family-sharing-revoked",
         "summary": "A family member receives a shared non-consumable, then loses it when sharing stops",
         "customer": "bob",
         "steps": [
           {"note": "Alice buys and shares with Bob", "control": "buyProduct",
            "body": {"customer": "alice", "productId": "com.example.receiptforge.pro", "familyShared": ["bob"]}, "as": "pro"},
           {"control": "advanceClock", "body": {"seconds": 86400}},
           {"note": "Bob's copy is revoked", "control": "revokeTransaction", "body": {"transactionId": "${pro.transactionIds[1]}"}}
         ],
         "expectedNotifications": ["ONE_TIME_CHARGE", "ONE_TIME_CHARGE", "REVOKE"]}
        """#),
        ("price-increase-accepted", #"""
        {"name": "price-increase-accepted",
         "summary": "A price increase needing consent is pending, the customer accepts, the subscription renews at the new price",
         "customer": "alice",
         "steps": [
           {"control": "buyProduct", "body": {"customer": "alice", "productId": "com.example.receiptforge.monthly"}, "as": "sub"},
           {"note": "The developer raises the price", "control": "priceIncrease",
            "body": {"originalTransactionId": "${sub.originalTransactionId}", "renewalPrice": 12990, "requiresConsent": true}},
           {"note": "The customer consents", "control": "acceptPriceIncrease", "body": {"originalTransactionId": "${sub.originalTransactionId}"}},
           {"control": "advanceClock", "body": {"seconds": 2678400}}
         ],
         "expectedNotifications": ["SUBSCRIBED/INITIAL_BUY", "PRICE_INCREASE/PENDING", "PRICE_INCREASE/ACCEPTED", "DID_RENEW"]}
        """#),
        ("offer-code-redeemed", #"""
        {"name": "offer-code-redeemed",
         "summary": "A new customer redeems an offer code for a free month",
         "customer": "alice",
         "steps": [
           {"control": "buyProduct", "body": {"customer": "alice", "productId": "com.example.receiptforge.monthly",
                                               "offer": {"type": "offerCode", "id": "SPRING", "discountType": "FREE_TRIAL"}}},
           {"control": "advanceClock", "body": {"seconds": 2678400}}
         ],
         "expectedNotifications": ["OFFER_REDEEMED/INITIAL_BUY", "DID_RENEW"]}
        """#),
        ("renewal-extension", #"""
        {"name": "renewal-extension",
         "summary": "The developer extends one subscriber's renewal date by a week (Extend a Subscription Renewal Date)",
         "customer": "alice",
         "steps": [
           {"control": "buyProduct", "body": {"customer": "alice", "productId": "com.example.receiptforge.monthly"}, "as": "sub"},
           {"note": "Service was down: a week for free", "serverAPI": {"method": "PUT", "path": "/inApps/v1/subscriptions/extend/${sub.originalTransactionId}",
            "body": {"extendByDays": 7, "extendReasonCode": 3, "requestIdentifier": "8c8d1f5e-6d35-4a2a-9a55-5c1d1f0b7e01"}}}
         ],
         "expectedNotifications": ["SUBSCRIBED/INITIAL_BUY", "RENEWAL_EXTENDED"]}
        """#),
        ("mass-renewal-extension", #"""
        {"name": "mass-renewal-extension",
         "summary": "The developer extends every active subscriber of a product (Extend Subscription Renewal Dates for All Active Subscribers)",
         "customer": "alice",
         "steps": [
           {"control": "buyProduct", "body": {"customer": "alice", "productId": "com.example.receiptforge.monthly"}},
           {"control": "buyProduct", "body": {"customer": "carol", "productId": "com.example.receiptforge.monthly"}},
           {"note": "Three days for everyone", "serverAPI": {"method": "POST", "path": "/inApps/v1/subscriptions/extend/mass",
            "body": {"extendByDays": 3, "extendReasonCode": 3, "requestIdentifier": "0f1e2d3c-4b5a-4697-8879-6a5b4c3d2e1f", "productId": "com.example.receiptforge.monthly"}}}
         ],
         "expectedNotifications": ["SUBSCRIBED/INITIAL_BUY", "SUBSCRIBED/INITIAL_BUY", "RENEWAL_EXTENDED", "RENEWAL_EXTENDED", "RENEWAL_EXTENSION/SUMMARY"]}
        """#),
        ("test-notification", #"""
        {"name": "test-notification",
         "summary": "Request a Test Notification: one TEST notification, data naming the app only",
         "customer": "alice",
         "steps": [
           {"requestTestNotification": {}}
         ],
         "expectedNotifications": ["TEST"]}
        """#),
    ]
}
