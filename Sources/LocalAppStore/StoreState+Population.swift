import AppInput
import ForgeSupport

/// The default population: `configuration.customers` customers, each one of ten kinds
/// (customer n is kind n mod 10), with a history built by the store's own actions over
/// the 120 days before the start instant, so every rule (renewals, expiries, billing
/// retry, grace periods) made it:
///
/// | kind | history |
/// |---|---|
/// | 0 | a consumable (quantity 1–3), finished by every other; every third has an open refund request |
/// | 1 | a non-consumable; every second is refunded (an issue in the app) |
/// | 2 | the monthly subscription since 75 days, with an app account token, renewed; every second upgraded 10 days ago |
/// | 3 | a subscription with its introductory offer since 25 days; every second has a price increase awaiting consent |
/// | 4 | the group's top subscription since 40 days, shared with customer n+5 (kind 9) |
/// | 5 | the monthly subscription, auto-renew turned off: expired voluntarily |
/// | 6 | the monthly subscription whose renewal failed 10 days ago: in billing retry |
/// | 7 | the monthly subscription whose renewal failed 2 days ago: in its grace period |
/// | 8 | a non-consumable shared with customer n+1 (kind 9), and a non-renewing subscription |
/// | 9 | a non-renewing subscription and an unfinished consumable |
///
/// Storefronts: mostly USA, some CAN and GBR. Products are chosen by kind from the
/// app's catalogue; a kind the catalogue lacks leaves those steps out.
extension StoreState {
    /// How far back the default population's history starts.
    public static let populationHistory = StoreDuration.days(120)

    private enum Step {
        case buy(product: Int32, offer: StoreOffer?, token: Bool, family: Int?, quantity: Int)
        case finish(product: Int32)
        case consumptionRequest(product: Int32)
        case refund(product: Int32)
        case disableAutoRenew(group: Int32)
        case failNextRenewal(group: Int32, grace: Bool)
        case change(group: Int32, to: Int32)
        case priceIncrease(group: Int32)
    }

    private struct ScheduledStep {
        var date: StoreInstant
        var customer: Int
        var order: Int
        var step: Step
    }

    /// The id of the default population's customer `number` (from 0): `customer-000001`, ….
    public static func customerId(_ number: Int) -> String {
        let digits = String(number + 1)
        return "customer-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    mutating func populate() {
        let count = configuration.customers
        guard count > 0 else { return }
        let start = configuration.start
        now = start - Self.populationHistory
        let day = StoreDuration.day
        let hour = StoreDuration.hour

        func first(_ kind: Product.Kind) -> Int32? {
            products.firstIndex { $0.kind == kind }.map(Int32.init)
        }
        let consumable = first(.consumable)
        let nonConsumable = first(.nonConsumable)
        let nonRenewing = first(.nonRenewingSubscription)
        let subscriptionProducts = products.indices.filter { products[$0].kind == .autoRenewableSubscription }.map(Int32.init)
        // The monthly one (the period closest to 30 days), the group's top level, one with an introductory offer.
        let monthly = subscriptionProducts.min { abs(products[Int($0)].periodLength - 30 * day) < abs(products[Int($1)].periodLength - 30 * day) }
        let top = monthly.flatMap { monthly in
            subscriptionProducts.filter { products[Int($0)].group == products[Int(monthly)].group }.min { products[Int($0)].level < products[Int($1)].level }
        }
        let intro = subscriptionProducts.first { products[Int($0)].product.introductoryOffer != nil }

        var schedule: [ScheduledStep] = []
        schedule.reserveCapacity(count * 2)
        for n in 0..<count {
            let jitter = Int64((n / 10) % 7) * hour
            func at(_ days: Int64, _ step: Step) {
                schedule.append(ScheduledStep(date: start - days * day + jitter, customer: n, order: schedule.count, step: step))
            }
            let alternate = (n / 10) % 2 == 0
            switch n % 10 {
            case 0:
                if let consumable {
                    at(20, .buy(product: consumable, offer: nil, token: false, family: nil, quantity: 1 + n % 3))
                    if alternate { at(19, .finish(product: consumable)) }
                    if (n / 10) % 3 == 0 { at(2, .consumptionRequest(product: consumable)) }
                }
            case 1:
                if let nonConsumable {
                    at(40, .buy(product: nonConsumable, offer: nil, token: false, family: nil, quantity: 1))
                    if alternate { at(5, .refund(product: nonConsumable)) }
                }
            case 2:
                if let monthly, let group = products[Int(monthly)].group {
                    at(75, .buy(product: monthly, offer: nil, token: true, family: nil, quantity: 1))
                    if !alternate, let top, top != monthly { at(10, .change(group: group, to: top)) }
                }
            case 3:
                if let intro, let group = products[Int(intro)].group {
                    at(25, .buy(product: intro, offer: .introductory, token: false, family: nil, quantity: 1))
                    if alternate { at(1, .priceIncrease(group: group)) }
                }
            case 4:
                if let top {
                    at(40, .buy(product: top, offer: nil, token: false, family: n + 5 < count ? n + 5 : nil, quantity: 1))
                }
            case 5:
                if let monthly, let group = products[Int(monthly)].group {
                    at(50, .buy(product: monthly, offer: nil, token: false, family: nil, quantity: 1))
                    at(45, .disableAutoRenew(group: group))
                }
            case 6:
                if let monthly, let group = products[Int(monthly)].group {
                    let length = products[Int(monthly)].periodLength / day
                    at(10 + length, .buy(product: monthly, offer: nil, token: false, family: nil, quantity: 1))
                    at(9 + length, .failNextRenewal(group: group, grace: false))
                }
            case 7:
                if let monthly, let group = products[Int(monthly)].group {
                    let length = products[Int(monthly)].periodLength / day
                    at(2 + length, .buy(product: monthly, offer: nil, token: false, family: nil, quantity: 1))
                    at(1 + length, .failNextRenewal(group: group, grace: true))
                }
            case 8:
                if let nonConsumable {
                    at(30, .buy(product: nonConsumable, offer: nil, token: false, family: n + 1 < count ? n + 1 : nil, quantity: 1))
                }
                if let nonRenewing { at(12, .buy(product: nonRenewing, offer: nil, token: false, family: nil, quantity: 1)) }
            default:
                if let nonRenewing { at(10, .buy(product: nonRenewing, offer: nil, token: false, family: nil, quantity: 1)) }
                if let consumable { at(3, .buy(product: consumable, offer: nil, token: false, family: nil, quantity: 1)) }
            }
        }
        schedule.sort { ($0.date, $0.order) < ($1.date, $1.order) }
        for scheduled in schedule {
            _ = try? advance(to: max(now, scheduled.date))
            apply(scheduled.step, customer: scheduled.customer)
        }
        _ = try? advance(to: start)
        events.removeAll()
    }

