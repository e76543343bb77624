import BER
import Receipt
import AppInput

/// What OpenSSL (`PKCS7_verify`, chain checked at the receipt creation date against the
/// case's trust anchor, purpose any) is expected to say about a case's file. It knows
/// nothing of Apple's rules (bundle, device hash, marker extensions, algorithms
/// allowed), so for those cases it says `verified`.
public enum OpenSSLOutcome: String, Sendable, Codable, CaseIterable {
    /// `PKCS7_verify` succeeds: signature and chain check out, whatever Apple's rules say.
    case verified
    /// The signature (or the signed attributes' digest) does not verify.
    case signatureInvalid = "signature-invalid"
    /// The chain does not reach the anchor at the creation date.
    case chainInvalid = "chain-invalid"
    /// OpenSSL cannot parse the file as PKCS #7.
    case unparseable
    /// The case has no file.
    case noFile = "no-file"
}

/// One entry of the case catalogue: the single declarative table that drives the
/// forge, the manifest and the tests.
public struct ForgeCase: FixtureCase {
    /// The case's name: its folder in the tree and its key in the manifest (`copied-device`).
    public let id: String
    /// One line: what the receipt is and why a validator must say what it should.
    public let summary: String
    /// The verdict a correct validator reaches.
    public let expected: VerdictReason
    /// What it costs a validator to get this case wrong.
    public let importance: Importance
    /// What a validator must get right to reach the expected verdict, in `Tag.allCases` order.
    public let tags: [Tag]
    /// What `openssl cms -verify` is expected to say about the file.
    public let openSSL: OpenSSLOutcome
    package let recipe: Recipe

    package init(_ id: String, _ expected: VerdictReason, _ importance: Importance, _ tags: Set<Tag>,
         openSSL: OpenSSLOutcome = .verified, _ summary: String, _ recipe: Recipe = Recipe()) {
        self.id = id
        self.summary = summary
        self.expected = expected
        self.importance = importance
        self.tags = Tag.allCases.filter(tags.contains)
        self.openSSL = openSSL
        self.recipe = recipe
    }

    /// The platform the receipt is minted for (the device identifier's kind follows it).
    public var platform: Platform { recipe.platform }
    /// False for the one case whose point is that there is no receipt file.
    public var hasFile: Bool { recipe.damage != .noFile }
    /// `ID/receipt` in the tree, or nil for the case without a file.
    public var receiptPath: String? { hasFile ? "\(id)/receipt" : nil }

    /// Every case, in the order they are listed and minted.
    public static let catalogue: [ForgeCase] = [
        valid, expiredCert, wrongBundle, copiedDevice, missing, vpp, vppExpired, signedAfterExpiry, tamperedPayload,
        tamperedSignature, untrustedRoot, missingIntermediate, wrongVersion, sha1Legacy, xcodeStorekit, macosDevice,
        manyIAPs, subscriptions, fractionalDates, fractionalDatesEverywhere, unknownAttributes, hugeAttributeTypes, malformedPayload, truncated,
        notPKCS7, sandbox, certsReversed, sha256SignatureOID, nestedOctetString, largeIntegers, sha512Digest, md5Digest,
        leafWithoutMarker, trailingData, offsetCreationDate,
    ]

    /// The catalogue (`CaseIterable`-style spelling).
    public static var allCases: [ForgeCase] { catalogue }

    // MARK: The cases

    /// `valid`, expected `valid`: App Store receipt, everything right: SHA-256, iOS device, 3 in-app
    /// purchases.
    public static let valid = ForgeCase("valid", .valid, .high, [.baseline],
        "App Store receipt, everything right: SHA-256, iOS device, 3 in-app purchases",
        Recipe())

    /// `expired-cert`, expected `valid`: the leaf certificate expired before today but covered the
    /// receipt creation date: valid, because Apple validates the chain at the creation date; a
    /// validator that checks 'now' wrongly rejects it.
    public static let expiredCert = ForgeCase("expired-cert", .valid, .high, [.chain, .creationDateRule],
        "the leaf certificate expired before today but covered the receipt creation date: valid, "
            + "because Apple validates the chain at the creation date; a validator that checks 'now' wrongly rejects it",
        Recipe(chain: .leafExpiredAfterCreation))

