import ReceiptVerifier
import StoreKit2

/// How a case's verifier is set up (`case.json` `verifier`): Apple's
/// `SignedDataVerifier` arguments, roots as paths relative to the tree.
public struct JWSVerifierSettings: Codable, Hashable, Sendable {
    /// The bundle identifier the verifier expects.
    public var bundleId: String
    /// Null outside Production (Apple requires it there).
    public var appAppleId: Int64?
    /// The environment the verifier expects.
    public var environment: JWSEnvironment
    /// The trusted roots, DER files relative to the tree.
    public var rootCertificates: [String]

    package enum CodingKeys: String, CodingKey { case bundleId, appAppleId, environment, rootCertificates }

    /// Encodes every field, `appAppleId` as `null` when absent, as the schema requires.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(bundleId, forKey: .bundleId)
        try container.encode(appAppleId, forKey: .appAppleId)  // null, not absent
        try container.encode(environment, forKey: .environment)
        try container.encode(rootCertificates, forKey: .rootCertificates)
    }
}

/// A StoreKit 2 case's `case.json` (Schemas/jws-case.schema.json).
public struct JWSCaseDescription: Codable, Hashable, Sendable {
    /// What a correct verifier answers.
    public struct Expected: Codable, Hashable, Sendable {
        /// The status name Apple's `SignedDataVerifier` gives the file.
        public var status: JWSVerificationStatus
        /// For notifications: the status of each nested JWS (`data.signedTransactionInfo` …)
        /// verified with the same settings as its kind.
        public var nested: [String: JWSVerificationStatus]?
        /// What Apple's Swift library answers, where it is not the same as `status`
        /// (`SwiftLibraryVerdict`); absent where the two libraries agree.
        public var swiftLibrary: SwiftLibraryVerdict?

        public init(status: JWSVerificationStatus, nested: [String: JWSVerificationStatus]? = nil,
                    swiftLibrary: SwiftLibraryVerdict? = nil) {
            self.status = status
            self.nested = nested
            self.swiftLibrary = swiftLibrary
        }
    }

    /// The case's id.
    public var id: String
    /// What kind of JWS the file is.
    public var kind: JWSKind
    /// The file's path relative to the tree.
    public var file: String
    /// One line: what the file is and why a verifier must answer what it should.
    public var summary: String
    /// What a correct verifier answers.
    public var expected: Expected
    /// How to set up the verifier for this case.
    public var verifier: JWSVerifierSettings
    /// The payload's `signedDate` in milliseconds (the chain is validated then); absent for Xcode's float dates.
    public var signedDate: Int64?
}

/// `manifest.json` of a StoreKit 2 tree (Schemas/jws-manifest.schema.json).
public struct JWSManifest: Codable, Hashable, Sendable {
    /// One case in the manifest.
    public struct Entry: Codable, Hashable, Sendable {
        /// The case's id.
        public var id: String
        /// What kind of JWS the file is.
        public var kind: JWSKind
        /// The file's path relative to the tree.
        public var file: String
        /// The status a correct verifier gives the file.
        public var expectedStatus: JWSVerificationStatus
    }

    /// `receipt-forge`.
    public var generator = "receipt-forge"
    /// `storekit2`, telling this manifest from the receipt tree's.
    public var format = "storekit2"
    /// The reference time the tree was minted at, in seconds since 1970.
    public var now: Int64
    /// The seed every random choice was drawn from.
    public var seed: UInt64
    /// The app's bundle identifier.
    public var bundleId: String
    /// The app's Apple ID that Production payloads carry.
    public var appAppleId: Int64
    /// The trusted root's path relative to the tree.
    public var rootCertificate: String
    /// Every case, in catalogue order.
    public var cases: [Entry]
}
