import BER
import Foundation
import Receipt
import AppInput

/// `case.json`: the expected verdict and every input a validator needs. Paths are
/// relative to the output directory (where `manifest.json` is).
public struct CaseDescription: Codable, Sendable, Hashable {
    /// The verdict a correct validator reaches.
    public struct Expected: Codable, Sendable, Hashable {
        /// `valid` or `invalid`.
        public var verdict: VerdictKind
        /// The stable reason code.
        public var reason: VerdictReason

        /// The expectation for `reason`, with its `valid` or `invalid` verdict.
        public init(_ reason: VerdictReason) {
            self.verdict = reason.verdict
            self.reason = reason
        }
    }

    /// The app a case's validator runs as.
    public struct App: Codable, Sendable, Hashable {
        /// The app the validator runs as (what it compares attributes 2 and 3 with).
        public var bundleId: String
        /// The app version (what attribute 3 is compared with).
        public var version: String
        /// iOS or macOS.
        public var platform: Platform
        /// Attribute 19 as written in the receipt (nil when absent, as in Xcode receipts).
        public var originalVersion: String?
        /// The product ids of the receipt's in-app records, in order, without repeats.
        public var productIds: [String]
    }

    /// The device a case's validator runs on.
    public struct Device: Codable, Sendable, Hashable {
        /// iOS (a UUID) or macOS (a MAC address).
        public var platform: Platform
        /// Lowercase hex of the identifier bytes.
        public var hex: String
        /// `identifierForVendor` form (iOS) …
        public var uuid: String?
        /// … or MAC address form (macOS).
        public var mac: String?
    }

    /// How the validator must treat time.
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
        /// The rule above in words, for people reading the file.
        public var rule: String
    }

    /// What OpenSSL is expected to say about the file, and the command to ask it.
    public struct OpenSSL: Codable, Sendable, Hashable {
        /// The outcome `command` should give.
        public var expected: OpenSSLOutcome
        /// The `openssl cms -verify` line to run from the output directory; nil for the case without a file.
        public var command: String?
    }

    /// The case's name.
    public var id: String
    /// One line: what the receipt is and why a validator must say what it should.
    public var description: String
    /// The verdict a correct validator reaches.
    public var expected: Expected
    /// What a validator must get right here (`ForgeCase.Tag`). Nil only in trees written
    /// before tags existed.
    public var tags: [ForgeCase.Tag]?
    /// What it costs a validator to get this case wrong. Nil only in trees written before
    /// importance existed.
    public var importance: ForgeCase.Importance?
    /// `NAME/receipt` (binary) and `NAME/receipt.b64`, or nil for `missing`.
    public var receipt: String?
    /// `NAME/receipt.b64`: the receipt in base64, as apps send it to servers; nil for `missing`.
    public var receiptBase64: String?
    /// SHA-256 of the receipt file, in hex, so a consumer can tell a changed file.
    public var receiptSHA256: String?
    /// The app the validator runs as.
    public var app: App
    /// The device the validator runs on.
    public var device: Device
    /// How the validator must treat time.
    public var validation: Validation
    /// The trust anchor's path (`Certs/root.cer`, or the StoreKit certificate for Xcode cases).
    public var trustAnchor: String
    /// The digest the signer used (`sha1`, `sha256`, …).
    public var digest: String
    /// The signature algorithm the SignerInfo names (`rsaEncryption`, `sha256WithRSAEncryption`).
    public var signatureAlgorithm: String
    /// `definite` (App Store) or `ber-indefinite` (Xcode and BER cases).
    public var encoding: String
    /// How many certificates the container carries.
    public var certificateCount: Int
    /// Attribute 0, or nil when absent.
    public var environment: String?
    /// How many in-app purchase records the receipt holds.
    public var inAppCount: Int
    /// What OpenSSL is expected to say.
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
    /// One case in the manifest: enough to find and judge its files.
    public struct Entry: Codable, Sendable, Hashable {
        /// The case's name.
        public var id: String
        /// One line: what the receipt is and why a validator must say what it should.
        public var description: String
        /// The verdict a correct validator reaches.
        public var expected: CaseDescription.Expected
        /// As in `case.json`; nil only in manifests written before they existed.
        public var tags: [ForgeCase.Tag]?
        /// What it costs a validator to get this case wrong.
        public var importance: ForgeCase.Importance?
        /// `NAME/receipt`, or nil for `missing`.
        public var receipt: String?
        /// `NAME/case.json`, relative to the output directory.
        public var caseFile: String

        /// An entry from its fields.
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
        /// The bundle identifier given.
        public var bundleId: String
        /// The app version given.
        public var version: String
        /// Nil: the forge's default for the platform ("17" on iOS, "2.0" on macOS).
        public var originalVersion: String?
        /// iOS or macOS.
        public var platform: Platform
        /// The device given (UUID or MAC form); nil: each case draws one from the seed.
        public var deviceId: String?
        /// Production or sandbox receipts.
        public var environment: AppEnvironment
        /// `built-in` (the example app's history), `catalogue` (built from a `.storekit`
        /// file) or `explicit` (an `--app` file's list).
        public var purchases: String
        /// The product ids the receipts may carry.
        public var productIds: [String]

        /// The manifest's view of `app`.
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
    /// `receipt-forge`.
    public var generator: String
    /// The app the tree was minted for; nil in trees written before it was recorded.
    public var app: App?
    /// The reference current time the tree was minted at (RFC 3339).
    public var now: String
    /// The seed every random choice was drawn from: the same seed, app and time give the same bytes.
    public var seed: UInt64
    /// The trust anchor's path, `Certs/root.cer`.
    public var trustAnchor: String
    /// Every reason code a verdict may have, so consumers can check theirs are known.
    public var reasons: [VerdictReason]
    /// Every case, in catalogue order.
    public var cases: [Entry]

    /// The format version this forge writes.
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