    /// `wrong-bundle`, expected `bundle-mismatch`: a genuine receipt of another app (bundle id
    /// com.example.otherapp), device hash consistent.
    public static let wrongBundle = ForgeCase("wrong-bundle", .bundleMismatch, .critical, [.bundle],
        "a genuine receipt of another app (bundle id com.example.otherapp), device hash consistent",
        Recipe(wrongBundle: true))

    /// `copied-device`, expected `device-hash-mismatch`: a receipt copied from another device:
    /// attribute 5 hashes another identifierForVendor.
    public static let copiedDevice = ForgeCase("copied-device", .deviceHashMismatch, .critical, [.deviceHash],
        "a receipt copied from another device: attribute 5 hashes another identifierForVendor",
        Recipe(hashForAnotherDevice: true))

    /// `missing`, expected `missing`: no receipt file at all: the app must refresh it (iOS) or exit
    /// with 173 (macOS).
    public static let missing = ForgeCase("missing", .missing, .critical, [.noFile], openSSL: .noFile,
        "no receipt file at all: the app must refresh it (iOS) or exit with 173 (macOS)",
        Recipe(damage: .noFile))

    /// `vpp`, expected `valid`: Volume Purchase Program receipt (environment ProductionVPP) whose
    /// attribute 21 expiry lies after 2090.
    public static let vpp = ForgeCase("vpp", .valid, .high, [.vpp, .dates],
        "Volume Purchase Program receipt (environment ProductionVPP) whose attribute 21 expiry lies after 2090",
        Recipe(environment: "ProductionVPP", expiration: .future))

    /// `vpp-expired`, expected `receipt-expired`: VPP receipt whose attribute 21 expiry is a day before
    /// the reference now (after creation): expired. A receipt is expired from its expiry instant on
    /// (expiry equal to now: expired); the forge never mints an expiry within a day of now.
    public static let vppExpired = ForgeCase("vpp-expired", .receiptExpired, .critical, [.vpp, .dates],
        "VPP receipt whose attribute 21 expiry is a day before the reference now (after creation): expired. "
            + "A receipt is expired from its expiry instant on (expiry equal to now: expired); "
            + "the forge never mints an expiry within a day of now",
        Recipe(environment: "ProductionVPP", expiration: .past))

    /// `signed-after-expiry`, expected `certificate-expired`: created after the leaf certificate
    /// expired: invalid even though the chain is Apple-shaped.
    public static let signedAfterExpiry = ForgeCase("signed-after-expiry", .certificateExpired, .critical,
        [.chain, .creationDateRule], openSSL: .chainInvalid,
        "created after the leaf certificate expired: invalid even though the chain is Apple-shaped",
        Recipe(chain: .leafExpiredBeforeCreation))

    /// `tampered-payload`, expected `signature-invalid`: one payload byte changed after signing (inside
    /// attribute 6): structure fine, signature not.
    public static let tamperedPayload = ForgeCase("tampered-payload", .signatureInvalid, .critical, [.signature],
        openSSL: .signatureInvalid,
        "one payload byte changed after signing (inside attribute 6): structure fine, signature not",
        Recipe(damage: .tamperPayload))

    /// `tampered-signature`, expected `signature-invalid`: the last byte of the RSA signature flipped.
    public static let tamperedSignature = ForgeCase("tampered-signature", .signatureInvalid, .critical, [.signature],
        openSSL: .signatureInvalid,
        "the last byte of the RSA signature flipped",
        Recipe(damage: .tamperSignature))

    /// `untrusted-root`, expected `untrusted-chain`: an Apple-shaped chain that ends in an unrelated
    /// root: the anchor passed in must actually be used.
    public static let untrustedRoot = ForgeCase("untrusted-root", .untrustedChain, .critical, [.chain],
        openSSL: .chainInvalid,
        "an Apple-shaped chain that ends in an unrelated root: the anchor passed in must actually be used",
        Recipe(chain: .unrelatedRoot))

    /// `missing-intermediate`, expected `untrusted-chain`: certificates leaf and root only: the chain
    /// cannot be built.
    public static let missingIntermediate = ForgeCase("missing-intermediate", .untrustedChain, .critical, [.chain],
        openSSL: .chainInvalid,
        "certificates leaf and root only: the chain cannot be built",
        Recipe(chain: .withoutIntermediate))

