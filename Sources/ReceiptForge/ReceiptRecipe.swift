import BER
import Receipt
import AppInput
import ForgeSupport

/// The app a case's receipt is validated for, and the device it runs on.
public struct AppUnderTest: Sendable, Hashable {
    /// The bundle identifier the validator compares attribute 2 with.
    public var bundleIdentifier: String
    /// The version the validator compares attribute 3 with.
    public var version: String
    /// iOS or macOS.
    public var platform: Platform
    /// The device the validator runs on: its hash check uses this identifier.
    public var device: DeviceIdentifier

    /// An app and device from their fields.
    public init(bundleIdentifier: String, version: String, platform: Platform, device: DeviceIdentifier) {
        self.bundleIdentifier = bundleIdentifier
        self.version = version
        self.platform = platform
        self.device = device
    }
}

/// Builds a case's receipt payload the way Apple lays receipts out: App Store receipts
/// with every attribute real ones carry (undocumented ones included) in DER SET order;
/// Xcode receipts with the short attribute list, unsorted, in local-time dates.
package struct PayloadBuilder {
    package let recipe: Recipe
    package let description: AppDescription
    package let creation: Int64
    package let now: Int64
    package var random: DeterministicRandom

    package static let day: Int64 = 86_400
    /// The example app's Mac edition, for the `macos-device` case of the built-in catalogue.
    package static let exampleMacApp = (bundle: "com.example.receiptforge.mac", version: "2.5.8")

    /// The app and device the receipt is checked against: the description's, on the
    /// recipe's platform when the case asks for a Mac.
    package mutating func app() -> AppUnderTest {
        let platform: Platform = recipe.platform == .macos ? .macos : description.platform
        let wantedKind: DeviceIdentifier.Kind = platform == .ios ? .uuid : .macAddress
        let device: DeviceIdentifier
        if let given = description.device, given.kind == wantedKind {
            device = given
        } else if platform == .ios {
            var uuid = random.bytes(16)
            uuid[6] = uuid[6] & 0x0F | 0x40  // version 4
            uuid[8] = uuid[8] & 0x3F | 0x80  // RFC 4122 variant
            device = DeviceIdentifier(bytes: uuid)!
        } else {
            var mac = random.bytes(6)
            mac[0] &= 0xFC  // universally administered unicast
            device = DeviceIdentifier(bytes: mac)!
        }
        var bundle = description.bundleIdentifier
        var version = description.version
        if platform == .macos && description.platform == .ios && description.bundleIdentifier == AppDescription.example.bundleIdentifier {
            (bundle, version) = Self.exampleMacApp
        } else if recipe.style == .xcode && description == .example {
            version = "1"  // a development build, as the example's Xcode receipt has always said
        }
        return AppUnderTest(bundleIdentifier: bundle, version: version, platform: platform, device: device)
    }

    /// A date as the recipe writes it. `fraction` (milliseconds) and `offsetMinutes` are
    /// this date's when every date carries a fraction (`fractionsEverywhere`);
    /// `appleWritesFraction` marks the attributes real App Store receipts carry fractions
    /// in (8 and 18: a 2020 Mac App Store receipt has 18 = 2020-10-08T08:46:35.304Z), the
    /// only ones `fractionsWhereAppleWritesThem` gives one, always in UTC as Apple does.
    package func date(_ seconds: Int64, fraction: Int, offsetMinutes: Int? = nil,
                      appleWritesFraction: Bool = false) -> ReceiptDate {
        switch (recipe.style, recipe.dateStyle) {
        case (.xcode, _):
            return ReceiptDate(secondsSince1970: seconds, utcOffsetMinutes: 60)
        case (.appStore, .plain), (.appStore, .offsetCreationDate):
            return ReceiptDate(secondsSince1970: seconds)
        case (.appStore, .fractionsWhereAppleWritesThem):
            guard appleWritesFraction else { return ReceiptDate(secondsSince1970: seconds) }
            return ReceiptDate(secondsSince1970: seconds, nanoseconds: fraction * 1_000_000, fractionDigits: 3)
        case (.appStore, .fractionsEverywhere):
            return ReceiptDate(secondsSince1970: seconds, nanoseconds: fraction * 1_000_000, fractionDigits: 3,
                               utcOffsetMinutes: offsetMinutes)
        }
    }

    package mutating func receipt(for app: AppUnderTest) -> AppReceipt {
        let style = recipe.style
        let environment = recipe.environment ?? (style == .xcode ? "Xcode" : description.environment.receiptValue)
        let sandbox = environment == AppEnvironment.sandbox.receiptValue
        let bundle = recipe.wrongBundle ? Self.otherBundle(than: app.bundleIdentifier) : app.bundleIdentifier
        let opaque = random.bytes(style == .xcode ? 8 : 16)
        let hashDevice = recipe.hashForAnotherDevice ? anotherDevice(like: app.device) : app.device
        let bundleValue = ReceiptAttribute.utf8String(AppReceipt.Field.bundleIdentifier, bundle).value
        let hash = DeviceHash.compute(device: hashDevice, opaqueValue: opaque, bundleIdentifierValue: bundleValue)
        let appItemID: Int64 = sandbox || style == .xcode ? 0
            : recipe.purchases == .largeIntegers ? Int64.max : Int64(random.digits(10))!
        let originalVersion = sandbox ? "1.0" : description.originalVersion ?? (app.platform == .macos ? "2.0" : "17")
        let creationDate = recipe.dateStyle == .offsetCreationDate
            ? ReceiptDate(secondsSince1970: creation, utcOffsetMinutes: 9 * 60 + 30)
            : date(creation, fraction: 123)
        typealias F = AppReceipt.Field

        var attributes: [ReceiptAttribute] = [
            .utf8String(F.environment, environment),
            .integer(F.appItemID, appItemID),
            .utf8String(F.bundleIdentifier, bundle),
            .utf8String(F.appVersion, recipe.wrongVersion ? Self.otherVersion(than: app.version) : app.version),
            .raw(F.opaqueValue, opaque, version: 2),
            .raw(F.sha1Hash, hash),
        ]
        if style == .xcode {
            attributes[4].version = 1
            attributes.append(.date(F.undocumentedDate8, nil))
            attributes.append(.date(F.creationDate, date(creation, fraction: 123)))
        } else {
            attributes += [
                .raw(6, random.bytes(70)),
                .raw(7, random.bytes(84)),
                .date(F.undocumentedDate8, sandbox ? nil : date(creation - 1412, fraction: 250, offsetMinutes: 180,
                                                                  appleWritesFraction: true)),
                .integer(9, Int64(random.digits(9))!),
                .ia5String(F.ageRating, "4+"),
                .integer(11, Int64(random.digits(9))!),
                .date(F.creationDate, creationDate),
                .integer(13, 0x0298D8),
                .integer(14, 0xCF),
                .integer(15, Int64(random.digits(12))!),
                .integer(16, Int64(random.digits(9))!),
                .date(F.originalPurchaseDate, date(creation - 400 * Self.day, fraction: 304, offsetMinutes: -300,
                                                    appleWritesFraction: true)),
                .utf8String(F.originalApplicationVersion, originalVersion),
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
            attributes.append(.date(F.expirationDate, date(max(ForgeSettings.farFuture, now + 10 * 365 * Self.day), fraction: 500)))
        case .past:
            // A day clear of the boundary (expiry equal to now is expired, but no
            // fixture should hinge on it).
            attributes.append(.date(F.expirationDate, date(now - Self.day, fraction: 500)))
        }
        switch recipe.unknownAttributes {
        case .none:
            break
        case .ordinary:
            attributes += [
                .utf8String(26, "an attribute from the future"),
                ReceiptAttribute(type: 1000, version: 7, value: random.bytes(33)),
                ReceiptAttribute(type: 30, version: 1, value: []),
            ]
        case .huge:
            attributes += [
                .integer(0x7FFF_FFFF_FFFF, 42, version: 3),
                .utf8String(Int64(Int32.max) + 1, "type 2^31"),
                .integer(-1, 7),
                ReceiptAttribute(type: Int64.min, version: -1, value: random.bytes(5)),
            ]
        }
        return AppReceipt(attributes: attributes)
    }

    /// A bundle id that is not `bundle`: another app of the same developer.
    package static func otherBundle(than bundle: String) -> String {
        bundle == "com.example.otherapp" ? "com.example.otherapp2" : "com.example.otherapp"
    }

    /// Another plausible version: the last number one lower (one higher at 0), else `.1` appended.
    package static func otherVersion(than version: String) -> String {
        var parts = version.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let last = parts.last, let number = Int(last), last.allSatisfy(\.isASCII) else { return version + ".1" }
        parts[parts.count - 1] = String(number > 0 ? number - 1 : number + 1)
        return parts.joined(separator: ".")
    }

    package func anotherDevice(like device: DeviceIdentifier) -> DeviceIdentifier {
        var other = device.bytes
        for index in other.indices { other[index] ^= 0x5A }
        return DeviceIdentifier(bytes: other)!
    }

    /// The in-app records of the receipt: the built-in history, one built from the
    /// app's catalogue, or the app's own list, shaped by the case (many, subscriptions
    /// only, large integers).
    package mutating func purchases() -> [InAppPurchase] {
        switch description.purchases {
        case .builtIn:
            return builtInPurchases()
        case .catalogue(let catalogue):
            var history = PurchaseHistory(creation: creation)
            return shaped(history.purchases(of: catalogue, random: &random), catalogue: catalogue)
        case .explicit(let list):
            return shaped(list, catalogue: nil)
        }
    }

    /// The case's shape applied to the app's own purchases.
    package mutating func shaped(_ list: [PurchaseDescription], catalogue: ProductCatalogue?) -> [InAppPurchase] {
        switch recipe.purchases {
        case .few:
            return list.map { inAppPurchase($0) }
        case .subscriptions:
            let subscriptions = list.filter { $0.kind == .autoRenewableSubscription }
            return (subscriptions.isEmpty ? list : subscriptions).map { inAppPurchase($0) }
        case .many(let count):
            guard !list.isEmpty else { return [] }
            return (0..<count).map { index in
                var record = list[index % list.count]
                record.purchaseDate = creation - Int64(count - index) * 3_600
                record.originalPurchaseDate = nil
                record.transactionID = nil
                record.originalTransactionID = nil
                record.webOrderLineItemID = nil
                record.cancellationDate = nil
                if record.kind == .autoRenewableSubscription {
                    let period = catalogue?.products.first { $0.id == record.productID }?.period?.seconds ?? 30 * Self.day
                    record.expiresDate = record.purchaseDate + period
                }
                return inAppPurchase(record)
            }
        case .largeIntegers:
            guard let first = list.first(where: { $0.kind == .autoRenewableSubscription }) ?? list.first else { return [] }
            var record = inAppPurchase(first)
            record.webOrderLineItemID = Int64.max
            record.quantity = Int64(UInt32.max) + 1
            record.replace(1710, with: .integer(1710, Int64.min))
            return [record]
        }
    }

    package mutating func builtInPurchases() -> [InAppPurchase] {
        let day = Self.day
        func bought(_ product: String, _ kind: Product.Kind, at purchased: Int64, quantity: Int64 = 1,
                    expires: Int64? = nil, cancelled: Int64? = nil, trial: Bool = false, intro: Bool = false,
                    offer: String? = nil) -> PurchaseDescription {
            PurchaseDescription(productID: product, kind: kind, quantity: quantity, purchaseDate: purchased,
                                expiresDate: expires, cancellationDate: cancelled, isTrialPeriod: trial,
                                isInIntroOfferPeriod: intro, promotionalOfferID: offer)
        }
        switch recipe.purchases {
        case .few:
            return [
                inAppPurchase(bought("com.example.receiptforge.pro", .nonConsumable, at: creation - 20 * day)),
                inAppPurchase(bought("com.example.receiptforge.coins100", .consumable, at: creation - 6 * day, quantity: 3)),
                inAppPurchase(bought("com.example.receiptforge.monthly", .autoRenewableSubscription,
                                     at: creation - 2 * day, expires: creation + 28 * day)),
            ]
        case .many(let count):
            return (0..<count).map { index in
                inAppPurchase(bought("com.example.receiptforge.consumable.\(index % 7)", .consumable,
                                     at: creation - Int64(count - index) * 3_600))
            }
        case .subscriptions:
            let product = "com.example.receiptforge.subscription.monthly"
            return [
                inAppPurchase(bought(product, .autoRenewableSubscription, at: creation - 60 * day, expires: creation - 30 * day)),
                inAppPurchase(bought(product, .autoRenewableSubscription, at: creation - 10 * day, expires: creation + 20 * day)),
                inAppPurchase(bought("com.example.receiptforge.subscription.yearly", .autoRenewableSubscription,
                                     at: creation - 40 * day, expires: creation + 325 * day, cancelled: creation - 35 * day)),
                inAppPurchase(bought("com.example.receiptforge.subscription.weekly", .autoRenewableSubscription,
                                     at: creation - 3 * day, expires: creation + 4 * day, trial: true)),
                inAppPurchase(bought("com.example.receiptforge.subscription.quarterly", .autoRenewableSubscription,
                                     at: creation - 5 * day, expires: creation + 85 * day, intro: true,
                                     offer: "com.example.receiptforge.offer.intro")),
            ]
        case .largeIntegers:
            var record = inAppPurchase(bought("com.example.receiptforge.monthly", .autoRenewableSubscription,
                                              at: creation - day, expires: creation + 29 * day))
            record.webOrderLineItemID = Int64.max
            record.quantity = Int64(UInt32.max) + 1
            record.replace(1710, with: .integer(1710, Int64.min))
            return [record]
        }
    }

    /// One in-app record, laid out as Apple does. Identifiers the description leaves
    /// out are drawn from the seed, in a fixed order: transaction id, attribute 1710,
    /// web order line item id.
    package mutating func inAppPurchase(_ purchase: PurchaseDescription) -> InAppPurchase {
        let transaction = purchase.transactionID ?? random.digits(15)
        let subscription = purchase.kind == .autoRenewableSubscription
        typealias F = InAppPurchase.Field
        var attributes: [ReceiptAttribute] = [
            .integer(F.quantity, purchase.quantity),
            .utf8String(F.productIdentifier, purchase.productID),
            .utf8String(F.transactionIdentifier, transaction),
            .date(F.purchaseDate, date(purchase.purchaseDate, fraction: 7, offsetMinutes: 60)),
            .utf8String(F.originalTransactionIdentifier, purchase.originalTransactionID ?? transaction),
            .date(F.originalPurchaseDate, date(purchase.originalPurchaseDate ?? purchase.purchaseDate, fraction: 80, offsetMinutes: -480)),
            .integer(F.productType, purchase.kind.receiptValue),
            .date(F.subscriptionExpirationDate, purchase.expiresDate.map { date($0, fraction: 999) }),
        ]
        if recipe.style == .appStore {
            let undocumented1710 = Int64(random.digits(10))!
            let webOrder = purchase.webOrderLineItemID ?? (subscription ? Int64(random.digits(16))! : 0)
            attributes += [
                .utf8String(1709, ""),
                .integer(1710, undocumented1710),
                .integer(F.webOrderLineItemID, webOrder),
                .date(F.cancellationDate, purchase.cancellationDate.map { date($0, fraction: 66) }),
                .integer(F.isTrialPeriod, purchase.isTrialPeriod ? 1 : 0),
                .utf8String(1714, ""), .utf8String(1715, ""), .utf8String(1716, ""),
                .utf8String(1717, ""), .utf8String(1718, ""),
                .integer(F.isInIntroOfferPeriod, purchase.isInIntroOfferPeriod ? 1 : 0),
                .integer(1722, 0),
            ]
            if let offer = purchase.promotionalOfferID { attributes.append(.utf8String(F.promotionalOfferIdentifier, offer)) }
            if recipe.unknownAttributes == .ordinary {
                attributes.append(ReceiptAttribute(type: 1730, version: 2, value: [0xFF, 0x00]))
            }
        }
        return InAppPurchase(attributes: attributes)
    }
}
