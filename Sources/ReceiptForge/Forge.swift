import BER
import Foundation
import Receipt
import AppInput
import ForgeCA
import ForgeSupport
import OwnedFileTree

/// The reference dates and seed a forge run uses. Defaults are fixed so two runs give
/// byte-identical trees, and chosen so every verdict holds whenever the fixtures are
/// used between the default `now` (2026-06-01, already past) and 2090.
public struct ForgeSettings: Sendable, Hashable {
    /// The reference current time written to every case file (the `now` VPP expiry is
    /// compared with). Receipts are created 30 days before it, minus a little.
    public var now: Int64
    /// The seed of every random choice a case makes (device, identifiers, purchases): the same seed gives the same bytes.
    public var seed: UInt64

    /// 2026-06-01T00:00:00Z.
    public static let defaultNow = ASN1Time(year: 2026, month: 6, day: 1).secondsSince1970
    /// 1 (`DeterministicRandom.defaultSeed`).
    public static let defaultSeed = DeterministicRandom.defaultSeed
    /// VPP expirations (attribute 21) of valid cases lie at or after this: 2095-01-01.
    public static let farFuture = ASN1Time(year: 2095, month: 1, day: 1).secondsSince1970
    /// `--now` must fall in this range: the committed leaf starts in 2024 and every
    /// certificate ends in 2099.
    public static let allowedNow = ASN1Time(year: 2024, month: 3, day: 1).secondsSince1970
        ... ASN1Time(year: 2089, month: 12, day: 31).secondsSince1970

    /// Settings with the reference time `now` (seconds since 1970) and `seed`.
    public init(now: Int64 = ForgeSettings.defaultNow, seed: UInt64 = ForgeSettings.defaultSeed) {
        self.now = now
        self.seed = seed
    }

    /// The receipt creation date of every case: 29 days 14 h 23 min 53 s before `now`.
    public var creationDate: Int64 { now - 30 * 86_400 + 34_567 }

    /// The settings whose receipts are created at `creationDate` (seconds since 1970):
    /// `now` is 29 days 14 h 23 min 53 s after it.
    public init(creationDate: Int64, seed: UInt64 = ForgeSettings.defaultSeed) {
        self.init(now: creationDate + 30 * 86_400 - 34_567, seed: seed)
    }
}

/// One minted case: the receipt file (nil for `missing`), the verdict a correct
/// validator reaches, and every input it needs, as typed values (and as `case.json`).
public struct MintedCase: Sendable {
    /// The catalogue entry that was minted.
    public let forgeCase: ForgeCase
    /// The receipt file's bytes; nil for `missing`.
    public let receipt: [UInt8]?
    /// `case.json`.
    public let description: CaseDescription
    /// The DER trust anchor to validate this receipt against: the test root, or the
    /// StoreKit certificate for the Xcode case.
    public let anchor: [UInt8]
    /// The app and device the validator runs as (bundle id, version, platform, device).
    public let app: AppUnderTest
    /// The receipt creation date (attribute 12), the instant the chain is validated at.
    public let creationDate: Date
    /// The reference current time: VPP expiry (attribute 21) is judged against it.
    public let now: Date

    /// The case's id.
    public var id: String { forgeCase.id }
    /// The reason a correct validator gives (`valid` for the valid ones).
    public var expected: VerdictReason { forgeCase.expected }
}

extension MintedCase: MintedFixture {
    /// `receipt` and `receipt.b64`, or nothing for the case without a file.
    public var caseFiles: [(name: String, contents: [UInt8])] { receipt.map(receiptFiles) ?? [] }
}

/// A receipt file as a case folder holds it: `receipt` (binary, the file name apps read)
/// and `receipt.b64` (base64 and a newline, as sent to a server).
public func receiptFiles(_ receipt: [UInt8]) -> [(name: String, contents: [UInt8])] {
    [("receipt", receipt), ("receipt.b64", Array((Data(receipt).base64EncodedString() + "\n").utf8))]
}