    /// `wrong-version`, expected `version-mismatch`: the receipt is for another version of the app (41
    /// when the app is 42; the last number one lower).
    public static let wrongVersion = ForgeCase("wrong-version", .versionMismatch, .low, [.version],
        "the receipt is for another version of the app (41 when the app is 42; the last number one lower)",
        Recipe(wrongVersion: true))

    /// `sha1-legacy`, expected `valid`: SHA-1 digest, as every App Store receipt before February 2023.
    public static let sha1Legacy = ForgeCase("sha1-legacy", .valid, .high, [.digest, .sha1],
        "SHA-1 digest, as every App Store receipt before February 2023",
        Recipe(digest: .sha1))

    /// `xcode-storekit`, expected `valid`: Xcode StoreKit-testing receipt: BER indefinite lengths,
    /// constructed OCTET STRING, one self-signed certificate (anchor Certs/storekit.cer),
    /// sha256WithRSAEncryption, +0100 dates, 8-byte opaque.
    public static let xcodeStorekit = ForgeCase("xcode-storekit", .valid, .low, [.xcode, .ber, .signature, .dates],
        "Xcode StoreKit-testing receipt: BER indefinite lengths, constructed OCTET STRING, one self-signed "
            + "certificate (anchor Certs/storekit.cer), sha256WithRSAEncryption, +0100 dates, 8-byte opaque",
        Recipe(style: .xcode))

    /// `macos-device`, expected `valid`: Mac App Store receipt: device identifier is a 6-byte MAC
    /// address.
    public static let macosDevice = ForgeCase("macos-device", .valid, .high, [.deviceHash, .macos],
        "Mac App Store receipt: device identifier is a 6-byte MAC address",
        Recipe(platform: .macos))

    /// `many-iaps`, expected `valid`: 180 in-app purchase records, payload over 64 KiB (3-byte
    /// lengths).
    public static let manyIAPs = ForgeCase("many-iaps", .valid, .high, [.payload, .largeReceipt, .inApp],
        "180 in-app purchase records, payload over 64 KiB (3-byte lengths)",
        Recipe(purchases: .many(180)))

    /// `subscriptions`, expected `valid`: auto-renewable subscriptions: expired, active, cancelled
    /// (1712 set), trial (1713) and intro offer (1719).
    public static let subscriptions = ForgeCase("subscriptions", .valid, .high, [.inApp, .dates],
        "auto-renewable subscriptions: expired, active, cancelled (1712 set), trial (1713) and intro offer (1719)",
        Recipe(purchases: .subscriptions))

    /// `fractional-dates`, expected `valid`: fractional seconds (.SSSZ) where Apple writes them:
    /// attribute 8 and the original purchase date (18), as in a 2020 Mac App Store receipt (18 =
    /// 2020-10-08T08:46:35.304Z); creation and in-app dates whole seconds, empty dates for absent ones.
    /// A validator that cannot parse .SSS rejects such receipts users hold.
    public static let fractionalDates = ForgeCase("fractional-dates", .valid, .high, [.dates],
        "fractional seconds (.SSSZ) where Apple writes them: attribute 8 and the original purchase date (18), "
            + "as in a 2020 Mac App Store receipt (18 = 2020-10-08T08:46:35.304Z); creation and in-app dates whole "
            + "seconds, empty dates for absent ones. A validator that cannot parse .SSS rejects such receipts users hold",
        Recipe(dateStyle: .fractionsWhereAppleWritesThem))

    /// `fractional-dates-everywhere`, expected `valid`: fractional seconds (.SSS) in every date,
    /// creation (12) and in-app dates included, several with +hhmm/-hhmm offsets: no real App Store
    /// receipt has a fraction outside attributes 8 and 18 or an offset, so this tests date parsing, not
    /// a receipt users hold.
    public static let fractionalDatesEverywhere = ForgeCase("fractional-dates-everywhere", .valid, .low, [.dates],
        "fractional seconds (.SSS) in every date, creation (12) and in-app dates included, several with "
            + "+hhmm/-hhmm offsets: no real App Store receipt has a fraction outside attributes 8 and 18 or an offset, "
            + "so this tests date parsing, not a receipt users hold",
        Recipe(dateStyle: .fractionsEverywhere))

    /// `unknown-attributes`, expected `valid`: extra attribute types the validator does not know (app
    /// and in-app level, odd versions): ignore them.
    public static let unknownAttributes = ForgeCase("unknown-attributes", .valid, .high, [.payload, .unknownAttributes],
        "extra attribute types the validator does not know (app and in-app level, odd versions): ignore them",
        Recipe(unknownAttributes: .ordinary))