    private func storefront(_ n: Int) -> Storefront {
        n % 7 == 3 ? .can : n % 11 == 5 ? .gbr : .usa
    }

    /// One step of the population; a step the state no longer allows is left out.
    private mutating func apply(_ step: Step, customer n: Int) {
        let id = Self.customerId(n)
        func latest(_ product: Int32) -> String? {
            guard let customer = customerIndex[id] else { return nil }
            return customers[Int(customer)].transactions.last { transactions[Int($0)].product == product }
                .map { String(transactions[Int($0)].transactionId) }
        }
        func subscription(_ group: Int32) -> String? {
            guard let customer = customerIndex[id],
                  let index = subscriptionByOwner[Self.ownerKey(customer: customer, group: group, ownership: .purchased)] else { return nil }
            return String(subscriptions[Int(index)].originalTransactionId)
        }
        switch step {
        case .buy(let product, let offer, let token, let family, let quantity):
            let tokenText = token ? DeterministicUUID(drawingFrom: &random).description : nil
            _ = try? buyProduct(customer: id, productId: products[Int(product)].id, quantity: quantity, offer: offer,
                                appAccountToken: tokenText, familyShared: family.map { [Self.customerId($0)] } ?? [],
                                storefront: storefront(n))
        case .finish(let product):
            if let transaction = latest(product) { try? finishTransaction(transactionId: transaction) }
        case .consumptionRequest(let product):
            if let transaction = latest(product) { _ = try? requestConsumptionInformation(transactionId: transaction, reason: .unintendedPurchase) }
        case .refund(let product):
            if let transaction = latest(product) { _ = try? refundTransaction(transactionId: transaction, reason: .refundedDueToIssue) }
        case .disableAutoRenew(let group):
            if let original = subscription(group) { _ = try? disableAutoRenew(originalTransactionId: original) }
        case .failNextRenewal(let group, let grace):
            if let original = subscription(group) { _ = try? failRenewal(originalTransactionId: original, gracePeriod: grace, when: .atNextRenewal) }
        case .change(let group, let target):
            if let original = subscription(group) { _ = try? changeRenewalProduct(originalTransactionId: original, productId: products[Int(target)].id) }
        case .priceIncrease(let group):
            if let original = subscription(group), let index = subscriptionIndex[UInt64(original)!] {
                _ = try? priceIncrease(originalTransactionId: original, renewalPrice: subscriptions[Int(index)].renewalPrice + 1_000,
                                       requiresConsent: true)
            }
        }
    }
}
