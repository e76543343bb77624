import Receipt
import StrictJSON

/// An `--app` file: the app the fixtures are minted for and, optionally, what the user
/// bought, in one JSON document (schema: `Schemas/app.schema.json`). Every field is
/// optional; `apply(to:)` overrides only the fields the file sets, and command-line
/// flags are applied after it.
///
/// ```json
/// {
///   "bundleId": "com.acme.shop", "appVersion": "7.1", "platform": "ios",
///   "deviceId": "956328D9-CC6A-47F4-BE40-6953FB0AB6C7", "environment": "Sandbox",
///   "purchases": [ { "productId": "com.acme.shop.coins", "type": "consumable",
///                    "quantity": 3, "purchaseDate": "2025-03-01T10:00:00Z" } ]
/// }
/// ```
///
/// Unknown fields are refused, so a misspelt one cannot be silently ignored.
public struct AppFile: Sendable, Hashable {
    public var bundleIdentifier: String?
    public var version: String?
    public var originalVersion: String?
    public var platform: Platform?
    public var device: DeviceIdentifier?
    public var environment: AppEnvironment?
    /// The `storekit` file, resolved against the folder of the app file.
    public var storekitPath: String?
    /// `.catalogue` (from `storekit`) or `.explicit` (from `purchases`); nil when the
    /// file gives neither.
    public var purchases: PurchasePlan?

    /// The fields of the document. `$schema` lets editors find the schema; it is
    /// otherwise ignored.
    public static let fields: Set<String> = [
        "$schema", "bundleId", "appVersion", "originalAppVersion", "platform", "deviceId", "environment",
        "storekit", "purchases",
    ]

    /// The fields of each element of `purchases`.
    public static let purchaseFields: Set<String> = [
        "productId", "type", "quantity", "transactionId", "originalTransactionId", "purchaseDate",
        "originalPurchaseDate", "expiresDate", "cancellationDate", "cancellationReason", "isTrialPeriod",
        "isInIntroOfferPeriod", "webOrderLineItemId", "promotionalOfferId",
    ]

    public init(bundleIdentifier: String? = nil, version: String? = nil, originalVersion: String? = nil,
                platform: Platform? = nil, device: DeviceIdentifier? = nil, environment: AppEnvironment? = nil,
                storekitPath: String? = nil, purchases: PurchasePlan? = nil) {
        self.bundleIdentifier = bundleIdentifier
        self.version = version
        self.originalVersion = originalVersion
        self.platform = platform
        self.device = device
        self.environment = environment
        self.storekitPath = storekitPath
        self.purchases = purchases
    }

    /// Reads and parses the file at `path`, and the `.storekit` file it names.
    public init(contentsOfFile path: String) throws(JSONInputError) {
        try self.init(document: JSONInput.load(contentsOfFile: path))
    }

    /// Parses the contents of an app file; `file` names it in errors and is the
    /// place a relative `storekit` path is resolved from.
    public init(json bytes: [UInt8], file: String) throws(JSONInputError) {
        try self.init(document: JSONInput.parse(bytes, file: file))
    }

    /// `base` with every field this file sets replaced. A device without a platform
    /// sets the platform its form implies (a MAC address: macOS; a UUID: iOS), as
    /// `AppDescription.init` does.
    public func apply(to base: AppDescription) -> AppDescription {
        var app = base
        if let bundleIdentifier { app.bundleIdentifier = bundleIdentifier }
        if let version { app.version = version }
        if let originalVersion { app.originalVersion = originalVersion }
        if let device {
            app.device = device
            app.platform = device.kind == .macAddress ? .macos : .ios
        }
        if let platform { app.platform = platform }
        if let environment { app.environment = environment }
        if let purchases { app.purchases = purchases }
        return app
    }

    // MARK: Parsing

    package init(document: JSONInput) throws(JSONInputError) {
        let root = try document.object(knownKeys: AppFile.fields)
        _ = try root.optional("$schema")?.string()
        bundleIdentifier = try root.optional("bundleId")?.name()
        version = try root.optional("appVersion")?.name()
        originalVersion = try root.optional("originalAppVersion")?.name()
        platform = try root.optional("platform")?.choice([("ios", Platform.ios), ("macos", .macos)], naming: "platform")
        environment = try root.optional("environment")?
            .choice(AppEnvironment.allCases.map { ($0.rawValue, $0) }, naming: "environment")
        if let deviceInput = root.optional("deviceId") {
            let device = try AppFile.device(deviceInput)
            switch (platform, device.kind) {
            case (.ios, .macAddress):
                throw deviceInput.failure("\(device) is a MAC address, but the platform is ios (give the identifierForVendor UUID)")
            case (.macos, .uuid):
                throw deviceInput.failure("\(device) is a UUID, but the platform is macos (give the MAC address)")
            default:
                self.device = device
            }
        }

        let storekitInput = root.optional("storekit")
        let purchasesInput = root.optional("purchases")
        if storekitInput != nil, let purchasesInput {
            throw purchasesInput.failure("give either 'storekit' (the forge builds the purchases from its products) "
                + "or 'purchases' (the exact list), not both")
        }
        if let storekitInput {
            let path = AppFile.resolve(try storekitInput.name(), against: document.file)
            storekitPath = path
            purchases = .catalogue(try AppFile.storekitCatalogue(path, named: storekitInput))
        }
        if let purchasesInput {
            var list: [PurchaseDescription] = []
            for element in try purchasesInput.array() {
                list.append(try AppFile.purchase(element))
            }
            purchases = .explicit(list)
        }
    }