    /// `huge-attribute-types`, expected `valid`: attribute type numbers beyond 31 bits (2^47-1, 2^31,
    /// Int64.min) and negative: Apple says ignore unknown types, so a validator that refuses or
    /// truncates them is wrong.
    public static let hugeAttributeTypes = ForgeCase("huge-attribute-types", .valid, .low,
        [.payload, .unknownAttributes, .integers],
        "attribute type numbers beyond 31 bits (2^47-1, 2^31, Int64.min) and negative: Apple says ignore "
            + "unknown types, so a validator that refuses or truncates them is wrong",
        Recipe(unknownAttributes: .huge))

    /// `malformed-payload`, expected `malformed`: correctly signed, but the payload is a truncated SET
    /// (its length runs past the end).
    public static let malformedPayload = ForgeCase("malformed-payload", .malformed, .low, [.payload],
        "correctly signed, but the payload is a truncated SET (its length runs past the end)",
        Recipe(damage: .malformedPayload))

    /// `truncated`, expected `malformed`: the valid receipt cut to two thirds of its length.
    public static let truncated = ForgeCase("truncated", .malformed, .critical, [.container], openSSL: .unparseable,
        "the valid receipt cut to two thirds of its length",
        Recipe(damage: .truncate))

    /// `not-pkcs7`, expected `malformed`: an iOS 6 style plist transaction receipt where the PKCS#7 app
    /// receipt should be.
    public static let notPKCS7 = ForgeCase("not-pkcs7", .malformed, .critical, [.container], openSSL: .unparseable,
        "an iOS 6 style plist transaction receipt where the PKCS#7 app receipt should be",
        Recipe(damage: .plist))

    /// `sandbox`, expected `valid`: sandbox receipt: environment ProductionSandbox, app item id 0,
    /// empty attribute 8, original version 1.0.
    public static let sandbox = ForgeCase("sandbox", .valid, .high, [.sandbox, .dates],
        "sandbox receipt: environment ProductionSandbox, app item id 0, empty attribute 8, original version 1.0",
        Recipe(environment: "ProductionSandbox"))

    /// `certs-reversed`, expected `valid`: certificates in the order root, intermediate, leaf: CMS
    /// certificates are an unordered SET, so find the signer by issuer and serial, not by position.
    /// Every real receipt lists leaf, intermediate, root, so a validator that takes the first
    /// certificate works on all of them: a conformance case.
    public static let certsReversed = ForgeCase("certs-reversed", .valid, .low, [.container, .chain],
        "certificates in the order root, intermediate, leaf: CMS certificates are an unordered SET, so find the "
            + "signer by issuer and serial, not by position. Every real receipt lists leaf, intermediate, root, so a "
            + "validator that takes the first certificate works on all of them: a conformance case",
        Recipe(chain: .reversed))

    /// `sha256-signature-oid`, expected `valid`: signerInfo signature algorithm sha256WithRSAEncryption
    /// (as in Xcode receipts) instead of rsaEncryption.
    public static let sha256SignatureOID = ForgeCase("sha256-signature-oid", .valid, .low, [.signature],
        "signerInfo signature algorithm sha256WithRSAEncryption (as in Xcode receipts) instead of rsaEncryption",
        Recipe(signatureAlgorithm: .sha256WithRSAEncryption))

    /// `nested-octet-string`, expected `valid`: App Store chain, BER indefinite lengths, payload in
    /// nested constructed OCTET STRINGs.
    public static let nestedOctetString = ForgeCase("nested-octet-string", .valid, .low, [.container, .ber],
        "App Store chain, BER indefinite lengths, payload in nested constructed OCTET STRINGs",
        Recipe(layout: .berNestedOctetString))

    /// `large-integers`, expected `valid`: 64-bit integers at their limits: app item id and web order
    /// line item id 2^63-1.
    public static let largeIntegers = ForgeCase("large-integers", .valid, .high, [.integers, .inApp],
        "64-bit integers at their limits: app item id and web order line item id 2^63-1",
        Recipe(purchases: .largeIntegers))

