import BER
import FileAccess
import Foundation
import Receipt

/// The time the certificate chain is validated at.
public enum ChainValidationTime: Sendable, Hashable {
    /// The receipt creation date (attribute 12): Apple's rule. A receipt signed while
    /// its certificates were valid stays valid after they expire.
    case creationDate
    /// The validator's clock reading (`now`).
    case now
    /// A fixed instant.
    case date(Date)
}

/// Whether and how the device hash (attribute 5) is checked.
public enum DeviceCheck: Sendable, Hashable {
    /// Attribute 5 must have been computed for this device.
    case identifier(DeviceIdentifier)
    /// No device check (only when the caller says so: a server validating receipts of
    /// devices it cannot identify).
    case skip
}

/// Validates App Store receipt files: the reference validator the forge's fixtures
/// are judged by. `validate` returns a `Verdict`; it never throws and never traps on
/// any input.
///
/// The steps, cheap to expensive, first failure wins:
/// 1. the file: missing (`missing`), not PKCS#7 or undecodable (`malformed`);
/// 2. the payload decodes (`malformed`), and has a creation date when the chain is
///    validated at it;
/// 3. `SignedDataVerifier`: structure, algorithms, certificates, signer, signed
///    attributes, RSA signature, chain at the chosen time;
/// 4. the receipt policies, in order (bundle id, app version, device hash, VPP
///    expiry against `now`).
public struct ReceiptValidator: Sendable {
    /// What the app knows about itself: the inputs of the standard receipt policies.
    public struct Options: Sendable, Hashable {
        /// The app's bundle identifier, which attribute 2 must equal.
        public var bundleIdentifier: String
        /// Nil: the app version is not checked.
        public var appVersion: String?
        /// The device whose hash attribute 5 must be, or `skip`.
        public var device: DeviceCheck
        /// When the chain is validated: the receipt's creation date by default, as Apple does.
        public var chainValidationTime: ChainValidationTime
        /// Require Apple's marker extensions on the signer and its issuer (not for
        /// signers the caller trusts directly, such as Xcode's StoreKit certificate).
        public var requireAppleMarkers: Bool

        /// The app's inputs; by default the chain is validated at the creation date and Apple's markers are required.
        public init(bundleIdentifier: String, appVersion: String? = nil, device: DeviceCheck,
                    chainValidationTime: ChainValidationTime = .creationDate, requireAppleMarkers: Bool = true) {
            self.bundleIdentifier = bundleIdentifier
            self.appVersion = appVersion
            self.device = device
            self.chainValidationTime = chainValidationTime
            self.requireAppleMarkers = requireAppleMarkers
        }

        /// Bundle id, app version (when given), device hash (unless skipped), VPP expiry.
        public var receiptPolicies: [any ReceiptPolicy] {
            var policies: [any ReceiptPolicy] = [BundleIdentifierPolicy(bundleIdentifier)]
            if let appVersion { policies.append(AppVersionPolicy(appVersion)) }
            if case .identifier(let device) = device { policies.append(DeviceHashPolicy(device)) }
            policies.append(ReceiptExpirationPolicy())
            return policies
        }

        /// `ChainVerifier.defaultPolicies`, plus the Apple markers when required.
        public func certificatePolicies(anchors: [Certificate]) -> [any CertificatePolicy] {
            ChainVerifier.defaultPolicies + (requireAppleMarkers ? [DirectlyTrustedOrAppleMarkedPolicy(anchors: anchors)] : [])
        }
    }

    /// The container's signature and chain check (step 3).
    public let signedDataVerifier: SignedDataVerifier
    /// The payload's checks (step 4), in order.
    public let receiptPolicies: [any ReceiptPolicy]
    /// When the chain is validated.
    public let chainValidationTime: ChainValidationTime
    /// Verified (issuer, certificate) signatures shared across calls; nil: none.
    public let cache: SignatureCache?
    /// Read once per `validate(_:)` call; `validate(_:now:)` takes the time instead.
    public let clock: @Sendable () -> Date

