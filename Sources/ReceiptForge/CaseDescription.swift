import BER
import Foundation
import Receipt
import AppInput

/// `case.json`: the expected verdict and every input a validator needs. Paths are
/// relative to the output directory (where `manifest.json` is).
public struct CaseDescription: Codable, Sendable, Hashable {
    public struct Expected: Codable, Sendable, Hashable {
        /// `valid` or `invalid`.
        public var verdict: VerdictKind
        public var reason: VerdictReason

        public init(_ reason: VerdictReason) {
            self.verdict = reason.verdict
            self.reason = reason
        }
    }

    public struct App: Codable, Sendable, Hashable {
        /// The app the validator runs as (what it compares attributes 2 and 3 with).
        public var bundleId: String
        public var version: String
        public var platform: Platform
        /// Attribute 19 as written in the receipt (nil when absent, as in Xcode receipts).
        public var originalVersion: String?
        /// The product ids of the receipt's in-app records, in order, without repeats.
        public var productIds: [String]
    }

    public struct Device: Codable, Sendable, Hashable {
        public var platform: Platform
        /// Lowercase hex of the identifier bytes.
        public var hex: String
        /// `identifierForVendor` form (iOS) …
        public var uuid: String?
        /// … or MAC address form (macOS).
        public var mac: String?
    }

    public struct Validation: Codable, Sendable, Hashable {
        /// Always `creationDate`: the chain is validated at the receipt creation date.
        public var chainValidatedAt: String
        /// Attribute 12 as written in the receipt (nil when there is no readable receipt).
        public var creationDate: String?
        /// The reference current time; attribute 21 (VPP expiry) is compared with it
        /// (and with the real current time: the verdict holds for both until 2090).
        public var now: String
        /// Attribute 21, when present.
        public var expirationDate: String?
        public var rule: String
    }

    public struct OpenSSL: Codable, Sendable, Hashable {
        public var expected: OpenSSLOutcome
        public var command: String?
    }

    public var id: String
    public var description: String
    public var expected: Expected
    /// What a validator must get right here (`ForgeCase.Tag`). Nil only in trees written
    /// before tags existed.
    public var tags: [ForgeCase.Tag]?
    /// What it costs a validator to get this case wrong. Nil only in trees written before
    /// importance existed.
    public var importance: ForgeCase.Importance?
    /// `NAME/receipt` (binary) and `NAME/receipt.b64`, or nil for `missing`.
    public var receipt: String?
    public var receiptBase64: String?
    public var receiptSHA256: String?
    public var app: App
    public var device: Device
    public var validation: Validation
    public var trustAnchor: String
    public var digest: String
    public var signatureAlgorithm: String
    /// `definite` (App Store) or `ber-indefinite` (Xcode and BER cases).
    public var encoding: String
    public var certificateCount: Int
    public var environment: String?
    public var inAppCount: Int
    public var openssl: OpenSSL

    package init(forgeCase: ForgeCase, app: AppUnderTest, receipt: AppReceipt, file: [UInt8]?, settings: ForgeSettings,
         trustAnchor: String, digest: DigestAlgorithm, signatureAlgorithm: OID, layout: ReceiptSigner.Layout,
         certificateCount: Int) {
        id = forgeCase.id
        description = forgeCase.summary
        expected = Expected(forgeCase.expected)
        tags = forgeCase.tags
        importance = forgeCase.importance
        self.receipt = forgeCase.receiptPath
        receiptBase64 = forgeCase.receiptPath.map { $0 + ".b64" }
        receiptSHA256 = file.map { lowercaseHex(DigestAlgorithm.sha256.digest($0)) }
        var productIds: [String] = []
        for purchase in receipt.inAppPurchases {
            if let id = purchase.productIdentifier, !productIds.contains(id) { productIds.append(id) }
        }
        self.app = App(bundleId: app.bundleIdentifier, version: app.version, platform: app.platform,
                       originalVersion: receipt.originalApplicationVersion, productIds: productIds)
        device = Device(platform: app.platform, hex: app.device.hex,
                        uuid: app.device.kind == .uuid ? app.device.formatted : nil,
                        mac: app.device.kind == .macAddress ? app.device.formatted : nil)
        validation = Validation(
            chainValidatedAt: "creationDate", creationDate: receipt.creationDate?.text,
            now: ReceiptDate(secondsSince1970: settings.now).text, expirationDate: receipt.expirationDate?.text,
            rule: "validate the certificate chain at creationDate; expired when now is at or after expirationDate "
                + "(attribute 21, VPP; compared to the second)")
        self.trustAnchor = trustAnchor
        self.digest = digest.rawValue
        self.signatureAlgorithm = signatureAlgorithm.shortName ?? signatureAlgorithm.description
        encoding = layout == .definite ? "definite" : "ber-indefinite"
        self.certificateCount = certificateCount
        environment = receipt.environment
        inAppCount = receipt.inAppPurchaseCount
        let attime = receipt.creationDate.map { String($0.secondsSince1970) } ?? "CREATION"
        openssl = OpenSSL(
            expected: forgeCase.openSSL,
            command: file == nil ? nil
                : "openssl cms -verify -inform DER -in \(forgeCase.id)/receipt "
                    + "-CAfile \(trustAnchor.replacingOccurrences(of: ".cer", with: ".pem")) "
                    + "-purpose any -attime \(attime) -binary -out /dev/null")
    }
}