/// Mints the case catalogue with a certificate authority.
public struct Forge: FixtureForge {
    /// The certificate authority that signs: the committed test CA unless the caller brings one.
    public let authority: ReceiptAuthority
    /// The reference time and seed.
    public let settings: ForgeSettings
    /// The app every case is minted for.
    public let app: AppDescription

    /// A forge for `app`, signing with `authority`, at `settings`' time and seed.
    public init(app: AppDescription = .example, authority: ReceiptAuthority = .committed,
                settings: ForgeSettings = ForgeSettings()) {
        self.app = app
        self.authority = authority
        self.settings = settings
    }

    /// The trust anchors of App Store receipts and of the Xcode case.
    public static let rootPath = "Certs/root.cer"
    /// The Xcode StoreKit testing certificate's path, the anchor of the `xcode-storekit` case.
    public static let storeKitPath = "Certs/storekit.cer"

    /// The trust anchors written into every tree, by path: DER `.cer` and, for
    /// `openssl cms -CAfile`, PEM.
    public var anchors: [String: [UInt8]] {
        [Forge.rootPath: authority.root.certificate,
         "Certs/root.pem": Array(PEM.encode(authority.root.certificate, label: "CERTIFICATE").utf8),
         Forge.storeKitPath: authority.storeKit.certificate,
         "Certs/storekit.pem": Array(PEM.encode(authority.storeKit.certificate, label: "CERTIFICATE").utf8)]
    }

    /// `manifest.json` for the whole catalogue.
    public var manifest: ForgeManifest { ForgeManifest(cases: ForgeCase.catalogue, settings: settings, app: app) }

    /// Mints one case: the same forge and case always give the same bytes.
    public func mint(_ forgeCase: ForgeCase) throws -> MintedCase {
        let recipe = forgeCase.recipe
        let creation = settings.creationDate
        var builder = PayloadBuilder(recipe: recipe, description: app, creation: creation, now: settings.now,
                                     random: DeterministicRandom(seed: settings.seed, label: forgeCase.id))
        let app = builder.app()
        let receipt = builder.receipt(for: app)
        let xcode = recipe.style == .xcode
        var payload = receipt.encoded(order: xcode ? .asWritten : .sorted)
        if recipe.damage == .malformedPayload { payload.removeLast(10) }

        let (signer, certificates) = try chain(for: recipe, creation: creation)
        let digest = xcode ? .sha256 : recipe.digest
        let signatureAlgorithm: OID = xcode ? .sha256WithRSAEncryption : recipe.signatureAlgorithm
        let layout: ReceiptSigner.Layout = xcode ? .berIndefinite : recipe.layout
        let receiptSigner = ReceiptSigner(signer: signer, certificates: certificates, digest: digest,
                                          signatureAlgorithm: signatureAlgorithm, layout: layout)
        var signature = try signer.key.sign(payload, digest: digest)
        var signedPayload = payload
        var file: [UInt8]? = nil
        switch recipe.damage {
        case .tamperPayload:
            // Flip one bit of attribute 6's raw value: the payload still decodes.
            var tampered = receipt
            let index = tampered.attributes.firstIndex { $0.type == 6 }!
            tampered.attributes[index].value[0] ^= 0x01
            signedPayload = tampered.encoded(order: .sorted)
        case .tamperSignature:
            signature[signature.count - 1] ^= 0x01
        default:
            break
        }
        let container = receiptSigner.container(payload: signedPayload, signature: signature)
        switch recipe.damage {
        case .noFile: file = nil
        case .truncate: file = Array(container.prefix(container.count * 2 / 3))
        case .trailingData: file = container + Array("trailing garbage".utf8)
        case .plist: file = iOS6TransactionReceipt(app: app, creation: creation)
        default: file = container
        }

        let anchor = xcode ? Forge.storeKitPath : Forge.rootPath
        let description = CaseDescription(
            forgeCase: forgeCase, app: app, receipt: receipt, file: file, settings: settings,
            trustAnchor: anchor, digest: digest, signatureAlgorithm: signatureAlgorithm, layout: layout,
            certificateCount: certificates.count)
        return MintedCase(forgeCase: forgeCase, receipt: file, description: description,
                          anchor: xcode ? authority.storeKit.certificate : authority.root.certificate, app: app,
                          creationDate: Date(timeIntervalSince1970: TimeInterval(creation)),
                          now: Date(timeIntervalSince1970: TimeInterval(settings.now)))
    }