    /// A validator from its parts: any certificate and receipt policies.
    public init(signedDataVerifier: SignedDataVerifier, receiptPolicies: [any ReceiptPolicy],
                chainValidationTime: ChainValidationTime = .creationDate, cache: SignatureCache? = nil,
                clock: @escaping @Sendable () -> Date = { Date() }) {
        self.signedDataVerifier = signedDataVerifier
        self.receiptPolicies = receiptPolicies
        self.chainValidationTime = chainValidationTime
        self.cache = cache
        self.clock = clock
    }

    /// The standard validator: `anchors` are the only trust anchors (the receipt's own
    /// certificates are never trusted for being there).
    public init(anchors: [Certificate], options: Options, cache: SignatureCache? = nil,
                clock: @escaping @Sendable () -> Date = { Date() }) {
        let chain = ChainVerifier(anchors: anchors, policies: options.certificatePolicies(anchors: anchors))
        self.init(signedDataVerifier: SignedDataVerifier(chainVerifier: chain), receiptPolicies: options.receiptPolicies,
                  chainValidationTime: options.chainValidationTime, cache: cache, clock: clock)
    }

    /// Validates a receipt file's bytes (binary DER/BER) at the clock's current time.
    public func validate(_ bytes: [UInt8]) -> Verdict {
        validate(bytes, now: clock())
    }

    /// Validates the file at `url`. Only a path where nothing exists is the verdict
    /// `missing`; a file that is there but cannot be read (a directory, a permission
    /// failure, a read error) throws, with the system's reason.
    public func validate(fileAt url: URL, now: Date? = nil) throws(FileReadError) -> Verdict {
        guard let bytes = try FileReading.contents(atPath: url.path) else {
            return Verdict(.missing, "no receipt at \(url.path): refresh it (iOS) or exit with status 173 (macOS)")
        }
        return validate(bytes, now: now ?? clock())
    }

    /// Validates a receipt file's bytes with `now` as the current time.
    public func validate(_ bytes: [UInt8], now: Date) -> Verdict {
        let nowTime = ASN1Time(secondsSince1970: Int64(now.timeIntervalSince1970.rounded(.down)))
        // 1. The container.
        let signedData: PKCS7SignedData
        do {
            signedData = try PKCS7SignedData(bytes: bytes)
        } catch {
            return Verdict(.malformed, error.description)
        }
        // 2. The payload, and the time the chain is validated at.
        let receipt: AppReceipt
        do {
            receipt = try signedData.decodeReceipt()
        } catch {
            return Verdict(.malformed, error.description)
        }
        let chainTime: ASN1Time
        switch chainValidationTime {
        case .creationDate:
            guard let creation = receipt.creationDate else {
                return Verdict(.malformed, "payload has no attribute 12 (creation date) to validate the chain at", receipt: receipt)
            }
            chainTime = ASN1Time(secondsSince1970: creation.secondsSince1970)
        case .now:
            chainTime = nowTime
        case .date(let date):
            chainTime = ASN1Time(secondsSince1970: Int64(date.timeIntervalSince1970.rounded(.down)))
        }
        // 3. Signature and chain.
        let signature = signedDataVerifier.verify(signedData, at: chainTime, cache: cache)
        guard signature.isValid else { return signature.with(receipt: receipt) }
        // 4. What the receipt says.
        if let failure = receiptPolicies.firstFailure(receipt, now: nowTime) {
            return Verdict(failure.reason, failure.detail, receipt: receipt, chain: signature.chain)
        }
        return Verdict(.valid, signature.detail, receipt: receipt, chain: signature.chain)
    }
}

extension ReceiptValidator {
    /// Parses DER trust anchors (as the caller hands them in) with strict DER rules.
    public static func anchors(der certificates: [[UInt8]]) throws(CertificateError) -> [Certificate] {
        var anchors: [Certificate] = []
        for bytes in certificates { anchors.append(try Certificate(bytes, rules: .der)) }
        return anchors
    }
}