    private static func device(_ input: JSONInput) throws(JSONInputError) -> DeviceIdentifier {
        let text = try input.string()
        guard let device = DeviceIdentifier(text: text) else {
            throw input.failure("'\(text)' is not a device identifier (expected a UUID such as "
                + "956328D9-CC6A-47F4-BE40-6953FB0AB6C7, a MAC address such as 6c:40:08:b5:94:5e, or 32 or 12 hex digits)")
        }
        return device
    }

    /// `relative` against the folder holding `file`; an absolute path stays as it is.
    private static func resolve(_ relative: String, against file: String) -> String {
        guard !relative.hasPrefix("/"), let slash = file.lastIndex(of: "/") else { return relative }
        return String(file[...slash]) + relative
    }

    /// The catalogue of the `.storekit` file at `path`. Its own errors name it; a file
    /// that cannot be read at all is reported at the app file's `storekit` field.
    private static func storekitCatalogue(_ path: String, named input: JSONInput) throws(JSONInputError) -> ProductCatalogue {
        do throws(JSONInputError) {
            return try StoreKitConfiguration(contentsOfFile: path).catalogue
        } catch where error.kind == .unreadable {
            throw JSONInputError(.unreadable, file: input.file, location: input.path.description,
                                "cannot use the StoreKit configuration \(path): \(error.reason)")
        }
    }

    private static func purchase(_ input: JSONInput) throws(JSONInputError) -> PurchaseDescription {
        let object = try input.object(knownKeys: purchaseFields)
        let kind = try object.required("type").choice(Product.Kind.allCases.map { ($0.rawValue, $0) }, naming: "product type")
        let purchaseDateInput = try object.required("purchaseDate")
        let purchaseDate = try date(purchaseDateInput)
        var purchase = PurchaseDescription(productID: try object.required("productId").name(), kind: kind,
                                           purchaseDate: purchaseDate.secondsSince1970)

        /// Refuses a field that only auto-renewable subscriptions carry.
        func requireAutoRenewable(_ field: JSONInput, _ why: String) throws(JSONInputError) {
            guard kind == .autoRenewableSubscription else {
                throw field.failure("\(why), but this purchase's type is \(kind.rawValue)")
            }
        }

        if let quantity = object.optional("quantity") {
            purchase.quantity = try quantity.integer(in: 1...Int64.max)
        }
        purchase.transactionID = try object.optional("transactionId")?.name()
        purchase.originalTransactionID = try object.optional("originalTransactionId")?.name()
        if let input = object.optional("originalPurchaseDate") {
            let original = try date(input)
            guard original <= purchaseDate else {
                throw input.failure("\(original) is after purchaseDate \(purchaseDate): the original purchase comes first")
            }
            purchase.originalPurchaseDate = original.secondsSince1970
        }
        if let input = object.optional("expiresDate") {
            try requireAutoRenewable(input, "only auto-renewable subscriptions expire (attribute 1708)")
            let expires = try date(input)
            guard expires > purchaseDate else {
                throw input.failure("\(expires) is not after purchaseDate \(purchaseDate)")
            }
            purchase.expiresDate = expires.secondsSince1970
        }
        if let input = object.optional("cancellationDate") {
            let cancelled = try date(input)
            guard cancelled >= purchaseDate else {
                throw input.failure("\(cancelled) is before purchaseDate \(purchaseDate): nothing is cancelled before it is bought")
            }
            purchase.cancellationDate = cancelled.secondsSince1970
        }
        if let input = object.optional("cancellationReason") {
            guard purchase.cancellationDate != nil else {
                throw input.failure("a cancellation reason needs a cancellationDate")
            }
            purchase.cancellationReason = try input.integer(in: 0...1)
        }
        if let input = object.optional("isTrialPeriod") {
            purchase.isTrialPeriod = try input.bool()
            if purchase.isTrialPeriod { try requireAutoRenewable(input, "only auto-renewable subscriptions have free trials") }
        }
        if let input = object.optional("isInIntroOfferPeriod") {
            purchase.isInIntroOfferPeriod = try input.bool()
            if purchase.isInIntroOfferPeriod {
                try requireAutoRenewable(input, "only auto-renewable subscriptions have introductory offers")
                guard !purchase.isTrialPeriod else {
                    throw input.failure("a period is a free trial (isTrialPeriod) or a paid introductory offer, not both")
                }
            }
        }
        if let input = object.optional("webOrderLineItemId") {
            purchase.webOrderLineItemID = try input.integer(in: 0...Int64.max)
        }
        if let input = object.optional("promotionalOfferId") {
            try requireAutoRenewable(input, "only auto-renewable subscriptions have promotional offers")
            purchase.promotionalOfferID = try input.name()
        }
        return purchase
    }

    /// An RFC 3339 date in whole seconds (a fraction of zeros is allowed), as receipts
    /// carry them.
    private static func date(_ input: JSONInput) throws(JSONInputError) -> ReceiptDate {
        let text = try input.string()
        guard let date = ReceiptDate(text) else {
            throw input.failure("'\(text)' is not an RFC 3339 date (expected e.g. 2025-03-01T10:00:00Z or 2025-03-01T12:00:00+02:00)")
        }
        guard date.nanoseconds == 0 else {
            throw input.failure("'\(text)' has a fraction of a second; receipts carry whole seconds")
        }
        return date
    }
}