    /// `sha512-digest`, expected `unsupported-algorithm`: correctly signed with SHA-512, which receipts
    /// never use: refuse it as unsupported (OpenSSL accepts it).
    public static let sha512Digest = ForgeCase("sha512-digest", .unsupportedAlgorithm, .low, [.digest, .strictPolicy],
        "correctly signed with SHA-512, which receipts never use: refuse it as unsupported (OpenSSL accepts it)",
        Recipe(digest: .sha512))

    /// `md5-digest`, expected `unsupported-algorithm`: correctly signed with MD5, which receipts never
    /// use and which is broken: refuse it as unsupported; a validator with an allow-list of digests
    /// passes both this and sha512-digest.
    public static let md5Digest = ForgeCase("md5-digest", .unsupportedAlgorithm, .low, [.digest, .strictPolicy],
        "correctly signed with MD5, which receipts never use and which is broken: refuse it as unsupported; "
            + "a validator with an allow-list of digests passes both this and sha512-digest",
        Recipe(digest: .md5))

    /// `leaf-without-marker`, expected `untrusted-chain`: the signing certificate lacks Apple's marker
    /// extension 1.2.840.113635.100.6.11.1 (OpenSSL accepts it).
    public static let leafWithoutMarker = ForgeCase("leaf-without-marker", .untrustedChain, .critical,
        [.chain, .strictPolicy],
        "the signing certificate lacks Apple's marker extension 1.2.840.113635.100.6.11.1 (OpenSSL accepts it)",
        Recipe(chain: .leafWithoutMarker))

    /// `trailing-data`, expected `malformed`: valid receipt followed by 16 bytes of garbage: strict
    /// parsers refuse trailing data (OpenSSL ignores it).
    public static let trailingData = ForgeCase("trailing-data", .malformed, .low, [.container, .strictPolicy],
        "valid receipt followed by 16 bytes of garbage: strict parsers refuse trailing data (OpenSSL ignores it)",
        Recipe(damage: .trailingData))

    /// `offset-creation-date`, expected `valid`: the leaf expired after the receipt was created, and
    /// attribute 12 is written with a +0930 offset: valid at the creation date; a validator that cannot
    /// parse the offset and falls back to 'now' wrongly rejects it.
    public static let offsetCreationDate = ForgeCase("offset-creation-date", .valid, .low,
        [.chain, .creationDateRule, .dates],
        "the leaf expired after the receipt was created, and attribute 12 is written with a +0930 offset: "
            + "valid at the creation date; a validator that cannot parse the offset and falls back to 'now' wrongly rejects it",
        Recipe(dateStyle: .offsetCreationDate, chain: .leafExpiredAfterCreation))
}

/// How a case's receipt differs from the `valid` one. Each case changes one thing.
package struct Recipe: Sendable {
    package enum Style: Sendable { case appStore, xcode }
    package enum Purchases: Sendable, Equatable { case few, many(Int), subscriptions, largeIntegers }
    package enum Expiration: Sendable { case none, future, past }
    package enum DateStyle: Sendable {
        case plain
        /// Fractional seconds in attributes 8 and 18 only, as Apple writes them.
        case fractionsWhereAppleWritesThem
        /// Fractional seconds in every date, some with offsets.
        case fractionsEverywhere
        case offsetCreationDate
    }
    package enum UnknownAttributes: Sendable { case none, ordinary, huge }
    package enum Chain: Sendable {
        case standard, leafExpiredAfterCreation, leafExpiredBeforeCreation, unrelatedRoot, withoutIntermediate
        case reversed, leafWithoutMarker
    }
    package enum Damage: Sendable {
        case none, tamperPayload, tamperSignature, truncate, trailingData, plist, noFile, malformedPayload
    }

    package var platform: Platform = .ios
    package var style: Style = .appStore
    package var environment: String?
    /// The receipt names another app (`wrong-bundle`).
    package var wrongBundle = false
    /// The receipt names another version of the app (`wrong-version`).
    package var wrongVersion = false
    package var hashForAnotherDevice = false
    package var purchases: Purchases = .few
    package var expiration: Expiration = .none
    package var dateStyle: DateStyle = .plain
    package var unknownAttributes: UnknownAttributes = .none
    package var digest: DigestAlgorithm = .sha256
    package var signatureAlgorithm: OID = .rsaEncryption
    package var layout: ReceiptSigner.Layout = .definite
    package var chain: Chain = .standard
    package var damage: Damage = .none
}