    /// The signer and the certificates (in file order) for a recipe.
    package func chain(for recipe: Recipe, creation: Int64) throws -> (SigningIdentity<RSAPrivateKey>, [[UInt8]]) {
        let ca = authority
        if recipe.style == .xcode { return (ca.storeKit, [ca.storeKit.certificate]) }
        let day: Int64 = 86_400
        let standard = [ca.leaf.certificate, ca.intermediate.certificate, ca.root.certificate]
        switch recipe.chain {
        case .standard:
            return (ca.leaf, standard)
        case .reversed:
            return (ca.leaf, standard.reversed())
        case .withoutIntermediate:
            return (ca.leaf, [ca.leaf.certificate, ca.root.certificate])
        case .unrelatedRoot:
            let intermediate = try ca.intermediate(issuedBy: ca.unrelatedRoot,
                                                   issuerName: ca.profile.unrelatedRoot.name, serial: 0x101)
            return (ca.leaf, [ca.leaf.certificate, intermediate, ca.unrelatedRoot.certificate])
        case .leafExpiredAfterCreation, .leafExpiredBeforeCreation, .leafWithoutMarker:
            let notBefore = ASN1Time(secondsSince1970: creation - 365 * day)
            let notAfter: ASN1Time
            let serial: UInt64
            switch recipe.chain {
            case .leafExpiredAfterCreation:
                // Ends a day before the reference now: expired "today", valid at creation.
                (notAfter, serial) = (ASN1Time(secondsSince1970: settings.now - day), 0x102)
            case .leafExpiredBeforeCreation:
                (notAfter, serial) = (ASN1Time(secondsSince1970: creation - day), 0x103)
            default:
                (notAfter, serial) = (AuthorityProfile.caNotAfter, 0x104)
            }
            let leafCertificate = try ca.leaf(serial: serial, notBefore: notBefore, notAfter: notAfter,
                                              marker: recipe.chain != .leafWithoutMarker)
            let leaf = SigningIdentity(certificate: leafCertificate, key: ca.leaf.key)
            return (leaf, [leafCertificate, ca.intermediate.certificate, ca.root.certificate])
        }
    }

    /// An iOS 6 style transaction receipt: an old-style plist with a base64 signature and
    /// purchase info (synthetic; what `SKPaymentTransaction.transactionReceipt` returned).
    package func iOS6TransactionReceipt(app: AppUnderTest, creation: Int64) -> [UInt8] {
        let purchaseInfo = """
            {
            \t"original-purchase-date-pst" = "\(ReceiptDate(secondsSince1970: creation - 8 * 3600).utcText)";
            \t"unique-identifier" = "\(app.device.hex)";
            \t"product-id" = "com.example.receiptforge.pro";
            \t"transaction-id" = "1000000012345678";
            \t"quantity" = "1";
            \t"bid" = "\(app.bundleIdentifier)";
            \t"bvrs" = "\(app.version)";
            }
            """
        let signature = Data(repeating: 0x02, count: 128).base64EncodedString()
        let text = """
            {
            \t"signature" = "\(signature)";
            \t"purchase-info" = "\(Data(purchaseInfo.utf8).base64EncodedString())";
            \t"environment" = "Sandbox";
            \t"pod" = "100";
            \t"signing-status" = "0";
            }
            """
        return Array(text.utf8)
    }
}
