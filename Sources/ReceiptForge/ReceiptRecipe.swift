import BER
import Receipt

/// The app a case's receipt is validated for, and the device it runs on.
public struct AppUnderTest: Sendable, Hashable {
    public var bundleIdentifier: String
    public var version: String
    public var platform: Platform
    public var device: DeviceIdentifier
}

/// Builds a case's receipt payload the way Apple lays receipts out: App Store receipts
/// with every attribute real ones carry (undocumented ones included) in DER SET order;
/// Xcode receipts with the short attribute list, unsorted, in local-time dates.
struct PayloadBuilder {
    let recipe: Recipe
    let creation: Int64
    let now: Int64
    var random: DeterministicRandom

    static let day: Int64 = 86_400

    /// The app and device the receipt is checked against.
    mutating func app() -> AppUnderTest {
        switch recipe.platform {
        case .ios:
            var uuid = random.bytes(16)
            uuid[6] = uuid[6] & 0x0F | 0x40  // version 4
            uuid[8] = uuid[8] & 0x3F | 0x80  // RFC 4122 variant
            return AppUnderTest(bundleIdentifier: "com.example.receiptforge",
                                version: recipe.style == .xcode ? "1" : "42", platform: .ios,
                                device: DeviceIdentifier(bytes: uuid)!)
        case .macos:
            var mac = random.bytes(6)
            mac[0] &= 0xFC  // universally administered unicast
            return AppUnderTest(bundleIdentifier: "com.example.receiptforge.mac", version: "2.5.8", platform: .macos,
                                device: DeviceIdentifier(bytes: mac)!)
        }
    }

    func date(_ seconds: Int64, fraction: Int = 0, offsetMinutes: Int? = nil) -> ReceiptDate {
        switch (recipe.style, recipe.dateStyle) {
        case (.xcode, _):
            return ReceiptDate(secondsSince1970: seconds, utcOffsetMinutes: 60)
        case (.appStore, .plain):
            return ReceiptDate(secondsSince1970: seconds)
        case (.appStore, .fractionalAndOffsets):
            return ReceiptDate(secondsSince1970: seconds, nanoseconds: fraction * 1_000_000,
                               fractionDigits: fraction == 0 ? 0 : 3, utcOffsetMinutes: offsetMinutes)
        }
    }

    mutating func receipt(for app: AppUnderTest) -> AppReceipt {
        let style = recipe.style
        let environment = recipe.environment ?? (style == .xcode ? "Xcode" : "Production")
        let sandbox = environment == "ProductionSandbox"
        let bundle = recipe.receiptBundle ?? app.bundleIdentifier
        let opaque = random.bytes(style == .xcode ? 8 : 16)
        let hashDevice = recipe.hashForAnotherDevice ? anotherDevice(like: app.device) : app.device
        let bundleValue = ReceiptAttribute.utf8String(AppReceipt.Field.bundleIdentifier, bundle).value
        let hash = DeviceHash.compute(device: hashDevice, opaqueValue: opaque, bundleIdentifierValue: bundleValue)
        let appItemID: Int64 = sandbox || style == .xcode ? 0
            : recipe.purchases == .largeIntegers ? Int64.max : Int64(random.digits(10))!
        typealias F = AppReceipt.Field

        var attributes: [ReceiptAttribute] = [
            .utf8String(F.environment, environment),
            .integer(F.appItemID, appItemID),
            .utf8String(F.bundleIdentifier, bundle),
            .utf8String(F.appVersion, recipe.receiptVersion ?? app.version),
            .raw(F.opaqueValue, opaque, version: 2),
            .raw(F.sha1Hash, hash),
        ]
        if style == .xcode {
            attributes[4].version = 1
            attributes.append(.date(F.undocumentedDate8, nil))
            attributes.append(.date(F.creationDate, date(creation)))
        } else {
            attributes += [
                .raw(6, random.bytes(70)),
                .raw(7, random.bytes(84)),
                .date(F.undocumentedDate8, sandbox ? nil : date(creation - 1412, fraction: 250, offsetMinutes: 180)),
                .integer(9, Int64(random.digits(9))!),
                .ia5String(F.ageRating, "4+"),
                .integer(11, Int64(random.digits(9))!),
                .date(F.creationDate, date(creation, fraction: 123)),
                .integer(13, 0x0298D8),
                .integer(14, 0xCF),
                .integer(15, Int64(random.digits(12))!),
                .integer(16, Int64(random.digits(9))!),
                .date(F.originalPurchaseDate, date(creation - 400 * Self.day, offsetMinutes: -300)),
                .utf8String(F.originalApplicationVersion, sandbox ? "1.0" : (app.platform == .macos ? "2.0" : "17")),
                .utf8String(20, ""),
                .integer(25, 3),
            ]
        }
        for purchase in purchases() {
            attributes.append(ReceiptAttribute(type: F.inAppPurchase,
                                               value: purchase.encoded(order: style == .xcode ? .asWritten : .sorted)))
        }
        switch recipe.expiration {
        case .none where style == .xcode:
            attributes.append(.date(F.expirationDate, ReceiptDate("4001-01-01T01:00:00+0100")!))
        case .none:
            break
        case .future:
            attributes.append(.date(F.expirationDate, date(max(ForgeSettings.farFuture, now + 10 * 365 * Self.day))))
        case .past:
            attributes.append(.date(F.expirationDate, date(now - Self.day)))
        }
        if recipe.unknownAttributes {
            attributes += [
                .utf8String(26, "an attribute from the future"),
                ReceiptAttribute(type: 1000, version: 7, value: random.bytes(33)),
                .integer(0x7FFF_FFFF_FFFF, 42, version: 3),
                ReceiptAttribute(type: 30, version: 1, value: []),
            ]
        }
        return AppReceipt(attributes: attributes)
    }