/// `manifest.json`: every case of the catalogue.
public struct ForgeManifest: Codable, Sendable, Hashable {
    public struct Entry: Codable, Sendable, Hashable {
        public var id: String
        public var description: String
        public var expected: CaseDescription.Expected
        /// As in `case.json`; nil only in manifests written before they existed.
        public var tags: [ForgeCase.Tag]?
        public var importance: ForgeCase.Importance?
        /// `NAME/receipt`, or nil for `missing`.
        public var receipt: String?
        public var caseFile: String

        public init(id: String, description: String, expected: CaseDescription.Expected, tags: [ForgeCase.Tag]?,
                    importance: ForgeCase.Importance?, receipt: String?, caseFile: String) {
            self.id = id
            self.description = description
            self.expected = expected
            self.tags = tags
            self.importance = importance
            self.receipt = receipt
            self.caseFile = caseFile
        }
    }

    /// The app the tree was minted for, as given (`forge --bundle-id … --storekit …`).
    public struct App: Codable, Sendable, Hashable {
        public var bundleId: String
        public var version: String
        /// Nil: the forge's default for the platform ("17" on iOS, "2.0" on macOS).
        public var originalVersion: String?
        public var platform: Platform
        /// The device given (UUID or MAC form); nil: each case draws one from the seed.
        public var deviceId: String?
        public var environment: AppEnvironment
        /// `built-in` (the example app's history), `catalogue` (built from a `.storekit`
        /// file) or `explicit` (an `--app` file's list).
        public var purchases: String
        /// The product ids the receipts may carry.
        public var productIds: [String]

        public init(_ app: AppDescription) {
            bundleId = app.bundleIdentifier
            version = app.version
            originalVersion = app.originalVersion
            platform = app.platform
            deviceId = app.device?.formatted
            environment = app.environment
            switch app.purchases {
            case .builtIn:
                purchases = "built-in"
                productIds = []
            case .catalogue(let catalogue):
                purchases = "catalogue"
                productIds = catalogue.products.map(\.id)
            case .explicit(let list):
                purchases = "explicit"
                productIds = list.reduce(into: [String]()) { ids, purchase in
                    if !ids.contains(purchase.productID) { ids.append(purchase.productID) }
                }
            }
        }
    }

    /// Format version of this manifest and of `case.json`.
    public var version: Int
    public var generator: String
    public var app: App?
    public var now: String
    public var seed: UInt64
    public var trustAnchor: String
    public var reasons: [VerdictReason]
    public var cases: [Entry]

    public static let currentVersion = 1

    /// The manifest of a tree minted from `cases` (the catalogue) with `settings` for `app`.
    public init(cases: [ForgeCase], settings: ForgeSettings, app: AppDescription = .example) {
        version = ForgeManifest.currentVersion
        generator = "receipt-forge"
        self.app = App(app)
        now = ReceiptDate(secondsSince1970: settings.now).text
        seed = settings.seed
        trustAnchor = Forge.rootPath
        reasons = VerdictReason.allCases
        self.cases = cases.map { forgeCase in
            Entry(id: forgeCase.id, description: forgeCase.summary, expected: CaseDescription.Expected(forgeCase.expected),
                  tags: forgeCase.tags, importance: forgeCase.importance, receipt: forgeCase.receiptPath,
                  caseFile: "\(forgeCase.id)/case.json")
        }
    }
}

/// JSON as the forge writes it: sorted keys, pretty, no escaped slashes, trailing newline.
public func forgeJSON<T: Encodable>(_ value: T) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return Array(try encoder.encode(value)) + [0x0A]
}