    func anotherDevice(like device: DeviceIdentifier) -> DeviceIdentifier {
        var other = device.bytes
        for index in other.indices { other[index] ^= 0x5A }
        return DeviceIdentifier(bytes: other)!
    }

    mutating func purchases() -> [InAppPurchase] {
        let day = Self.day
        switch recipe.purchases {
        case .few:
            return [
                purchase(product: "com.example.receiptforge.pro", type: .nonConsumable, at: creation - 20 * day),
                purchase(product: "com.example.receiptforge.coins100", type: .consumable, at: creation - 6 * day,
                         quantity: 3),
                purchase(product: "com.example.receiptforge.monthly", type: .autoRenewableSubscription,
                         at: creation - 2 * day, expires: creation + 28 * day),
            ]
        case .many(let count):
            return (0..<count).map { index in
                purchase(product: "com.example.receiptforge.consumable.\(index % 7)", type: .consumable,
                         at: creation - Int64(count - index) * 3_600)
            }
        case .subscriptions:
            let product = "com.example.receiptforge.subscription.monthly"
            return [
                purchase(product: product, type: .autoRenewableSubscription, at: creation - 60 * day,
                         expires: creation - 30 * day),
                purchase(product: product, type: .autoRenewableSubscription, at: creation - 10 * day,
                         expires: creation + 20 * day),
                purchase(product: "com.example.receiptforge.subscription.yearly", type: .autoRenewableSubscription,
                         at: creation - 40 * day, expires: creation + 325 * day, cancelled: creation - 35 * day),
                purchase(product: "com.example.receiptforge.subscription.weekly", type: .autoRenewableSubscription,
                         at: creation - 3 * day, expires: creation + 4 * day, trial: true),
                purchase(product: "com.example.receiptforge.subscription.quarterly", type: .autoRenewableSubscription,
                         at: creation - 5 * day, expires: creation + 85 * day, intro: true,
                         offer: "com.example.receiptforge.offer.intro"),
            ]
        case .largeIntegers:
            var record = purchase(product: "com.example.receiptforge.monthly", type: .autoRenewableSubscription,
                                  at: creation - day, expires: creation + 29 * day)
            record.webOrderLineItemID = Int64.max
            record.quantity = Int64(UInt32.max) + 1
            record.replace(1710, with: .integer(1710, Int64.min))
            return [record]
        }
    }

    mutating func purchase(product: String, type: InAppPurchase.ProductType, at purchased: Int64,
                           quantity: Int64 = 1, expires: Int64? = nil, cancelled: Int64? = nil,
                           trial: Bool = false, intro: Bool = false, offer: String? = nil) -> InAppPurchase {
        let transaction = random.digits(15)
        let subscription = type == .autoRenewableSubscription
        typealias F = InAppPurchase.Field
        var attributes: [ReceiptAttribute] = [
            .integer(F.quantity, quantity),
            .utf8String(F.productIdentifier, product),
            .utf8String(F.transactionIdentifier, transaction),
            .date(F.purchaseDate, date(purchased, fraction: 7, offsetMinutes: 60)),
            .utf8String(F.originalTransactionIdentifier, transaction),
            .date(F.originalPurchaseDate, date(purchased, offsetMinutes: -480)),
            .integer(F.productType, type.rawValue),
            .date(F.subscriptionExpirationDate, expires.map { date($0, fraction: 999) }),
        ]
        if recipe.style == .appStore {
            attributes += [
                .utf8String(1709, ""),
                .integer(1710, Int64(random.digits(10))!),
                .integer(F.webOrderLineItemID, subscription ? Int64(random.digits(16))! : 0),
                .date(F.cancellationDate, cancelled.map { date($0) }),
                .integer(F.isTrialPeriod, trial ? 1 : 0),
                .utf8String(1714, ""), .utf8String(1715, ""), .utf8String(1716, ""),
                .utf8String(1717, ""), .utf8String(1718, ""),
                .integer(F.isInIntroOfferPeriod, intro ? 1 : 0),
                .integer(1722, 0),
            ]
            if let offer { attributes.append(.utf8String(F.promotionalOfferIdentifier, offer)) }
            if recipe.unknownAttributes { attributes.append(ReceiptAttribute(type: 1730, version: 2, value: [0xFF, 0x00])) }
        }
        return InAppPurchase(attributes: attributes)
    }
}
